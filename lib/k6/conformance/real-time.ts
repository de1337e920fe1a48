/**
 * Spec 2.6 through the public API alone (2.6-real-time on a run without the test hooks): the run's key sells a slot
 * out with reservations (lib/contract/seat-plan.ts, as black-box churn does) until a single seat is refused, then
 * reads the single-date answer at once. A slot still shown bookable then is a stale answer, once one more single seat
 * is refused right after that read: the seats did not come back in between (a reservation's hold lapsing, another
 * partner cancelling), which a seat taken instead would show, and the sell-out is tried again. What the judge reserved
 * is cancelled before it returns. Only the way to "not bookable" is judged: when a cancel's seats come back is the
 * service's own business (decisions.md: the supplier approves a cancellation).
 */
import { isRecord } from "../../contract/index.ts";
import { SeatPlan, type SeatBudget } from "../../contract/seat-plan.ts";
import { bookableSlot } from "../answer-rules.ts";
import type { ApiResponse, Json } from "../client.ts";
import { bookingRequest, cancelAll, customerOf, runTag, type Slot } from "./booking-rules.ts";
import {
  answerEvidence,
  failed,
  notJudged,
  passed,
  type ConformanceContext,
  type FoundProductType,
  type Verdict,
} from "./judge.ts";

/** The most the judge reserves in all (bounds its load and what a failed cancel could leave behind). */
export const SELL_OUT_BUDGET: Readonly<SeatBudget> = { seats: 60, requests: 16 };
/** Sell-outs of one slot, when its seats came back between the sell-out and the read. */
const ROUNDS = 3;
/** Product types tried for a slot the budget can sell out. */
const TYPES_TRIED = 3;

/** The slot the judge sells out, with the seats the single-date answer shows of it (a reference extra) if any. */
interface Target {
  slot: Slot;
  shown: number | undefined;
  path: string;
}

/** Whether the single-date answer shows the slot bookable: the day, or for a timeslotted type its timeslot. */
export function slotShownBookable(data: unknown, timeslot: string | undefined): boolean {
  if (!isRecord(data) || data.available !== true) return false;
  if (timeslot === undefined) return true;
  const slots = Array.isArray(data.timeslots) ? (data.timeslots as unknown[]) : [];
  return slots.some((s) => (isRecord(s) ? s.timeslot === timeslot : s === timeslot) && bookableSlot(s));
}

/** The open slot of a type on a date the single-date answer shows, the one with the fewest seats shown first. */
function targetOf(ctx: ConformanceContext, type: FoundProductType, date: string): Target | undefined {
  const path = `/v2/product-types/${type.uuid}/price-lists/${date}`;
  const before = ctx.client.getPriceForDate(type.uuid, date);
  const data = before.status === 200 ? before.data : undefined;
  if (!isRecord(data) || data.available !== true) return undefined;
  if (!type.timeslotted) return { slot: { type, date, timeslot: undefined }, shown: undefined, path };
  const open = (Array.isArray(data.timeslots) ? (data.timeslots as unknown[]) : []).filter(bookableSlot);
  const seats = (s: unknown) => (isRecord(s) && typeof s.remaining === "number" ? s.remaining : undefined);
  open.sort((a, b) => (seats(a) ?? Number.POSITIVE_INFINITY) - (seats(b) ?? Number.POSITIVE_INFINITY));
  const first = open[0];
  if (first === undefined) return undefined;
  const timeslot = isRecord(first) ? String(first.timeslot) : typeof first === "string" ? first : undefined;
  if (timeslot === undefined) return undefined;
  return { slot: { type, date, timeslot }, shown: seats(first), path };
}

type Reserve = (qty: number) => ApiResponse<Json>;

/** A reservation answered neither as taken nor as refused for lack of seats: the rule cannot be judged on it. */
function unexpected(res: ApiResponse<Json>): Verdict {
  return notJudged(`a reservation was answered neither 201 nor 422: ${answerEvidence("POST", "/v2/bookings", res)}`);
}

