/**
 * Which product types the alternatives scenario works on and the churn driver churns: the same ones, so churn
 * really races with the scenario's 422s. Both read GET /__control/product-types?limit=1000 (catalogue order) and pick
 * from the middle of it: partner-mix samples the beginning of the catalogue and the webhooks scenario the end, and
 * churn there would fail their checks. The invariants scenario takes its own types further on, where nothing churns,
 * so its per-slot history has no writer but itself. Runtime-neutral (k6 and Node).
 */

export interface ControlProductType {
  uuid: string;
  productUuid: string;
  available: boolean;
  timeslots: string[];
  instantConfirmation: boolean;
  daysInAdvance: number;
  minPax: number;
  maxPax: number;
  categories: string[];
  requiredOptions: { uuid: string; type: string; values: string[] }[];
}

/** Where in the catalogue each user starts, as a share of the product-type list. */
export const HOT_SET_START = 0.45;
export const INVARIANTS_START = 0.7;
/** Product types per kind (timeslotted with at least 3 timeslots; non-timeslotted) in the hot set. */
export const HOT_SET_PER_KIND = 4;

function from<T>(list: readonly T[], share: number): T[] {
  return list.slice(Math.floor(list.length * share));
}

/** The product types the alternatives scenario uses and churn changes: timeslotted first, then non-timeslotted. */
export function hotSet(types: readonly ControlProductType[]): ControlProductType[] {
  const rest = from(
    types.filter((t) => t.available && t.minPax <= 1),
    HOT_SET_START,
  );
  const timeslotted = rest.filter((t) => t.timeslots.length >= 3).slice(0, HOT_SET_PER_KIND);
  const flat = rest.filter((t) => t.timeslots.length === 0).slice(0, HOT_SET_PER_KIND);
  return [...timeslotted, ...flat];
}

/** Instant-confirmation, non-timeslotted types without required options: the invariants scenario's own slots. */
export function invariantTypes(types: readonly ControlProductType[], count = 2): ControlProductType[] {
  return from(
    types.filter((t) => t.available && t.minPax <= 1 && t.timeslots.length === 0 && t.instantConfirmation),
    INVARIANTS_START,
  ).slice(0, count);
}

/** Parses the control API's product-type list leniently (unknown fields ignored). */
export function parseControlProductTypes(data: unknown): ControlProductType[] {
  if (!Array.isArray(data)) return [];
  const out: ControlProductType[] = [];
  for (const raw of data as unknown[]) {
    if (typeof raw !== "object" || raw === null) continue;
    const t = raw as Record<string, unknown>;
    const options = Array.isArray(t.requiredOptions) ? (t.requiredOptions as Record<string, unknown>[]) : [];
    out.push({
      uuid: String(t.uuid),
      productUuid: String(t.productUuid),
      available: t.available === true,
      timeslots: Array.isArray(t.timeslots) ? t.timeslots.map(String) : [],
      instantConfirmation: t.instantConfirmation === true,
      daysInAdvance: Number(t.daysInAdvance) || 0,
      minPax: Number(t.minPax) || 1,
      maxPax: Number(t.maxPax) || 1,
      categories: Array.isArray(t.categories) ? t.categories.map(String) : ["adults"],
      requiredOptions: options.map((o) => ({
        uuid: String(o.uuid),
        type: String(o.type),
        values: Array.isArray(o.values) ? o.values.map(String) : [],
      })),
    });
  }
  return out;
}
