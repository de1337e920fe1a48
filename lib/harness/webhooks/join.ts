/**
 * The join of expectations (what the run's operations must cause) with messages (what reached the sink, one per
 * webhook-id). An expectation names a partner (booking events) or none (catalogue events: every registered partner).
 * Within one (partner, type, resource, booking status) the n-th expectation pairs with the n-th message, both in time
 * order, except that a message pairs with a required expectation before an optional one (take()). Left-over expectations are lost (or excused, on an endpoint that answered 410: the sender was told to stop;
 * or optional, an event the contract allows but does not require); left-over messages are unexpected (events the run
 * neither recorded nor derived as a follow-on, follow-ons.ts).
 */
import type { Message } from "./dedupe.ts";
import type { Expectation } from "./types.ts";

export interface Matched {
  expectation: Expectation;
  endpoint: number;
  message: Message;
  /** Arrival minus trigger, milliseconds; negative when the clocks disagree (reported, clamped in the figures). */
  latencyMs: number;
}

export interface Unmatched {
  expectation: Expectation;
  endpoint: number;
}

export interface JoinResult {
  matched: Matched[];
  lost: Unmatched[];
  /** Expectations for endpoints that had answered 410, never delivered. */
  excused: Unmatched[];
  /** Expectations only observed, never required (input.observeOnly), that did not arrive: not lost. */
  unobserved: Unmatched[];
  /** Optional expectations (ExpectationRecord.optional: the contract allows the event, does not require it) that did not arrive. */
  optionalAbsent: Unmatched[];
  unexpected: Message[];
}

export interface JoinInput {
  expectations: readonly Expectation[];
  messages: readonly Message[];
  /** The endpoints registered with the service (catalogue events go to each). */
  endpoints: readonly number[];
  /** Endpoints the sink answered 410. */
  gone: ReadonlySet<number>;
  /**
   * Expectations that pair with a message when one arrives but count as nothing when none does (observed.ts: what
   * the service decides on its own where the run cannot make it fall due). Default: none, every one is required.
   */
  observeOnly?: (expectation: Expectation) => boolean;
}

/** How far an arrival may precede its trigger on the two clocks (k6's and the sink's, on one host) and still pair. */
const CLOCK_SLACK_MS = 1000;

/**
 * The expectation a message arriving at `arrivedAt` pairs with: the earliest required one already triggered, else the
 * earliest optional one already triggered, else the earliest left. An optional event the service did not send must
 * not take the message of a required one triggered later (a churn withdrawal that changed nothing, then one that did).
 */
function take(list: Unmatched[] | undefined, arrivedAt: number): Unmatched | undefined {
  if (list === undefined || list.length === 0) return undefined;
  const triggered = (u: Unmatched) => u.expectation.at <= arrivedAt + CLOCK_SLACK_MS;
  let i = list.findIndex((u) => u.expectation.optional !== true && triggered(u));
  if (i === -1) i = list.findIndex(triggered);
  return list.splice(Math.max(0, i), 1)[0];
}

function key(endpoint: number, type: string | undefined, resource: string | undefined, status: string | undefined) {
  // Only booking_status_updated is told apart by status: a booking goes through several.
  const s = type === "booking_status_updated" ? (status ?? "") : "";
  return `${endpoint}\u0000${type ?? ""}\u0000${resource ?? ""}\u0000${s}`;
}

export function join(input: JoinInput): JoinResult {
  const wanted = new Map<string, Unmatched[]>();
  for (const expectation of [...input.expectations].sort((a, b) => a.at - b.at)) {
    const endpoints = expectation.key === undefined ? input.endpoints : [expectation.key];
    for (const endpoint of endpoints) {
      const k = key(endpoint, expectation.type, expectation.resource, expectation.status);
      const list = wanted.get(k);
      if (list === undefined) wanted.set(k, [{ expectation, endpoint }]);
      else list.push({ expectation, endpoint });
    }
  }
  const result: JoinResult = {
    matched: [],
    lost: [],
    excused: [],
    unobserved: [],
    optionalAbsent: [],
    unexpected: [],
  };
  const ordered = [...input.messages].sort((a, b) => a.first.arrivedAt - b.first.arrivedAt);
  for (const message of ordered) {
    const { type, resource, bookingStatus } = message.first;
    const next = take(wanted.get(key(message.endpoint, type, resource, bookingStatus)), message.first.arrivedAt);
    if (next === undefined) {
      result.unexpected.push(message);
      continue;
    }
    result.matched.push({ ...next, message, latencyMs: message.first.arrivedAt - next.expectation.at });
  }
  for (const left of wanted.values()) {
    for (const u of left) {
      if (input.gone.has(u.endpoint)) result.excused.push(u);
      else if (u.expectation.optional === true) result.optionalAbsent.push(u);
      else if (input.observeOnly?.(u.expectation) === true) result.unobserved.push(u);
      else result.lost.push(u);
    }
  }
  return result;
}

/**
 * Reserved bookings nobody confirmed or cancelled expire after five days (docs/contract-gaps.md, Booking states). The
 * harness moves the clock past that at the end of the run; these are the bookings that must then report `expired`: last
 * expected status `reserved` and no cancellation request.
 */
export function bookingsLeftReserved(expectations: readonly Expectation[]): { key: number; resource: string }[] {
  const state = new Map<string, { key: number; resource: string; reserved: boolean; cancelled: boolean }>();
  for (const e of [...expectations].sort((a, b) => a.at - b.at)) {
    if (e.key === undefined || !e.type.startsWith("booking_")) continue;
    const k = `${e.key}\u0000${e.resource}`;
    const s = state.get(k) ?? { key: e.key, resource: e.resource, reserved: false, cancelled: false };
    if (e.type === "booking_status_updated") s.reserved = e.status === "reserved";
    if (e.type === "booking_data_updated") s.cancelled = true;
    state.set(k, s);
  }
  return [...state.values()].filter((s) => s.reserved && !s.cancelled).map(({ key, resource }) => ({ key, resource }));
}
