/**
 * Which product types the alternatives scenario works on and the churn driver churns: the same ones, so churn
 * really races with the scenario's 422s. Both take them from the middle of the catalogue: partner-mix samples its
 * beginning and the webhooks scenario its end, and churn there would fail their checks. The invariants scenario takes
 * its own types further on, where nothing churns, so its per-slot history has no writer but itself.
 *
 * Where the types come from (the public catalogue walk, or the reference service's discovery hook as a shortcut) is
 * lib/contract/product-type-discovery.ts; what is picked from them is decided here, once, for k6 and Node alike: the churn
 * extension discovers and picks the hot set and hands it to the alternatives scenario (ATD_HOT_SET), which picks it
 * the same way itself only when it runs without churn. Runtime-neutral (k6 and Node).
 */
import type { ControlProductType, WalkPlan } from "./product-type-discovery.ts";

/** Where in the catalogue each user starts, as a share of the products (or of the hook's product-type list). */
export const HOT_SET_START = 0.45;
export const INVARIANTS_START = 0.7;
/** Product types per kind (timeslotted with at least 3 timeslots; non-timeslotted) in the hot set. */
export const HOT_SET_PER_KIND = 4;
export const INVARIANT_TYPES = 2;

const usable = (t: ControlProductType) => t.available && t.minPax <= 1;

/**
 * The hot set out of candidates in walk order: the first HOT_SET_PER_KIND timeslotted types (3 timeslots or more),
 * then the first HOT_SET_PER_KIND non-timeslotted ones.
 */
export function pickHotSet(candidates: readonly ControlProductType[]): ControlProductType[] {
  const ok = candidates.filter(usable);
  const timeslotted = ok.filter((t) => t.timeslots.length >= 3).slice(0, HOT_SET_PER_KIND);
  const flat = ok.filter((t) => t.timeslots.length === 0).slice(0, HOT_SET_PER_KIND);
  return [...timeslotted, ...flat];
}

export const HOT_SET_WALK: WalkPlan = {
  start: HOT_SET_START,
  direction: "forward",
  enough: (found) => pickHotSet(found).length >= 2 * HOT_SET_PER_KIND,
};

/** Instant-confirmation, non-timeslotted types: the invariants scenario's own slots. */
export function pickInvariantTypes(candidates: readonly ControlProductType[]): ControlProductType[] {
  return candidates
    .filter((t) => usable(t) && t.timeslots.length === 0 && t.instantConfirmation)
    .slice(0, INVARIANT_TYPES);
}

export const INVARIANTS_WALK: WalkPlan = {
  start: INVARIANTS_START,
  direction: "forward",
  enough: (found) => pickInvariantTypes(found).length >= INVARIANT_TYPES,
};
