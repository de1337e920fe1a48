/**
 * Events that follow by the contract from what the run itself did, although the service brings them about later on its
 * own (docs/contract-gaps.md, Booking states): a confirm answered `waiting` is later `approved` or `rejected` by the
 * supplier, an approval issues vouchers (`booking_tickets_updated`), and a cancellation request ends `cancelled` once
 * approved. k6 logs only the operations it made; the harness derives their follow-ons here, after k6, so data still
 * flows one way (k6 logs -> join), and the sink expects these events instead of reporting them as unexpected.
 *
 * Timing: the service decides after a delay on its own clock (virtual, time-scaled, moved by anyone with the control
 * API) that the contract does not fix. Timing them from the operation would count the supplier's delay as delivery
 * latency, and nothing on the sink's clock says when the service decided, so follow-ons are judged for loss only
 * (`followOn: true` keeps them out of the latency figures, thresholds and histogram). Loss is sound: the sink moves the
 * clock past every such delay after k6 (extension.ts), so each one falls due before its loss deadline. Where a
 * scenario recorded the consequence itself, with a trigger it caused (the webhooks scenario moves the clock and
 * records the decision), that expectation stands and no follow-on is added.
 */
import type { Message } from "./dedupe.ts";
import type { Expectation } from "./types.ts";

const DECISIONS: ReadonlySet<string> = new Set(["approved", "rejected"]);

/** The status of a supplier decision that never arrived: it matches no message, so the decision counts as lost. */
export const UNDECIDED = "approved or rejected";

const id = (key: number, resource: string, type: string, status: string | undefined) =>
  `${String(key)}\u0000${resource}\u0000${type}\u0000${status ?? ""}`;

/**
 * The follow-on expectations of the recorded ones. Which way a supplier decided is the supplier's choice (the
 * contract allows both), read from what reached the booking's partner: the first `approved` or `rejected` message
 * about the booking; an approval then also expects the vouchers.
 */
export function followOnExpectations(
  expectations: readonly Expectation[],
  messages: readonly Message[],
): Expectation[] {
  const recorded = new Set<string>();
  for (const e of expectations) if (e.key !== undefined) recorded.add(id(e.key, e.resource, e.type, e.status));
  const decided = new Map<string, string>();
  for (const m of [...messages].sort((a, b) => a.first.arrivedAt - b.first.arrivedAt)) {
    const { type, resource, bookingStatus } = m.first;
    if (type !== "booking_status_updated" || resource === undefined || !DECISIONS.has(bookingStatus ?? "")) continue;
    const at = `${String(m.endpoint)}\u0000${resource}`;
    if (!decided.has(at)) decided.set(at, bookingStatus ?? "");
  }
  const out: Expectation[] = [];
  const derived = new Set<string>();
  const firstTime = (what: string): boolean => {
    if (derived.has(what)) return false;
    derived.add(what);
    return true;
  };
  for (const e of [...expectations].sort((a, b) => a.at - b.at)) {
    const key = e.key;
    if (key === undefined || e.followOn === true) continue;
    const base = { resource: e.resource, key, at: e.at, followOn: true };
    const isRecorded = (type: string, status?: string) => recorded.has(id(key, e.resource, type, status));
    if (e.type === "booking_status_updated" && e.status === "waiting") {
      if (isRecorded("booking_status_updated", "approved") || isRecorded("booking_status_updated", "rejected"))
        continue;
      if (!firstTime(id(key, e.resource, "decision", undefined))) continue;
      const status = decided.get(`${String(key)}\u0000${e.resource}`) ?? UNDECIDED;
      out.push({ ...base, type: "booking_status_updated", status });
      if (status === "approved" && !isRecorded("booking_tickets_updated")) {
        out.push({ ...base, type: "booking_tickets_updated" });
      }
    } else if (e.type === "booking_data_updated") {
      // The k6 recorder logs booking_data_updated for a cancellation request only (lib/k6/expectations.ts).
      if (isRecorded("booking_status_updated", "cancelled")) continue;
      if (!firstTime(id(key, e.resource, "cancellation", undefined))) continue;
      out.push({ ...base, type: "booking_status_updated", status: "cancelled" });
    }
  }
  return out;
}

/**
 * Whether a recorded operation leaves the service a decision to make later (a `waiting` confirm, a cancellation
 * request): the sink then moves the clock past every such delay before it waits for deliveries.
 */
export function awaitsServiceDecision(expectations: readonly Expectation[]): boolean {
  return expectations.some(
    (e) =>
      e.key !== undefined &&
      ((e.type === "booking_status_updated" && e.status === "waiting") || e.type === "booking_data_updated"),
  );
}

/** The recorded expectations with their follow-ons. */
export function withFollowOns(expectations: readonly Expectation[], messages: readonly Message[]): Expectation[] {
  return [...expectations, ...followOnExpectations(expectations, messages)];
}
