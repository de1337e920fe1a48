/**
 * Live inventory, the single source of truth per slot (a product type's day, or one timeslot of it).
 *
 * - `supply`: seats the supplier still offers for bookings not yet confirmed. Seeded per slot; churn
 *   (PUT /__control/inventory) sets it. Confirming a booking takes its seats from supply (inventory is locked).
 * - `held`: seats held by bookings in `reserved`. A new reservation needs `supply - held` seats.
 * - `remaining` = max(0, supply - held): what a new booking can take; what prices, alternatives and the ground
 *   truth report.
 * - `caps`: optional per-category limits (the most of that age group one booking may take at the slot).
 *
 * Slots are created on first write; reads of an untouched slot compute the seeded value, so a year of inventory
 * for 20,000 products costs no memory until it is booked or churned.
 */
import type { ProductType } from "./catalogue.ts";
import { hash } from "./rng.ts";

export const CATEGORY_NAMES = ["adults", "children", "seniors"] as const;
export type Category = (typeof CATEGORY_NAMES)[number];
export type Caps = Partial<Record<Category, number>>;

export interface Slot {
  supply: number;
  held: number;
  caps: Caps | undefined;
}

function slotKey(ptIndex: number, day: number, ts: number): number {
  return (ptIndex * 65536 + (day & 0xffff)) * 16 + ts;
}

export class Inventory {
  readonly #seed: number;
  #slots = new Map<number, Slot>();

  constructor(seed: number) {
    this.#seed = seed;
  }

  /** Seeded supply of an untouched slot: mostly open, about one slot in twelve sold out. */
  seededSupply(pt: ProductType, day: number, ts: number): number {
    const h = hash(this.#seed ^ 0x5bd1e995, pt.index, day, ts + 1);
    if (h % 100 < 8) return 0;
    return Math.max(1, Math.round((pt.capacity * (50 + (h % 51))) / 100));
  }

  /** The stored slot, or undefined when untouched (then its supply is seeded, held 0, no caps). */
  peek(pt: ProductType, day: number, ts: number): Slot | undefined {
    return this.#slots.get(slotKey(pt.index, day, ts));
  }

  remaining(pt: ProductType, day: number, ts: number): number {
    const slot = this.#slots.get(slotKey(pt.index, day, ts));
    if (slot === undefined) return this.seededSupply(pt, day, ts);
    return Math.max(0, slot.supply - slot.held);
  }

  /** The stored slot, created from the seed on first use; mutate it synchronously only. */
  slot(pt: ProductType, day: number, ts: number): Slot {
    const key = slotKey(pt.index, day, ts);
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = { supply: this.seededSupply(pt, day, ts), held: 0, caps: undefined };
      this.#slots.set(key, slot);
    }
    return slot;
  }

  get size(): number {
    return this.#slots.size;
  }

  clear(): void {
    this.#slots = new Map();
  }
}

/** The age groups a product type sells. */
export function categoriesOf(pt: ProductType): Category[] {
  const list: Category[] = ["adults"];
  if (pt.allowChildren) list.push("children");
  if (pt.allowSeniors) list.push("seniors");
  return list;
}
