/**
 * The alternatives scenario without test hooks (issue 17): no ground truth, no partner switch, no supply-side
 * sell-out. Per iteration, on a slot of its own:
 * 1. a key the operator enabled alternatives for (ATD_ALTERNATIVES_KEYS) and one it did not each reserve one seat;
 * 2. the scenario waits out the reservation hold the operator stated (ATD_RESERVATION_HOLD_SECONDS): the bookings stay
 *    reserved, their seats free again;
 * 3. the run's own key (ATD_HARNESS_KEY) sells the slot out by reserving until the service refuses;
 * 4. the calendar of the look-ahead window is read (before), the key with the feature confirms (a 422), the calendar
 *    is read again (after) and every suggestion is read with the single-date endpoint (now): the reads bracket the
 *    confirm as tightly as the public API allows;
 * 5. the key without the feature confirms (a 422); rules 1, 3, 4 and 9 are checked as with hooks;
 * 6. what was suggested is compared with what the oracle expects from the after read (precision, recall, qty where
 *    the answer shows seat counts); a difference between the two calendar reads, or between the after read and a
 *    suggestion's single-date answer, sets the observation's discrepancies apart as explained (changedBetweenReads);
 *    a qty is a fault only when none of the three reads showed it (unexplainedQty);
 * 7. every booking it made is cancelled.
 * Without a stated hold, keys with the feature or the run's own key, no confirm can be made to fail from outside: the
 * scenario says so once and the harness reports the checks as not judged.
 */
import { sleep } from "k6";
import exec from "k6/execution";
import {
  ALTERNATIVES_NOT_PROVOKABLE_MARKER,
  addDays,
  isRecord,
  type AlternativesObservation,
  type BookingRequest,
} from "../../contract/index.ts";
import type { DayInventory, InventorySnapshot } from "../../contract/index.ts";
import { checkResponse } from "../checks.ts";
import type { ApiClient, ApiResponse, Json } from "../client.ts";
import type { K6Config } from "../config.ts";
import { discoverProductTypes } from "../discover-product-types.ts";
import { harnessClient, partnerClient, setupClient } from "../partner.ts";
import { confirmRaw, logObservation, iterationPlan, reserve, reserved } from "./booking-calls.ts";
import { HOT_SET_WALK, pickHotSet } from "../../contract/hot-set.ts";
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import type { Plan } from "./plan.ts";
import { checkAlternativesShape, checkSoldOutErrors } from "./sold-out-checks.ts";
import { accuracy } from "../../contract/alternatives-rules.ts";

/** Days of the look-ahead window (spec 7.2 rules 6 and 7). */
const WINDOW_DAYS = { timeslotted: 7, flat: 3 };
/** Bounds of a sell-out: seats and requests (a slot larger than this is left, and the iteration judges nothing). */
const SELL_OUT_MAX_SEATS = 80;
const SELL_OUT_MAX_REQUESTS = 16;

export interface PublicApiSetup {
  mode: "public-api";
  types: ControlProductType[];
  today: string;
  /** Indexes in ATD_API_KEYS: a key with the feature and one without (undefined when every key has it). */
  withFeature: number;
  without: number | undefined;
  holdSeconds: number;
}

export interface NotProvokable {
  mode: "not-provokable";
  reason: string;
}

/** Why no confirm can be made to fail from outside, or undefined when it can. */
export function notProvokableReason(config: K6Config): string | undefined {
  if (config.reservationHoldSeconds === undefined) {
    return "no --reservation-hold: a reservation holding its seats for its whole life can always be confirmed, so no 422 can be provoked through the public API";
  }
  if (config.alternativesKeys === undefined || config.alternativesKeys.length === 0) {
    return "no --alternatives-keys: which keys have the feature is unknown";
  }
  if (config.harnessKey === undefined) return "the run has no key of its own to sell a slot out with";
  return undefined;
}

export function publicApiSetup(
  config: K6Config,
  hotSet: ControlProductType[] | undefined,
): PublicApiSetup | NotProvokable {
  const reason = notProvokableReason(config);
  if (reason !== undefined) {
    console.warn(`${ALTERNATIVES_NOT_PROVOKABLE_MARKER}${JSON.stringify({ reason })}`);
    return { mode: "not-provokable", reason };
  }
  const withKeys = config.alternativesKeys ?? [];
  const withFeature = withKeys[0] as number;
  const without = config.apiKeys.findIndex((_, i) => !withKeys.includes(i));
  const discovered = hotSet ? undefined : discoverProductTypes(undefined, (i) => setupClient(config, i), HOT_SET_WALK);
  const types = hotSet ?? pickHotSet(discovered?.candidates ?? []);
  if (types.length === 0) {
    throw new Error(
      `Failed to set up the alternatives scenario: no available product type with minPax 1 among ${discovered?.candidates.length ?? 0} found by the ${discovered?.via ?? "churn extension"}. Please use a larger catalogue.`,
    );
  }
  return {
    mode: "public-api",
    types,
    today: new Date().toISOString().slice(0, 10),
    withFeature,
    without: without === -1 ? undefined : without,
    holdSeconds: config.reservationHoldSeconds ?? 0,
  };
}

