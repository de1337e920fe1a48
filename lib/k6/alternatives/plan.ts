/**
 * How one iteration of the alternatives scenario shapes the inventory before its confirm fails: a deterministic
 * plan per iteration number, cycling through the cases of spec 7.2 so that a short run covers them all:
 * - "same-date": timeslotted, other timeslots of the date left (rule 5), one of them sold out, one capped;
 * - "next-date": timeslotted, the date sold out and the next bookable date on day 1 to 9 (rule 6; 8 and 9 are
 *   beyond the window, so nearby_dates must be empty);
 * - "flat": non-timeslotted, 0 to 3 bookable dates within three days and more after (rule 7), some capped (rule 8).
 * Each iteration owns a block of BLOCK_DAYS dates of one product type, so iterations never share a slot.
 */
import { addDays } from "../../contract/index.ts";
// The first day is after every day conformance and the bookers write on.
import { ALTERNATIVES_FIRST_DAY } from "../../contract/scenario-days.ts";
import type { SlotChange } from "./inventory.ts";
import type { ControlProductType } from "../../contract/product-type-discovery.ts";

export const BLOCK_DAYS = 12;
/** Days shaped after the requested date: the widest look-ahead a wrong service might scan (10) is covered. */
export const SHAPED_DAYS = 10;
/** Seats of the requested slot while reserving: one booking with the feature, one without. */
export const RESERVE_SEATS = 2;

export type PlanKind = "same-date" | "next-date" | "flat";

export interface Plan {
  kind: PlanKind;
  type: ControlProductType;
  date: string;
  timeslot: string | undefined;
  /** Inventory set before reserving (the requested slot keeps RESERVE_SEATS). */
  shape: SlotChange[];
  /** The change that sells the requested slot out after reserving. */
  sellOut: SlotChange[];
  /** The last date the ground truth must cover. */
  truthEnd: string;
}

