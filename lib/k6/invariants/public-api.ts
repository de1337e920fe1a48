/**
 * The invariants scenario through the public API alone (no control API): the same flows and the same history as with
 * hooks (flows.ts, history.ts), on slots that are only checked bookable with the single-date endpoint, since nothing
 * can set their seats. The race on the last seat is built from outside instead (race() below), and only when the
 * operator states how long a reservation holds its seats (ATD_RESERVATION_HOLD_SECONDS): a reservation that holds its
 * seats for its whole life can never lose a confirm, so without the setting no race is run and none is logged. Expiry
 * is not tried: its 5-day lifetime is longer than any run. Whatever a flow leaves reserved is cancelled at the end of
 * its iteration, so a shared deployment keeps no seats held for five days.
 */
import { sleep } from "k6";
import { addDays, isRecord, todayUtc } from "../../contract/index.ts";
import { pickInvariantTypes, INVARIANTS_WALK } from "../../contract/hot-set.ts";
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import type { K6Config } from "../config.ts";
import { discoverProductTypes } from "../discover-product-types.ts";
import type { ApiClient } from "../client.ts";
import { harnessClient, partnerClient, setupClient } from "../partner.ts";
import { bookingBody, create, readAndList, sharedFlow, type FlowContext } from "./flows.ts";
import { invoke, logOperation, type BookingCall, type Caller, type CallResult } from "./history.ts";

export interface PublicApiSetup {
  types: ControlProductType[];
  today: string;
  /** Tells this run's partner references apart from an earlier run's on the same deployment. */
  run: string;
}

const FLOWS_WITH_RACE = ["race", "double-confirm", "confirm-vs-cancel", "illegal", "plain"] as const;
const FLOWS_WITHOUT_RACE = ["double-confirm", "confirm-vs-cancel", "illegal", "plain"] as const;
/** Reservations racing for the last seat. */
const RACERS = 4;
/** Days (after today plus lead time) of the flows' own dates, one per iteration and type. */
const FIRST_DAY = 30;
const LAST_OWN_DAY = 180;
/** Races take their dates from a range of their own: a slot unfit for a race is left for the next of its dates. */
const FIRST_RACE_DAY = 181;
const LAST_RACE_DAY = 330;
const RACE_DATES = 2;
/** Bounds the seat count of a race slot (the fill), in requests. */
const MAX_FILL_REQUESTS = 40;
/** The race must start this long before the first hold that leaves one seat free can lapse. */
const RACE_MARGIN_MS = 300;

export function setupPublicApi(config: K6Config): PublicApiSetup {
  const discovered = discoverProductTypes(undefined, (i) => setupClient(config, i), INVARIANTS_WALK);
  const types = pickInvariantTypes(discovered.candidates);
  if (types.length === 0) {
    throw new Error(
      `Failed to set up the invariants scenario: no instant, non-timeslotted product type with minPax 1 among ${discovered.candidates.length} found by the ${discovered.via}. Please use a larger catalogue.`,
    );
  }
  return { types, today: todayUtc(), run: Date.now().toString(36) };
}

/**
 * The iteration's bookings made with the scenario's key, by their last known state: invoke() through it, and those
 * left reserved (not confirmed, no cancellation) are cancelled by cancelOpen(), logged like every other operation.
 */
class Tracked {
  readonly #open = new Map<string, string>();
  readonly #caller: Caller;
  readonly #flow: string;

  constructor(caller: Caller, flow: string) {
    this.#caller = caller;
    this.#flow = flow;
  }