/** A slot's availability as the public API shows it: bookable, and a seat count where the answer gives one. */
export interface Shown {
  bookable: boolean;
  count?: number;
}

const slotKey = (date: string, timeslot?: string) => (timeslot === undefined ? date : `${date}@${timeslot}`);

/** The availability of every slot of a price-list or single-date entry. */
export function shownSlots(entry: Record<string, unknown>, timeslotted: boolean): Map<string, Shown> {
  const slots = new Map<string, Shown>();
  const date = String(entry.date);
  if (!timeslotted) {
    slots.set(date, { bookable: entry.available === true });
    return slots;
  }
  const list = Array.isArray(entry.timeslots) ? (entry.timeslots as unknown[]).filter(isRecord) : [];
  for (const t of list) {
    const count = typeof t.remaining === "number" ? t.remaining : undefined;
    slots.set(slotKey(date, String(t.timeslot)), {
      bookable: t.available === true && (count === undefined || count > 0),
      ...(count === undefined ? {} : { count }),
    });
  }
  return slots;
}

/**
 * The oracle's snapshot from what the calendar showed, the requested slot sold out (the scenario sold it out): a seat
 * count where shown, else 1 for bookable (qty is then not compared).
 */
export function snapshotFromCalendar(
  shown: ReadonlyMap<string, Shown>,
  plan: { date: string; timeslot: string | undefined; timeslots: readonly string[]; days: number },
): InventorySnapshot {
  const seats = (key: string) => {
    if (key === slotKey(plan.date, plan.timeslot)) return 0;
    const s = shown.get(key);
    return s?.bookable === true ? (s.count ?? 1) : 0;
  };
  const days: DayInventory[] = [];
  for (let k = 0; k <= plan.days; k++) {
    const date = addDays(plan.date, k);
    if (plan.timeslots.length === 0) days.push({ date, remaining: seats(date) });
    else
      days.push({
        date,
        remaining: 0,
        timeslots: plan.timeslots.map((timeslot) => ({ timeslot, remaining: seats(slotKey(date, timeslot)) })),
      });
  }
  return { timeslotted: plan.timeslots.length > 0, categories: ["adults"], days };
}

function calendar(client: ApiClient, type: ControlProductType, from: string, to: string): Map<string, Shown> {
  const res = client.getPriceList(type.uuid, from, to);
  const shown = new Map<string, Shown>();
  if (!checkResponse(res) || !Array.isArray(res.data)) return shown;
  for (const entry of res.data.filter(isRecord)) {
    for (const [k, v] of shownSlots(entry, type.timeslots.length > 0)) shown.set(k, v);
  }
  return shown;
}

/** Whether the plan's slot reads bookable right now (a seat given back since it was sold out). */
function slotBookable(client: ApiClient, plan: Plan): boolean {
  return calendar(client, plan.type, plan.date, plan.date).get(slotKey(plan.date, plan.timeslot))?.bookable === true;
}

function bookingOf(plan: Plan, adults: number, reference: string): BookingRequest {
  return {
    productTypeUuid: plan.type.uuid,
    date: plan.date,
    ...(plan.timeslot === undefined ? {} : { timeslot: plan.timeslot }),
    adults,
    customer: {
      firstName: "Alt",
      lastName: "Seller",
      salutation: "Ms",
      email: "alt.seller@example.com",
      phone: "+6560000000",
    },
    options: plan.type.requiredOptions.map((o) => ({
      uuid: o.uuid,
      value: o.type === "select" ? (o.values[0] ?? "") : "alternatives",
    })),
    partnerReference: reference,
  };
}

/**
 * Reserves the slot's free seats with the run's own key: large parties first, halving on refusal, until a single
 * seat is refused (sold out: true) or the bounds run out. The bookings it made go into `made`.
 */
