/**
 * The catalogue facts of the reference service (the embedded target), read from its own seeded catalogue and
 * inventory instead of asked over HTTP: the same seed and size give the same catalogue, so a dry run knows what the
 * setup walk will read and how many of a booker's dates are open without sending anything. Bookings made during the
 * run take seats and are not foreseen: the figures are those of an untouched inventory. The seeded world comes from
 * lib/reference, which the service is built on too, never from service/ (lib/harness imports nothing of the service:
 * eslint.config.js).
 */
import { DEFAULT_PRODUCTS, DEFAULT_SEED, generateCatalogue, type ProductType } from "../../reference/catalogue.ts";
import { DAY_MS, dayOf } from "../../reference/dates.ts";
import { Inventory } from "../../reference/inventory.ts";
import { SAMPLE, type CatalogueFacts } from "./request-estimate.ts";

/** Dates a booker's single-date check moves over (lib/k6/traffic/journeys.ts: n % 20 days past the lead time). */
const BOOKER_DATE_SPREAD = 20;
/** Type stride of the booker's pick (journeys.ts: the type at n * 7). */
const BOOKER_TYPE_STRIDE = 7;
/** Dates the seed bookings move over (lib/k6/traffic/setup.ts: (k + d) % 10 days past the lead time + 1). */
const SEED_DATE_SPREAD = 10;

function openOn(inventory: Inventory, type: ProductType, day: number): boolean {
  // The service calls a day available when any of its slots has a seat (service/api/prices.ts).
  if (type.timeslots.length === 0) return inventory.remaining(type, day, 0) > 0;
  return type.timeslots.some((_, slot) => inventory.remaining(type, day, slot) > 0);
}

/** The facts of the reference service started with this seed and catalogue size, on the day of `nowMs`. */
export function referenceCatalogueFacts(
  service: { seed?: number; products?: number } = {},
  nowMs: number = Date.now(),
): CatalogueFacts {
  const seed = service.seed ?? DEFAULT_SEED;
  const size = service.products ?? DEFAULT_PRODUCTS;
  const today = dayOf(nowMs);
  const catalogue = generateCatalogue(seed, size, today);
  const inventory = new Inventory(seed);
  // The list's default order is the catalogue's (service/api/catalogue.ts): setup reads types of the first products.
  const walked = catalogue.products.slice(0, Math.min(SAMPLE.products, SAMPLE.withTypes));
  const types = walked.flatMap((p) => p.productTypes.filter((t) => t.available));
  const at = (i: number) => types[i % types.length] as ProductType;
  // Over a whole cycle of the booker's (type, date) picks, so every pair it meets counts as often as it is met.
  const cycle = types.length * BOOKER_DATE_SPREAD;
  let bookable = 0;
  for (let n = 0; n < cycle; n++) {
    const type = at(n * BOOKER_TYPE_STRIDE);
    if (openOn(inventory, type, today + type.daysInAdvance + 1 + (n % BOOKER_DATE_SPREAD))) bookable++;
  }
  let seedOpen = 0;
  const seedCycle = types.length * SEED_DATE_SPREAD;
  for (let k = 0; k < seedCycle; k++) {
    const type = at(k);
    if (openOn(inventory, type, today + type.daysInAdvance + 2 + (k % SEED_DATE_SPREAD))) seedOpen++;
  }
  return {
    source: `the reference service's seeded catalogue (seed ${String(seed)}, ${String(size)} products, ${new Date(today * DAY_MS).toISOString().slice(0, 10)}), before the run's bookings`,
    products: catalogue.products.length,
    sampleProductTypes: types.length,
    bookableDateShare: types.length ? bookable / cycle : 0,
    seedDateOpenShare: types.length ? seedOpen / seedCycle : 0,
    instantConfirmationShare: types.length ? types.filter((t) => t.instantConfirmation).length / types.length : 0,
  };
}
