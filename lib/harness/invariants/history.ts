/**
 * Checks the invariants scenario's history (one OperationRecord per operation) after the run, Jepsen-style: per
 * booking, is there an order of its operations, consistent with real time (an operation that completed before another
 * was invoked comes first), in which the booking state machine (docs/contract-gaps.md, Booking states) gives every
 * answer that was observed? Operations without an answer (status 0) are indeterminate: they may have taken effect or
 * not. Per slot, confirmed seats never exceed the capacity last offered; per race, exactly one winner.
 */
import type { OperationRecord } from "../../contract/index.ts";

export const INVARIANT_CHECKS = {
  oversell: "invariant: no oversell per slot",
  lost: "invariant: no lost booking (readable and listed with the state the history implies)",
  oneWinner: "invariant: exactly one winner in a confirm race on the last seat",
  doubleConfirm: "invariant: a double confirm ends in one legal state",
  confirmCancel: "invariant: confirm vs cancel ends in one legal state",
  illegal: "invariant: illegal transitions refused with 409 invalid_action and change nothing",
  expiry: "invariant: a reservation left alone for 5 days expires and releases its capacity",
} as const;
export type InvariantName = keyof typeof INVARIANT_CHECKS;

export interface InvariantTally {
  passes: number;
  fails: number;
  /** Cases an unanswered request left undecided. */
  indeterminate: number;
  problems: string[];
}

interface State {
  status: string;
  cancellation: string | null;
}

const MAX_PROBLEMS = 10;

/** The states a booking may move to on its own (supplier decision, cancellation approval) between operations. */
function spontaneous(s: State): State[] {
  if (s.status === "waiting")
    return [
      { ...s, status: "approved" },
      { ...s, status: "rejected" },
    ];
  if (s.cancellation === "pending" && (s.status === "reserved" || s.status === "approved")) {
    return [{ status: "cancelled", cancellation: "approved" }];
  }
  return [];
}

/** The states after applying an answered operation, or [] when the answer is impossible from `s`. */
function apply(s: State, op: OperationRecord): State[] {
  const matches = (next: State) =>
    (op.bookingStatus === undefined || op.bookingStatus === next.status) &&
    (op.cancellation === undefined || op.cancellation === next.cancellation);
  switch (op.op) {
    case "create":
      return [{ status: "reserved", cancellation: null }];
    case "confirm": {
      const legal = s.status === "reserved" && s.cancellation === null;
      if (op.status === 200) {
        if (!legal) return [];
        const next = (["approved", "waiting"] as const).map((status) => ({ status, cancellation: null }));
        return next.filter(matches);
      }
      if (op.status === 422) return legal ? [s] : [];
      if (op.status === 409) return legal || op.code !== "invalid_action" ? [] : [s];
      return [];
    }
    case "cancel": {
      const legal = (s.status === "reserved" || s.status === "approved") && s.cancellation === null;
      if (op.status === 200) {
        const next = { status: s.status, cancellation: "pending" };
        return legal && matches(next) ? [next] : [];
      }
      if (op.status === 409) return legal || op.code !== "invalid_action" ? [] : [s];
      return [];
    }
    case "read":
      return op.status === 200 && matches(s) ? [s] : [];
    case "list":
      return op.listed === true && (op.bookingStatus === undefined || op.bookingStatus === s.status) ? [s] : [];
    default:
      return [s];
  }
}

function closure(states: State[]): State[] {
  const seen = new Map<string, State>();
  const queue = [...states];
  while (queue.length) {
    const s = queue.pop() as State;
    const id = `${s.status}/${String(s.cancellation)}`;
    if (seen.has(id)) continue;
    seen.set(id, s);
    queue.push(...spontaneous(s));
  }
  return [...seen.values()];
}

/**
 * Whether some real-time-consistent order of the booking's operations explains every answer. Returns the first
 * operation no order could explain, or undefined when the history is linearizable.
 */
export function linearizable(ops: readonly OperationRecord[]): { ok: boolean; stuck?: OperationRecord } {
  const sorted = [...ops].sort((a, b) => a.invokedAt - b.invokedAt);
  let deepest = -1;
  let stuck: OperationRecord | undefined;
  const search = (done: boolean[], count: number, states: State[]): boolean => {
    if (count === sorted.length) return true;
    for (let i = 0; i < sorted.length; i++) {
      if (done[i]) continue;
      const op = sorted[i] as OperationRecord;
      // Any operation not yet placed that completed before this one was invoked must come first.
      if (sorted.some((other, j) => !done[j] && j !== i && other.completedAt < op.invokedAt)) continue;
      let next: State[];
      if (op.status === 0) {
        // Indeterminate: it took effect with either outcome, or not at all.
        next = states.flatMap((s) => [
          s,
          ...apply(s, { ...op, status: 200, bookingStatus: undefined, cancellation: undefined }),
        ]);
      } else {
        next = states.flatMap((s) => apply(s, op));
      }
      if (next.length === 0) {
        if (count > deepest) {
          deepest = count;
          stuck = op;
        }
        continue;
      }
      done[i] = true;
      if (search(done, count + 1, closure(next))) return true;
      done[i] = false;
    }
    return false;
  };
  const ok = search(new Array<boolean>(sorted.length).fill(false), 0, [{ status: "none", cancellation: null }]);
  return ok ? { ok } : { ok, ...(stuck ? { stuck } : {}) };
}

function describe(op: OperationRecord): string {
  const got = [
    op.status === 0 ? "no answer" : String(op.status),
    op.code,
    op.bookingStatus,
    op.cancellation ?? undefined,
  ]
    .filter((x) => x !== undefined)
    .join(" ");
  return `${op.op}${op.listed === false ? " (not listed)" : ""} -> ${got}`;
}