function sellOut(seller: ApiClient, plan: Plan, n: number, made: string[]): boolean {
  let party = Math.max(1, Math.min(plan.type.maxPax, 16));
  let seats = 0;
  for (let i = 0; i < SELL_OUT_MAX_REQUESTS && seats < SELL_OUT_MAX_SEATS; i++) {
    const res: ApiResponse<Json> = seller.createBooking(bookingOf(plan, party, `alt-sell-${n}-${i}`));
    if ((res.status === 201 || res.status === 200) && res.data) {
      made.push(String(res.data.uuid));
      seats += party;
    } else if (party === 1) return res.status === 422;
    else party = Math.max(1, Math.floor(party / 2));
  }
  return false;
}

function cancelAll(client: ApiClient, uuids: readonly string[]): void {
  for (const uuid of uuids) client.cancelBooking(uuid);
}

/** The requested timeslot: the plan's when the single-date answer shows it bookable, else the first bookable one. */
function bookablePlan(client: ApiClient, plan: Plan): Plan | undefined {
  const single = client.getPriceForDate(plan.type.uuid, plan.date);
  if (!checkResponse(single) || !isRecord(single.data) || single.data.available !== true) return undefined;
  if (plan.timeslot === undefined) return plan;
  const shown = shownSlots(single.data, true);
  if (shown.get(slotKey(plan.date, plan.timeslot))?.bookable === true) return plan;
  const other = plan.type.timeslots.find((t) => shown.get(slotKey(plan.date, t))?.bookable === true);
  return other === undefined ? undefined : { ...plan, timeslot: other };
}

/**
 * Each suggested slot read at once with the single-date endpoint: whether it is bookable now, and its seats where the
 * answer shows them (a timeslot's `remaining`).
 */
function shownNow(client: ApiClient, type: ControlProductType, slots: readonly string[]): Map<string, Shown> {
  const now = new Map<string, Shown>();
  const byDate = new Map<string, Map<string, Shown>>();
  for (const slot of slots) {
    const [date = ""] = slot.split("@");
    let shown = byDate.get(date);
    if (!shown) {
      const single = client.getPriceForDate(type.uuid, date);
      shown =
        checkResponse(single) && isRecord(single.data)
          ? shownSlots(single.data, type.timeslots.length > 0)
          : new Map<string, Shown>();
      // A nearby date of a timeslotted type is bookable when any of its timeslots is.
      if (type.timeslots.length > 0) shown.set(date, { bookable: [...shown.values()].some((s) => s.bookable) });
      byDate.set(date, shown);
    }
    now.set(slot, shown.get(slot) ?? { bookable: false });
  }
  return now;
}

/**
 * The qty mismatches (slot, said, true by the after read) that no read around the confirm explains: other clients
 * (churn, other partners, the run's other scenarios) hold and release seats at moments of the service's choosing, a
 * hold lapsing or a cancellation being approved, so a qty equal to what any read showed may well have been true when
 * the 422 was made. Only a slot whose seat count the after read shows is judged (elsewhere the truth is a bare
 * "bookable"). For a correct service to be blamed, the slot's count must change twice within the milliseconds of the
 * reads.
 */
export function unexplainedQty(
  mismatches: readonly [string, number, number][],
  after: ReadonlyMap<string, Shown>,
  others: readonly ReadonlyMap<string, Shown>[],
): [string, number, number][] {
  return mismatches.filter(
    ([slot, said]) =>
      after.get(slot)?.count !== undefined && [after, ...others].every((r) => r.get(slot)?.count !== said),
  );
}