  invoke(slot: string, calls: readonly BookingCall[], extra?: { qty?: number; group?: string }): CallResult[] {
    const results = invoke(this.#caller, this.#flow, slot, calls, extra);
    for (const { booking, record } of results) {
      if (booking === undefined || record.bookingStatus === undefined) continue;
      if (record.bookingStatus === "reserved" && !record.cancellation) this.#open.set(booking, slot);
      else this.#open.delete(booking);
    }
    return results;
  }

  cancelOpen(): void {
    for (const [booking, slot] of [...this.#open]) this.invoke(slot, [{ op: "cancel", booking }]);
  }
}

/** Whether the single-date endpoint, the real-time truth of availability, says the date can be booked. */
function bookable(config: K6Config, n: number, type: ControlProductType, date: string): boolean {
  const res = partnerClient(config, n).call<unknown>("priceListDate", { uuid: type.uuid, date });
  const data = isRecord(res.data) ? res.data : undefined;
  return res.status === 200 && data?.available === true;
}

export function publicApiIteration(config: K6Config, s: PublicApiSetup, n: number): void {
  const canRace = config.reservationHoldSeconds !== undefined && config.harnessKey !== undefined;
  const flows = canRace ? FLOWS_WITH_RACE : FLOWS_WITHOUT_RACE;
  const flow = flows[n % flows.length] as string;
  const type = s.types[n % s.types.length] as ControlProductType;
  const key = n % config.apiKeys.length;
  const caller: Caller = {
    baseUrl: config.baseUrl,
    apiKey: config.apiKeys[key] as string,
    key,
    timeout: config.requestTimeout,
  };
  const tracked = new Tracked(caller, flow);
  const ctxOn = (date: string): FlowContext => ({
    flow,
    n,
    type,
    date,
    ref: (i) => `inv-${s.run}-${n}-${i}`,
    call: (calls, extra) => tracked.invoke(`${type.uuid}/${date}`, calls, extra),
  });
  try {
    if (flow === "race") {
      const race = Math.floor(n / flows.length);
      for (let t = 0; t < RACE_DATES; t++) {
        const offset = FIRST_RACE_DAY + race * RACE_DATES + t;
        if (offset > LAST_RACE_DAY) return;
        const date = addDays(s.today, type.daysInAdvance + offset);
        if (!bookable(config, n, type, date)) continue;
        const skipped = raceOn(config, ctxOn(date), caller);
        if (skipped === undefined) return;
        console.warn(`invariants: no race on ${type.uuid}/${date}: ${skipped}`);
      }
      return;
    }
    const offset = FIRST_DAY + Math.floor(n / s.types.length);
    if (offset > LAST_OWN_DAY) return;
    const date = addDays(s.today, type.daysInAdvance + offset);
    if (!bookable(config, n, type, date)) return;
    sharedFlow(ctxOn(date));
  } finally {
    tracked.cancelOpen();
  }
}

/** The run's own key (ATD_HARNESS_KEY): its bookings are competing demand, not part of the history. */
class HarnessBookings {
  readonly uuids: string[] = [];
  readonly #client: ApiClient;

  constructor(config: K6Config) {
    const client = harnessClient(config);
    if (!client) throw new Error("Failed to race from outside: the run has no key of its own (ATD_HARNESS_KEY).");
    this.#client = client;
  }

  /** Reserves `seats` in one booking; its HTTP status. */
  reserve(type: ControlProductType, date: string, seats: number, reference: string): number {
    const res = this.#client.createBooking(bookingBody(type, date, reference, seats));
    if (res.status === 201 && isRecord(res.data) && typeof res.data.uuid === "string") this.uuids.push(res.data.uuid);
    return res.status;
  }

  cancelAll(): void {
    for (const uuid of this.uuids.splice(0)) {
      const res = this.#client.cancelBooking(uuid);
      if (res.status !== 200) {
        console.warn(
          `invariants: failed to cancel the run's own reservation ${uuid}: HTTP ${res.status}. Please cancel it by hand.`,
        );
      }
    }
  }
}

/**
 * A race on the last seat from outside, on a slot nobody else books: RACERS 1-seat reservations with the scenario's
 * key, the rest of the seats reserved with the run's own key until a 1-seat reservation is refused (so the slot's
 * seats S are known), all within one hold. Once those holds lapse (the bookings stay reserved, their seats free
 * again), the run's key reserves S-1 seats, leaving exactly one, and the racers' confirms go out at once: exactly one
 * must win, and seats confirmed above the one there was are oversell (a `capacity` operation of 1 says what was
 * there). Returns why the slot was unfit, or undefined once raced.
 */
function raceOn(config: K6Config, ctx: FlowContext, caller: Caller): string | undefined {
  const holdMs = (config.reservationHoldSeconds ?? 0) * 1000;
  const slot = `${ctx.type.uuid}/${ctx.date}`;
  const harness = new HarnessBookings(config);
  try {
    const startedAt = Date.now();
    const racers: string[] = [];
    for (let i = 0; i < RACERS; i++) {
      const uuid = create(ctx, i);
      if (!uuid) return `the ${i + 1}. of ${RACERS} racers could not reserve a seat`;
      racers.push(uuid);
    }
    let seats = RACERS;
    let chunk = Math.max(1, ctx.type.maxPax);
    let requests = 0;
    let lastReservedAt = Date.now();
    for (;;) {
      if (++requests > MAX_FILL_REQUESTS) return `more seats than ${MAX_FILL_REQUESTS} reservations could count`;
      const status = harness.reserve(ctx.type, ctx.date, chunk, `${ctx.ref(RACERS)}-fill`);
      if (status === 201) {
        seats += chunk;
        lastReservedAt = Date.now();
      } else if (status !== 422) return `a reservation of the run's own key answered ${status}`;
      else if (chunk > 1) chunk = Math.floor(chunk / 2);
      else break;
    }
    // The first racer's hold may have lapsed before the slot was full: then S counts its seat twice.
    if (Date.now() >= startedAt + holdMs) return `counting its ${seats} seats took longer than the hold`;
    sleep((lastReservedAt + holdMs + 1000 - Date.now()) / 1000);
    const refillAt = Date.now();
    for (let left = seats - 1; left > 0;) {
      const take = Math.min(left, Math.max(1, ctx.type.maxPax));
      const status = harness.reserve(ctx.type, ctx.date, take, `${ctx.ref(RACERS)}-hold`);
      if (status !== 201) return `the run's own key could not hold ${take} of the ${seats - 1} seats (${status})`;
      left -= take;
    }
    if (Date.now() + RACE_MARGIN_MS >= refillAt + holdMs) return `holding ${seats - 1} seats took longer than the hold`;
    const at = Date.now();
    logOperation({
      flow: ctx.flow,
      op: "capacity",
      slot,
      key: caller.key,
      invokedAt: at,
      completedAt: at,
      status: 200,
      value: 1,
    });
    ctx.call(
      racers.map((booking) => ({ op: "confirm" as const, booking })),
      { qty: 1, group: `race-${ctx.n}` },
    );
    racers.forEach((uuid, i) => {
      readAndList(ctx, uuid, i);
    });
    return undefined;
  } finally {
    harness.cancelAll();
  }
}