export function emptyTally(): InventoryTallies {
  const t = {} as InventoryTallies;
  for (const name of Object.keys(INVARIANT_CHECKS) as InvariantName[]) {
    t[name] = { passes: 0, fails: 0, indeterminate: 0, problems: [] };
  }
  return t;
}

export type InventoryTallies = Record<InvariantName, InvariantTally>;

export function fail(t: InvariantTally, problem: string): void {
  t.fails++;
  if (t.problems.length < MAX_PROBLEMS) t.problems.push(problem);
}

const FLOW_INVARIANT: Record<string, InvariantName> = {
  "double-confirm": "doubleConfirm",
  "confirm-vs-cancel": "confirmCancel",
  illegal: "illegal",
  plain: "lost",
  race: "oneWinner",
};

/** Checks the history of every invariant but expiry (which needs the clock moved after the run). */
export function checkHistory(
  ops: readonly OperationRecord[],
  tallies: InventoryTallies = emptyTally(),
): InventoryTallies {
  checkBookings(ops, tallies);
  checkRaces(ops, tallies);
  checkOversell(ops, tallies);
  return tallies;
}

/** Per booking: no lost booking, and one legal history under the invariant its flow exercises. */
function checkBookings(ops: readonly OperationRecord[], tallies: InventoryTallies): void {
  const byBooking = new Map<string, OperationRecord[]>();
  for (const op of ops) {
    if (op.booking === undefined || op.op === "capacity" || op.op === "truth") continue;
    const list = byBooking.get(op.booking) ?? [];
    list.push(op);
    byBooking.set(op.booking, list);
  }
  for (const [uuid, history] of byBooking) {
    const flow = history[0]?.flow ?? "";
    const created = history.find((o) => o.op === "create" && (o.status === 201 || o.status === 200));
    if (!created) continue;
    // No lost booking: every created booking is readable and listed afterwards.
    const reads = history.filter((o) => o.op === "read" && o.status !== 0);
    const lists = history.filter((o) => o.op === "list" && o.status !== 0);
    if (reads.length + lists.length > 0) {
      const lost = [...reads.filter((o) => o.status !== 200), ...lists.filter((o) => o.listed !== true)];
      if (lost.length)
        fail(tallies.lost, `${flow} ${uuid}: ${lost.map(describe).join(", ")} after create -> ${created.status}`);
      else tallies.lost.passes++;
    }
    // One legal history per booking, judged under the invariant its flow exercises.
    const invariant = FLOW_INVARIANT[flow];
    if (invariant === undefined || invariant === "oneWinner") continue;
    const { ok, stuck } = linearizable(history);
    const indeterminate = history.some((o) => o.status === 0);
    if (ok) {
      tallies[invariant].passes++;
      if (indeterminate) tallies[invariant].indeterminate++;
    } else {
      fail(
        tallies[invariant],
        `${flow} ${uuid}: no order of [${history.map(describe).join("; ")}] is legal${stuck ? ` (stuck at ${describe(stuck)})` : ""}`,
      );
    }
    if (invariant === "illegal") {
      const wrongCode = history.filter((o) => o.status === 409 && o.code !== "invalid_action");
      if (wrongCode.length) fail(tallies.illegal, `${uuid}: 409 with ${wrongCode.map((o) => o.code).join(", ")}`);
    }
  }
}

/** Races on the last seat: exactly one winner (a timeout may be the winner). */
function checkRaces(ops: readonly OperationRecord[], tallies: InventoryTallies): void {
  const races = new Map<string, OperationRecord[]>();
  for (const op of ops) {
    if (op.flow !== "race" || op.op !== "confirm" || op.group === undefined) continue;
    races.set(op.group, [...(races.get(op.group) ?? []), op]);
  }
  for (const [group, confirms] of races) {
    const winners = confirms.filter((o) => o.status === 200).length;
    const unknown = confirms.filter((o) => o.status === 0).length;
    if (winners === 1 || (winners === 0 && unknown > 0)) {
      tallies.oneWinner.passes++;
      if (unknown > 0) tallies.oneWinner.indeterminate++;
    } else {
      fail(
        tallies.oneWinner,
        `${group}: ${winners} of ${confirms.length} confirms won the last seat (${confirms.map((o) => o.status).join(", ")})`,
      );
    }
  }
}

/** No oversell: per slot, seats confirmed after the last capacity offered never exceed it; supply never negative. */
function checkOversell(ops: readonly OperationRecord[], tallies: InventoryTallies): void {
  const bySlot = new Map<string, OperationRecord[]>();
  for (const op of ops) bySlot.set(op.slot, [...(bySlot.get(op.slot) ?? []), op]);
  for (const [slot, history] of bySlot) {
    const offers = history.filter((o) => o.op === "capacity" && typeof o.value === "number");
    const last = offers.sort((a, b) => a.completedAt - b.completedAt).at(-1);
    if (!last) continue;
    const confirmed = new Map<string, number>();
    for (const o of history) {
      if (o.op === "confirm" && o.status === 200 && o.invokedAt >= last.completedAt && o.booking) {
        confirmed.set(o.booking, o.qty ?? 1);
      }
    }
    const seats = [...confirmed.values()].reduce((a, b) => a + b, 0);
    const negative = history.filter((o) => o.op === "truth" && typeof o.value === "number" && o.value < 0);
    if (seats > (last.value ?? 0) || negative.length) {
      fail(
        tallies.oversell,
        `${slot}: ${seats} seats confirmed against ${last.value ?? 0} offered${negative.length ? `, supply read as ${negative.map((o) => o.value).join(", ")}` : ""}`,
      );
    } else tallies.oversell.passes++;
  }
}
