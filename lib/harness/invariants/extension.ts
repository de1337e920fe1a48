/**
 * The invariants checker as a run extension: hands the scenario the control API, and after k6 reads the scenario's
 * history from its log and checks it (history.ts). Expiry needs five days to pass, which would break every other
 * scenario's reservations mid-run, so it is checked here, after k6: the reservations the scenario left alone are
 * read, the clock is moved 5 days and an hour, and each must be `expired` with its seats given back: the slot's
 * `remaining` (the inventory hook's required field) is up by the booking's seats.
 *
 * Without a control API (the public-API level) the scenario runs the same flows through the public API alone and the
 * history is checked the same way; what that level cannot produce is reported as not judged, never passed
 * (publicApiNotJudged()).
 */
import {
  HEADERS,
  OPERATION_MARKER,
  RESERVED_BOOKING_LIFETIME_SECONDS,
  isRecord,
  type OperationRecord,
} from "../../contract/index.ts";
import type { NotJudged } from "../coverage.ts";
import type { HooksClient } from "../hooks/hooks-client.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type K6Outputs,
  type PublicApiFacts,
  type RunContext,
  type RunExtension,
} from "../run-extension.ts";
import { partitionKeys } from "../scenario-traits.ts";
import type { CheckVerdict } from "../verdict.ts";
import { markedPayloads } from "../verdict.ts";
import { INVARIANT_CHECKS, checkHistory, fail, type InvariantName, type InventoryTallies } from "./history.ts";

/** Past the 5-day lifetime by an hour, so a service that rounds its timer still expires. */
const CLOCK_STEP_SECONDS = RESERVED_BOOKING_LIFETIME_SECONDS + 3600;

/** Races are logged as confirms sharing a group (lib/k6/invariants): their number in the history. */
function racesOf(ops: readonly OperationRecord[]): number {
  return new Set(ops.filter((o) => o.flow === "race" && o.op === "confirm" && o.group).map((o) => o.group)).size;
}

/**
 * The checks the public-API level cannot judge in this run, and why: expiry always (no clock hook, and no run lasts
 * the 5-day lifetime); no oversell and one winner when no race could be run because the operator stated no
 * reservation hold. A stated hold with no race is not excused: those checks then fail for want of a case.
 */
export function publicApiNotJudged(ops: readonly OperationRecord[], facts: PublicApiFacts): NotJudged[] {
  const out: NotJudged[] = [
    {
      check: INVARIANT_CHECKS.expiry,
      reason: "the reserved lifetime is 5 days and the run has no clock hook",
      // No run without hooks lasts five days: by design of the level, not a failure.
      byDesign: true,
    },
  ];
  if (racesOf(ops) === 0 && facts.reservationHoldSeconds === undefined) {
    const reason =
      "no confirm race was run: without --reservation-hold a reservation holds its seats for its whole life, and a service whose reservations do that cannot be raced on its last seat from outside (no confirm can lose)";
    out.push({ check: INVARIANT_CHECKS.oversell, reason }, { check: INVARIANT_CHECKS.oneWinner, reason });
  }
  return out;
}

export function parseOperations(log: string): OperationRecord[] {
  return markedPayloads(log, OPERATION_MARKER).filter(
    (o) => typeof o.op === "string" && typeof o.slot === "string" && typeof o.invokedAt === "number",
  ) as unknown as OperationRecord[];
}

/** The seats a new booking can take on the slot ("<product type>/<date>"), as the inventory hook says. */
async function remainingOf(control: HooksClient, slot: string): Promise<number | undefined> {
  const [pt, date] = slot.split("/");
  const truth = await control.inventory(pt ?? "", date ?? "", date ?? "");
  return truth.days[0]?.remaining;
}

async function bookingStatus(apiUrl: string, apiKey: string, uuid: string): Promise<string> {
  const res = await fetch(`${apiUrl}/v2/bookings/${uuid}`, {
    headers: { [HEADERS.auth]: apiKey },
    signal: AbortSignal.timeout(10_000),
  });
  const body: unknown = await res.json().catch(() => undefined);
  return isRecord(body) && isRecord(body.data) ? String(body.data.status) : `HTTP ${res.status}`;
}

/** Why a check the run could judge has no case (it fails: a check without a case never passes). */
function noCase(name: InvariantName, ctx: RunContext): string {
  if (!ctx.target.control && (name === "oversell" || name === "oneWinner")) {
    return `no confirm race could be set up with the stated --reservation-hold of ${String(ctx.publicApi.reservationHoldSeconds)} s (the invariants scenario's k6 log says why per slot): the run was too short, the slots had fewer than 4 seats, or the service holds reservations longer than stated`;
  }
  return "no case of it in the history: the run was too short";
}

