import { describe, expect, it } from "vitest";
import { OPERATION_MARKER, type OperationRecord } from "../../lib/contract/index.ts";
import { InvariantsExtension } from "../../lib/harness/invariants/extension.ts";
import { INVARIANT_CHECKS } from "../../lib/harness/invariants/history.ts";
import type { PublicApiFacts, RunContext } from "../../lib/harness/run-extension.ts";
import { runContext } from "../run-context.ts";

const INVARIANTS_SCENARIO = "invariants";

let clock = 0;
function op(over: Partial<OperationRecord> & Pick<OperationRecord, "op" | "status" | "flow">): OperationRecord {
  clock += 20;
  return {
    booking: `b-${over.flow}`,
    slot: `t/${over.flow}`,
    key: 0,
    invokedAt: clock,
    completedAt: clock + 10,
    ...over,
  };
}

/** A plain booking's history: created, read, listed (one case of no lost booking). */
const plain = [
  op({ flow: "plain", op: "create", status: 201, bookingStatus: "reserved", cancellation: null }),
  op({ flow: "plain", op: "read", status: 200, bookingStatus: "reserved", cancellation: null }),
  op({ flow: "plain", op: "list", status: 200, listed: true, bookingStatus: "reserved" }),
];

/** A race on the last seat: one seat offered, two confirms at once, `winners` of them approved. */
function raced(winners: number): OperationRecord[] {
  const at = (clock += 100);
  const confirm = (booking: string, won: boolean): OperationRecord => ({
    flow: "race",
    op: "confirm",
    booking,
    slot: "t/race",
    key: 0,
    qty: 1,
    group: "race-0",
    invokedAt: at + 5,
    completedAt: at + 20,
    ...(won ? { status: 200, bookingStatus: "approved" } : { status: 422, code: "invalid_data" }),
  });
  return [
    { flow: "race", op: "capacity", slot: "t/race", key: 0, invokedAt: at, completedAt: at, status: 200, value: 1 },
    confirm("r1", winners > 0),
    confirm("r2", winners > 1),
  ];
}

function log(ops: readonly OperationRecord[]): string {
  return ops
    .map((o) => JSON.stringify({ level: "warning", msg: `${OPERATION_MARKER}${JSON.stringify(o)}` }))
    .join("\n");
}

function context(facts: Partial<PublicApiFacts>): RunContext {
  return runContext({ scenarios: [INVARIANTS_SCENARIO], harnessKey: "h", publicApi: facts });
}

async function judge(ops: readonly OperationRecord[], facts: Partial<PublicApiFacts>) {
  const ext = new InvariantsExtension(INVARIANTS_SCENARIO);
  return ext.finish(context(facts), {
    logs: new Map([[INVARIANTS_SCENARIO, log(ops)]]),
    startedAt: 0,
    finishedAt: 1,
  });
}

describe("the invariants verdict at the public-API level", () => {
  it("should call expiry, oversell and one winner not judged when no hold was stated, and judge the rest", async () => {
    const verdict = await judge(plain, {});
    expect(verdict.notJudged?.map((n) => n.check).sort()).toEqual(
      [INVARIANT_CHECKS.expiry, INVARIANT_CHECKS.oversell, INVARIANT_CHECKS.oneWinner].sort(),
    );
    expect(verdict.notJudged?.find((n) => n.check === INVARIANT_CHECKS.expiry)?.reason).toBe(
      "the reserved lifetime is 5 days and the run has no clock hook",
    );
    expect(verdict.notJudged?.find((n) => n.check === INVARIANT_CHECKS.oversell)?.reason).toMatch(
      /without --reservation-hold a reservation holds its seats for its whole life.*cannot be raced/,
    );
    const names = verdict.checks.map((c) => c.name);
    for (const check of [INVARIANT_CHECKS.expiry, INVARIANT_CHECKS.oversell, INVARIANT_CHECKS.oneWinner]) {
      expect(names).not.toContain(check);
    }
    expect(verdict.checks.find((c) => c.name === INVARIANT_CHECKS.lost)?.verdict).toBe("pass");
    expect(verdict.figures.judgedBy).toBe("public-api");
  });

  it("should judge oversell and one winner from a race run with the stated hold, and fail on two winners", async () => {
    const good = await judge([...plain, ...raced(1)], { reservationHoldSeconds: 2 });
    expect(good.notJudged?.map((n) => n.check)).toEqual([INVARIANT_CHECKS.expiry]);
    const oversell = (v: typeof good) => v.checks.find((c) => c.name === INVARIANT_CHECKS.oversell)?.verdict;
    const oneWinner = (v: typeof good) => v.checks.find((c) => c.name === INVARIANT_CHECKS.oneWinner)?.verdict;
    expect([oversell(good), oneWinner(good)]).toEqual(["pass", "pass"]);
    const bad = await judge([...plain, ...raced(2)], { reservationHoldSeconds: 2 });
    expect([oversell(bad), oneWinner(bad)]).toEqual(["fail", "fail"]);
    expect(bad.verdict).toBe("fail");
  });

  it("should fail, not pass or excuse, oversell and one winner when a hold was stated but no race could be set up", async () => {
    const verdict = await judge(plain, { reservationHoldSeconds: 2 });
    expect(verdict.notJudged?.map((n) => n.check)).toEqual([INVARIANT_CHECKS.expiry]);
    for (const check of [INVARIANT_CHECKS.oversell, INVARIANT_CHECKS.oneWinner]) {
      const c = verdict.checks.find((x) => x.name === check);
      expect(c?.verdict, check).toBe("fail");
      expect(c?.problems.join(" "), check).toMatch(
        /no confirm race could be set up with the stated --reservation-hold of 2 s/,
      );
    }
  });

  it("should fail a check the level can judge when the run gave it no case", async () => {
    const verdict = await judge(plain, { reservationHoldSeconds: 2 });
    const doubleConfirm = verdict.checks.find((c) => c.name === INVARIANT_CHECKS.doubleConfirm);
    expect(doubleConfirm?.verdict).toBe("fail");
    expect(doubleConfirm?.problems).toEqual(["no case of it in the history: the run was too short"]);
  });
});