export function publicApiIteration(config: K6Config, s: PublicApiSetup): void {
  const n = exec.scenario.iterationInTest;
  const planned = iterationPlan(n, s.types, s.today);
  if (!planned) return;
  const on = partnerClient(config, s.withFeature);
  const off = s.without === undefined ? undefined : partnerClient(config, s.without);
  const seller = harnessClient(config) as ApiClient;
  const plan = bookablePlan(on, planned);
  if (!plan) return;
  const timeslotted = plan.type.timeslots.length > 0;
  const days = timeslotted ? WINDOW_DAYS.timeslotted : WINDOW_DAYS.flat;
  const end = addDays(plan.date, days);
  const window = { date: plan.date, timeslot: plan.timeslot, timeslots: plan.type.timeslots, days };
  const made: { client: ApiClient; uuid: string }[] = [];
  const sold: string[] = [];
  try {
    const shapedAt = Date.now();
    const onUuid = reserved(reserve(on, plan, n, `alt-on-${n}`));
    if (onUuid) made.push({ client: on, uuid: onUuid });
    const offUuid = off ? reserved(reserve(off, plan, n, `alt-off-${n}`)) : undefined;
    if (off && offUuid) made.push({ client: off, uuid: offUuid });
    if (!onUuid || (off && !offUuid)) return;
    // The holds lapse; the bookings stay reserved with their seats free for anyone.
    sleep(s.holdSeconds + 1);
    const soldOut = sellOut(seller, plan, n, sold);
    if (!soldOut) return;
    // Nothing but the confirm between the two calendar reads: the narrower the bracket, the fewer seats other clients
    // can take or give back unseen.
    const before = calendar(on, plan.type, plan.date, end);
    const confirmAt = Date.now();
    const withFeature = confirmRaw(on, onUuid);
    const after = withFeature.status === 422 ? calendar(on, plan.type, plan.date, end) : new Map<string, Shown>();
    const truthAt = Date.now();
    const alt = isRecord(withFeature.error.alternatives) ? withFeature.error.alternatives : undefined;
    const booking = { date: plan.date, timeslot: plan.timeslot };
    const found = accuracy(alt, snapshotFromCalendar(before, window), booking);
    const now = withFeature.status === 422 ? shownNow(on, plan.type, found.suggested) : new Map<string, Shown>();
    // The key without the feature confirms last, after a read of the slot of its own: a seat given back since the
    // first confirm (other clients keep booking and cancelling) lets it through on a correct service.
    const bookableBeforeWithout =
      off !== undefined && offUuid !== undefined && withFeature.status === 422 && slotBookable(on, plan);
    const withoutFeature = off && offUuid ? confirmRaw(off, offUuid) : undefined;
    const base: AlternativesObservation = {
      productTypeUuid: plan.type.uuid,
      date: plan.date,
      ...(plan.timeslot === undefined ? {} : { timeslot: plan.timeslot }),
      shapedAt,
      confirmAt,
      truthAt: confirmAt,
      kind: "422",
      suggested: [],
      expected: [],
      qtyMismatches: [],
      qtyCompared: 0,
      judgedBy: "public-api",
    };
    if (withFeature.status !== 422 || (withoutFeature !== undefined && withoutFeature.status !== 422)) {
      logObservation({
        ...base,
        kind: "confirmed-after-sell-out",
        status: withFeature.status,
        // A seat given back between the sell-out and the confirm (a hold lapsing, a cancellation approved) explains it.
        changedBetweenReads: before.get(slotKey(plan.date, plan.timeslot))?.bookable === true || bookableBeforeWithout,
        ...(withoutFeature === undefined ? {} : { statusWithout: withoutFeature.status }),
      });
      return;
    }
    checkSoldOutErrors(withFeature, withoutFeature);
    if (alt) checkAlternativesShape(alt, booking, timeslotted);
    logObservation({
      ...base,
      truthAt,
      carried: alt !== undefined,
      ...judgedByAfterRead(alt, booking, window, found.expected, { before, after, now }),
    });
  } finally {
    cancelAll(seller, sold);
    for (const { client, uuid } of made) client.cancelBooking(uuid);
  }
}

/**
 * The 422's alternatives judged by the calendar read after the confirm. Whether the truth may have changed meanwhile:
 * the expected slots differ from the read before, or a suggested slot read on its own since shows otherwise. A qty is
 * compared only where the answer showed a seat count (a timeslot's `remaining`, a reference extra).
 */
function judgedByAfterRead(
  alt: Record<string, unknown> | undefined,
  booking: { date: string; timeslot?: string | undefined },
  window: Parameters<typeof snapshotFromCalendar>[1],
  expectedBefore: readonly string[],
  reads: { before: ReadonlyMap<string, Shown>; after: ReadonlyMap<string, Shown>; now: ReadonlyMap<string, Shown> },
): Pick<AlternativesObservation, "suggested" | "expected" | "qtyMismatches" | "qtyCompared" | "changedBetweenReads"> {
  const { before, after, now } = reads;
  const judged = accuracy(alt, snapshotFromCalendar(after, window), booking);
  const changed =
    judged.expected.slice().sort().join() !== expectedBefore.slice().sort().join() ||
    [...now].some(([slot, { bookable }]) => {
      const shown = after.get(slot);
      return shown !== undefined && shown.bookable !== bookable;
    });
  const counted = (slot: string) => after.get(slot)?.count !== undefined;
  const qtyMismatches = unexplainedQty(judged.qtyMismatches, after, [before, now]);
  const qtyCompared = judged.suggested.filter((slot) => judged.expected.includes(slot) && counted(slot)).length;
  return {
    suggested: judged.suggested,
    expected: judged.expected,
    qtyMismatches,
    qtyCompared,
    changedBetweenReads: changed,
  };
}