export class InvariantsExtension implements RunExtension {
  readonly name = "invariants";
  // With a control API it moves the service clock to check expiry; without, it judges what the public API shows.
  readonly needsControl = false;
  readonly #scenario: string;

  /** scenario: the one whose history it checks (the registry's scenario needing the invariants extension). */
  constructor(scenario: string) {
    this.#scenario = scenario;
  }

  start(ctx: RunContext): Promise<ExtensionStart> {
    const control = ctx.target.control;
    // Without one, run.ts already hands k6 the run's own key and the stated reservation hold.
    if (!control) return Promise.resolve({});
    return Promise.resolve({ k6Settings: { controlUrl: control.url, controlToken: control.token } });
  }

  async #checkExpiry(ctx: RunContext, ops: readonly OperationRecord[], tallies: InventoryTallies): Promise<string[]> {
    const control = ctx.target.control;
    const candidates = ops.filter((o) => o.flow === "expiry" && o.op === "create" && o.status === 201 && o.booking);
    if (!control || candidates.length === 0) return [];
    const keys = partitionKeys(ctx.scenarios, ctx.keys).get(this.#scenario) ?? [];
    try {
      const before = await Promise.all(candidates.map((c) => remainingOf(control, c.slot)));
      await control.advanceClock(CLOCK_STEP_SECONDS);
      for (const [i, c] of candidates.entries()) {
        const status = await bookingStatus(ctx.target.apiUrl, keys[c.key] ?? "", c.booking ?? "");
        const after = await remainingOf(control, c.slot);
        const left = before[i];
        const expected = left === undefined ? undefined : left + (c.qty ?? 1);
        if (status === "expired" && after !== undefined && after === expected) tallies.expiry.passes++;
        else {
          fail(
            tallies.expiry,
            `${c.booking ?? ""}: after ${CLOCK_STEP_SECONDS} s status ${status}, seats remaining on ${c.slot} ${String(left)} -> ${String(after)} (expected ${String(expected)})`,
          );
        }
      }
      return [];
    } catch (error) {
      return [
        `Failed to check expiry: ${error instanceof Error ? error.message : String(error)}. Please check the control API.`,
      ];
    }
  }

  async finish(ctx: RunContext, k6: K6Outputs): Promise<ExtensionVerdict> {
    const ops = parseOperations(k6.logs.get(this.#scenario) ?? "");
    if (ops.length === 0) {
      return extensionVerdict(this.name, { errors: ["The invariants scenario logged no operation to check."] });
    }
    const tallies = checkHistory(ops);
    const errors = await this.#checkExpiry(ctx, ops, tallies);
    const notJudged = ctx.target.control ? [] : publicApiNotJudged(ops, ctx.publicApi);
    const names = (Object.keys(INVARIANT_CHECKS) as InvariantName[]).filter(
      (name) => !notJudged.some((n) => n.check === INVARIANT_CHECKS[name]),
    );
    const checks: CheckVerdict[] = names.map((name) => ({
      name: INVARIANT_CHECKS[name],
      verdict: tallies[name].fails === 0 && tallies[name].passes > 0 ? "pass" : "fail",
      passes: tallies[name].passes,
      fails: tallies[name].fails,
      problems: tallies[name].passes + tallies[name].fails === 0 ? [noCase(name, ctx)] : tallies[name].problems,
      ...(tallies[name].indeterminate
        ? { observed: `${tallies[name].indeterminate} cases indeterminate (timeouts)` }
        : {}),
    }));
    return extensionVerdict(this.name, {
      checks,
      errors,
      notJudged,
      figures: {
        judgedBy: ctx.level,
        races: racesOf(ops),
        operations: ops.length,
        bookings: new Set(ops.map((o) => o.booking).filter(Boolean)).size,
        timeouts: ops.filter((o) => o.status === 0).length,
        invariants: Object.fromEntries(
          names.map((n) => [
            n,
            { passes: tallies[n].passes, fails: tallies[n].fails, indeterminate: tallies[n].indeterminate },
          ]),
        ),
      },
    });
  }

  stop(): Promise<void> {
    // Nothing held: the checker only reads logs and calls the target in finish().
    return Promise.resolve();
  }
}
