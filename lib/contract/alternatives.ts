/**
 * The alternatives oracle: rules 1-9 of spec 7.2 as one pure function of (inventory snapshot, failed booking).
 * The reference service calls it with live inventory at the instant of a failed confirmation; the harness calls it
 * with the ground truth it reads right after a 422 and compares. Runtime-neutral (Node and k6).
 *
 * Inventory terms follow docs/contract-gaps.md (Inventory and alternatives): per date, and per timeslot where
 * timeslotted, a `remaining` capacity and optional per-category caps; `qty` = the largest quantity any single price
 * category could book there (rule 8). "Within the next three days" and "up to 7 days forward" count calendar days after
 * the requested date.
 */
import { utcMs } from "./dates.ts";
import { ALTERNATIVES_LOOKAHEAD } from "./limits.ts";
import type { AlternativeTimeslot, Alternatives, NearbyDate } from "./types.ts";

export const AGE_CATEGORIES = ["adults", "children", "seniors"] as const;
export type AgeCategory = (typeof AGE_CATEGORIES)[number];

export interface SlotInventory {
  /** What a new booking could take at this slot now (0 = sold out or closed). */
  remaining: number;
  /** Per-category caps; a category without a cap can take up to `remaining`. */
  caps?: Partial<Record<AgeCategory, number>> | undefined;
}

export interface TimeslotInventory extends SlotInventory {
  timeslot: string;
}

export interface DayInventory extends SlotInventory {
  date: string;
  /** Timeslotted product types only; then the day-level `remaining` and `caps` are ignored. */
  timeslots?: TimeslotInventory[] | undefined;
}

export interface InventorySnapshot {
  timeslotted: boolean;
  /** The price categories the product type sells (adults always; children/seniors when allowed). */
  categories: readonly AgeCategory[];
  /** Days at and after the requested date; missing days count as sold out. */
  days: readonly DayInventory[];
}

export interface FailedBooking {
  date: string;
  /** Present for timeslotted product types. */
  timeslot?: string | undefined;
}

export interface AlternativesInput {
  /** Rule 1: the feature is enabled for the partner's API key. */
  enabled: boolean;
  booking: FailedBooking;
  /** Undefined when the booking has no attached product type (rule 2: no suggestion can be computed). */
  inventory: InventorySnapshot | undefined;
}

export interface Lookahead {
  timeslottedDays: number;
  nonTimeslottedDays: number;
  nonTimeslottedMaxDates: number;
}

/** Rule 8: the most any single price category could book at a slot. */
export function slotQty(slot: SlotInventory, categories: readonly AgeCategory[]): number {
  const remaining = Math.max(0, Math.floor(slot.remaining));
  let best = 0;
  for (const category of categories) {
    const cap = slot.caps?.[category];
    const qty = cap === undefined ? remaining : Math.max(0, Math.min(remaining, Math.floor(cap)));
    if (qty > best) best = qty;
  }
  return best;
}

/** YYYY-MM-DD plus n calendar days (UTC). */
function plusDays(date: string, n: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(utcMs(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + n)).toISOString().slice(0, 10);
}

function bookableTimeslots(day: DayInventory | undefined, categories: readonly AgeCategory[], except?: string) {
  const out: AlternativeTimeslot[] = [];
  for (const ts of day?.timeslots ?? []) {
    if (ts.timeslot === except) continue;
    const qty = slotQty(ts, categories);
    if (qty > 0) out.push({ timeslot: ts.timeslot, qty });
  }
  return out;
}

/**
 * The expected `alternatives` of a failed confirmation, or undefined when it must be omitted (rules 1-2).
 * When present both arrays are always arrays (rule 3) and `requested` echoes the date, plus the timeslot only for
 * timeslotted products (rule 4).
 */
export function expectedAlternatives(
  input: AlternativesInput,
  lookahead: Lookahead = ALTERNATIVES_LOOKAHEAD,
): Alternatives | undefined {
  const { enabled, booking, inventory } = input;
  if (!enabled || inventory === undefined) return undefined;
  const byDate = new Map(inventory.days.map((d) => [d.date, d]));
  const categories = inventory.categories;
  if (inventory.timeslotted) {
    const requested: Alternatives["requested"] = { date: booking.date };
    if (booking.timeslot !== undefined) requested.timeslot = booking.timeslot;
    // Rule 5: other timeslots of the requested date with capacity.
    const same = bookableTimeslots(byDate.get(booking.date), categories, booking.timeslot);
    if (same.length > 0) return { requested, same_date_timeslots: same, nearby_dates: [] };
    // Rule 6: the next date with any bookable timeslot, up to 7 days forward; one entry.
    for (let n = 1; n <= lookahead.timeslottedDays; n++) {
      const date = plusDays(booking.date, n);
      const timeslots = bookableTimeslots(byDate.get(date), categories);
      if (timeslots.length > 0) {
        const qty = Math.max(...timeslots.map((t) => t.qty));
        return { requested, same_date_timeslots: [], nearby_dates: [{ date, qty, timeslots }] };
      }
    }
    return { requested, same_date_timeslots: [], nearby_dates: [] };
  }
  // Rule 7: up to three future dates within the next three days with bookable capacity.
  const nearby: NearbyDate[] = [];
  for (let n = 1; n <= lookahead.nonTimeslottedDays && nearby.length < lookahead.nonTimeslottedMaxDates; n++) {
    const date = plusDays(booking.date, n);
    const day = byDate.get(date);
    const qty = day === undefined ? 0 : slotQty(day, categories);
    if (qty > 0) nearby.push({ date, qty });
  }
  return { requested: { date: booking.date }, same_date_timeslots: [], nearby_dates: nearby };
}