/**
 * Reserves until a single seat is refused: "sold out", or "not sold out" when the budget ran out first (or nothing
 * was ever taken), or the verdict when the service answered neither a reservation nor a refusal (422).
 */
function sellOut(
  target: Target,
  budget: SeatBudget,
  reserve: Reserve,
  held: string[],
): "sold out" | "not sold out" | Verdict {
  const plan = new SeatPlan(Number.POSITIVE_INFINITY, target.slot.type.maxPax, budget, target.shown);
  for (let qty = plan.next(); qty !== undefined; qty = plan.next()) {
    const res = reserve(qty);
    const uuid = res.data?.uuid;
    if ((res.status === 200 || res.status === 201) && typeof uuid === "string") {
      plan.taken(qty);
      held.push(uuid);
    } else if (res.status === 422) plan.refused(qty);
    else return unexpected(res);
  }
  // A single seat refused before the request was ever taken may be one the service refuses whatever the seats.
  return plan.soldOut && held.length > 0 ? "sold out" : "not sold out";
}

/** Sells the target out and reads it back, up to ROUNDS times; undefined when the budget cannot sell it out. */
function judgeTarget(ctx: ConformanceContext, target: Target, budget: SeatBudget, held: string[]): Verdict | undefined {
  const { slot } = target;
  const tag = runTag();
  const request = bookingRequest(slot, `atd-conformance-real-time-${tag}`, customerOf(tag, "r"));
  const reserve: Reserve = (qty) => ctx.client.createBooking({ ...request, adults: qty });
  const where = `${slot.type.uuid} on ${slot.date}${slot.timeslot === undefined ? "" : ` at ${slot.timeslot}`}`;
  for (let round = 0; round < ROUNDS; round++) {
    const sold = sellOut(target, budget, reserve, held);
    if (sold === "not sold out") return undefined;
    if (sold !== "sold out") return sold;
    const after = ctx.client.getPriceForDate(slot.type.uuid, slot.date);
    if (after.status !== 200)
      return notJudged(`the read after the sell-out: ${answerEvidence("GET", target.path, after)}`);
    if (!slotShownBookable(after.data, slot.timeslot)) return passed;
    const again = reserve(1);
    const uuid = again.data?.uuid;
    if (again.status === 422)
      return failed(
        `the run's key took the last seat of ${where} (a single seat was refused before and right after this read), yet the single-date answer still shows it bookable: ${answerEvidence("GET", target.path, after)}`,
      );
    if ((again.status !== 200 && again.status !== 201) || typeof uuid !== "string") return unexpected(again);
    // The seat was there: seats came back between the sell-out and the read. Sell out again.
    held.push(uuid);
  }
  return notJudged(`seats of ${where} came back after each of ${String(ROUNDS)} sell-outs before the read`);
}

/** 2.6-real-time without the test hooks, on `date`: see the file's comment. */
export function realTimeThroughPublicApi(ctx: ConformanceContext, date: string): Verdict {
  // A party below minPax is refused whatever the seats, so a single-seat refusal would not mean sold out.
  const types = ctx.productTypes.filter((t) => t.minPax <= 1).slice(0, TYPES_TRIED);
  const budget: SeatBudget = { ...SELL_OUT_BUDGET };
  for (const type of types) {
    const target = targetOf(ctx, type, date);
    if (target === undefined) continue;
    const held: string[] = [];
    try {
      const verdict = judgeTarget(ctx, target, budget, held);
      if (verdict !== undefined) return verdict;
    } finally {
      cancelAll(ctx, held);
    }
  }
  return notJudged(
    `no slot on ${date} of the first ${String(TYPES_TRIED)} found types with minPax 1 could be sold out within ${String(SELL_OUT_BUDGET.seats)} seats and ${String(SELL_OUT_BUDGET.requests)} reservations`,
  );
}
