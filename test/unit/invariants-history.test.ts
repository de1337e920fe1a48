import { describe, expect, it } from "vitest";
import type { OperationRecord } from "../../lib/contract/index.ts";
import { INVARIANT_CHECKS, checkHistory, linearizable } from "../../lib/harness/invariants/history.ts";

let clock = 0;
function op(over: Partial<OperationRecord> & Pick<OperationRecord, "op" | "status">, span = 10): OperationRecord {
  clock += span + 1;
  return {
    flow: "plain",
    booking: "b1",
    slot: "t/2030-01-01",
    key: 0,
    invokedAt: clock,
    completedAt: clock + span,
    ...over,
  };
}
/** Two operations invoked together (overlapping in time). */
function race(a: OperationRecord, b: OperationRecord): OperationRecord[] {
  return [a, { ...b, invokedAt: a.invokedAt, completedAt: a.completedAt }];
}

describe("invariants history checker", () => {
  it("should accept a sequential history the state machine explains", () => {
    const h = [
      op({ op: "create", status: 201, bookingStatus: "reserved" }),
      op({ op: "read", status: 200, bookingStatus: "reserved", cancellation: null }),
      op({ op: "confirm", status: 200, bookingStatus: "approved" }),
      op({ op: "list", status: 200, listed: true, bookingStatus: "approved" }),
    ];
    expect(linearizable(h).ok).toBe(true);
  });

  it("should accept either order of a confirm-vs-cancel race and refuse an end state no order gives", () => {
    const created = op({ op: "create", status: 201 });
    const [confirm, cancel] = race(
      op({ op: "confirm", status: 200, bookingStatus: "approved" }),
      op({ op: "cancel", status: 200, bookingStatus: "approved", cancellation: "pending" }),
    ) as [OperationRecord, OperationRecord];
    const good = op({ op: "read", status: 200, bookingStatus: "approved", cancellation: "pending" });
    expect(linearizable([created, confirm, cancel, good]).ok).toBe(true);
    const lostCancel = op({ op: "read", status: 200, bookingStatus: "approved", cancellation: null });
    expect(linearizable([created, confirm, { ...cancel, bookingStatus: "reserved" }, lostCancel]).ok).toBe(false);
  });

  it("should refuse two successful confirms of one booking", () => {
    const h = [
      op({ flow: "double-confirm", op: "create", status: 201 }),
      ...race(
        op({ flow: "double-confirm", op: "confirm", status: 200 }),
        op({ flow: "double-confirm", op: "confirm", status: 200 }),
      ),
    ];
    const tallies = checkHistory(h);
    expect(tallies.doubleConfirm.fails).toBe(1);
  });

  it("should treat an unanswered request as indeterminate: it may have taken effect or not", () => {
    const created = op({ op: "create", status: 201 });
    const timedOut = op({ op: "confirm", status: 0 });
    expect(linearizable([created, timedOut, op({ op: "read", status: 200, bookingStatus: "approved" })]).ok).toBe(true);
    expect(linearizable([created, timedOut, op({ op: "read", status: 200, bookingStatus: "reserved" })]).ok).toBe(true);
  });

  it("should require 409 invalid_action for a refused transition", () => {
    const h = [
      op({ flow: "illegal", op: "create", status: 201 }),
      op({ flow: "illegal", op: "cancel", status: 200, cancellation: "pending" }),
      op({ flow: "illegal", op: "confirm", status: 409, code: "conflict" }),
    ];
    expect(checkHistory(h).illegal.fails).toBeGreaterThan(0);
  });

  it("should find a lost booking: not listed, or not readable, after a successful create", () => {
    const h = [op({ op: "create", status: 201 }), op({ op: "list", status: 200, listed: false })];
    expect(checkHistory(h).lost.problems[0]).toMatch(/not listed/);
  });

  it("should count one winner per race and oversell per slot against the last capacity offered", () => {
    const slot = "t/2030-01-02";
    const h: OperationRecord[] = [
      op({ flow: "race", op: "capacity", status: 200, value: 1, slot, booking: undefined }),
    ];
    const confirms = ["r1", "r2", "r3"].map((booking, i) =>
      op({ flow: "race", op: "confirm", status: i < 2 ? 200 : 422, booking, slot, group: "race-1", qty: 1 }),
    );
    const tallies = checkHistory([...h, ...confirms]);
    expect(tallies.oneWinner.fails).toBe(1);
    expect(tallies.oversell.problems[0]).toMatch(/2 seats confirmed against 1 offered/);
    expect(Object.keys(INVARIANT_CHECKS)).toContain("expiry");
  });
});