function mix(n: number, salt: number): number {
  let h = (n * 0x9e3779b1 + salt * 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}

function capsFor(type: ControlProductType, n: number, salt: number): Record<string, number> | null {
  // About one slot in four gets caps: a category limited below the remaining seats (qty = the largest category).
  if (mix(n, salt) % 4 !== 0) return null;
  const caps: Record<string, number> = {};
  for (const [i, category] of type.categories.entries()) caps[category] = 1 + (mix(n, salt + i + 1) % 4);
  return caps;
}

function seats(n: number, salt: number): number {
  return 2 + (mix(n, salt) % 8);
}

/** Where iteration n shapes: its kind, product type, date and round (undefined: no block left in the horizon). */
interface PlanSlot {
  kind: PlanKind;
  type: ControlProductType;
  date: string;
  round: number;
}

function slotFor(
  n: number,
  types: readonly ControlProductType[],
  today: string,
  horizonDays: number,
): PlanSlot | undefined {
  const timeslotted = types.filter((t) => t.timeslots.length >= 3);
  const flat = types.filter((t) => t.timeslots.length === 0);
  const kinds: PlanKind[] = [];
  if (timeslotted.length) kinds.push("same-date", "next-date");
  if (flat.length) kinds.push("flat");
  if (kinds.length === 0) return undefined;
  const kind = kinds[n % kinds.length] as PlanKind;
  const pool = kind === "flat" ? flat : timeslotted;
  const round = Math.floor(n / kinds.length);
  // Numbered among the iterations of the kinds that share the pool (same-date and next-date both take timeslotted
  // types): numbering by round alone gave iterations 3k and 3k+1 the same type and block, so two concurrent
  // iterations shaped one slot and each judged the other's inventory.
  const sharing = kinds.filter((k) => (k === "flat") === (kind === "flat"));
  const ordinal = round * sharing.length + sharing.indexOf(kind);
  const type = pool[ordinal % pool.length] as ControlProductType;
  const block = Math.floor(ordinal / pool.length);
  const offset = type.daysInAdvance + ALTERNATIVES_FIRST_DAY + block * BLOCK_DAYS;
  if (offset + SHAPED_DAYS > horizonDays) return undefined;
  return { kind, type, date: addDays(today, offset), round };
}

/** Rules 7 and 8: a non-timeslotted type, 0-3 bookable dates within three days, some capped. */
function flatPlan(n: number, { kind, type, date }: PlanSlot): Plan {
  const day = (k: number) => addDays(date, k);
  const shape: SlotChange[] = [{ date, remaining: RESERVE_SEATS, caps: null }];
  // 0-3 bookable dates within three days; at least one sold out when fewer than three (a wrong service may list it).
  const bookable = mix(n, 1) % 4;
  const open = new Set([1, 2, 3].filter((k) => mix(n, 10 + k) % 3 !== 0).slice(0, bookable));
  for (let k = 1; k <= SHAPED_DAYS; k++) {
    const isOpen = k > 3 || open.has(k);
    shape.push({
      date: day(k),
      remaining: isOpen ? seats(n, 20 + k) : 0,
      caps: isOpen ? capsFor(type, n, 40 + k) : null,
    });
  }
  const sellOut = [{ date, remaining: 0, caps: null }];
  return { kind, type, date, timeslot: undefined, shape, sellOut, truthEnd: day(3) };
}

/** Rule 5: one other timeslot of the date sold out, the rest open (some capped), nothing else matters on later days. */
function sameDatePlan(n: number, { kind, type, date }: PlanSlot, requested: string): Plan {
  const slots = type.timeslots;
  const others = slots.filter((s) => s !== requested);
  const soldOut = others[mix(n, 3) % others.length];
  const shape: SlotChange[] = [];
  for (const ts of slots) {
    if (ts === requested) shape.push({ date, timeslot: ts, remaining: RESERVE_SEATS, caps: null });
    else if (ts === soldOut) shape.push({ date, timeslot: ts, remaining: 0, caps: null });
    else
      shape.push({
        date,
        timeslot: ts,
        remaining: seats(n, 50 + slots.indexOf(ts)),
        caps: capsFor(type, n, 60 + slots.indexOf(ts)),
      });
  }
  for (let k = 1; k <= SHAPED_DAYS; k++) {
    for (const ts of slots)
      shape.push({ date: addDays(date, k), timeslot: ts, remaining: seats(n, 100 + k), caps: null });
  }
  const sellOut = [{ date, timeslot: requested, remaining: 0, caps: null }];
  return { kind, type, date, timeslot: requested, shape, sellOut, truthEnd: addDays(date, 7) };
}

/** Rule 6: the whole date sold out, the next bookable date on day `next` (8 and 9: beyond the window). */
function nextDatePlan(n: number, { kind, type, date, round }: PlanSlot, requested: string): Plan {
  const slots = type.timeslots;
  const next = 1 + (round % 9);
  const shape: SlotChange[] = [];
  for (const ts of slots) {
    shape.push({ date, timeslot: ts, remaining: ts === requested ? RESERVE_SEATS : 0, caps: null });
  }
  for (let k = 1; k <= SHAPED_DAYS; k++) {
    for (const [i, ts] of slots.entries()) {
      // On the bookable day, one timeslot stays sold out; the others open, one of them capped.
      const open = k >= next && (k > next || i !== mix(n, 4) % slots.length);
      shape.push({
        date: addDays(date, k),
        timeslot: ts,
        remaining: open ? seats(n, 200 + k * 10 + i) : 0,
        caps: open && k === next ? capsFor(type, n, 300 + i) : null,
      });
    }
  }
  const sellOut = [{ date, timeslot: requested, remaining: 0, caps: null }];
  return { kind, type, date, timeslot: requested, shape, sellOut, truthEnd: addDays(date, 7) };
}

/**
 * The plan of iteration n over the hot set (timeslotted types first); undefined when the iteration has no block
 * left before the types' validity ends (the scenario then does nothing).
 */
export function planFor(
  n: number,
  types: readonly ControlProductType[],
  today: string,
  horizonDays = 330,
): Plan | undefined {
  const slot = slotFor(n, types, today, horizonDays);
  if (slot === undefined) return undefined;
  if (slot.kind === "flat") return flatPlan(n, slot);
  const slots = slot.type.timeslots;
  const requested = slots[mix(n, 2) % slots.length] as string;
  return slot.kind === "same-date" ? sameDatePlan(n, slot, requested) : nextDatePlan(n, slot, requested);
}
