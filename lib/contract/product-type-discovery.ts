/**
 * Product-type discovery through the public partner API, the way any partner can: walk GET /v2/products from a
 * point in the catalogue, each product's GET /v2/products/{uuid}/product-types and each type's detail (timeslotted
 * or not from `timeslots`, instant or supplier-decided from `instantConfirmation`, price categories from
 * `allowChildren`/`allowSeniors`, required options from `options`). Another implementation of the API offers only
 * the required test hooks, so this is how scenarios and churn find their product types; the reference service's
 * discovery hook (GET /__control/product-types) is used only as a shortcut when it answers (candidatesFromHook).
 *
 * The walk is bounded whatever the catalogue's size: one products page to learn the total, then at most
 * `maxProducts` products from the starting point, and it stops as soon as the caller's `enough` says so.
 *
 * It is a generator of requests, so k6 (synchronous http) and Node (fetch) drive the same steps: each yields a
 * WalkRequest and is resumed with its WalkAnswer. Runtime-neutral (k6 and Node); imports only lib/contract.
 */
import { isRecord } from "./types.ts";

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

/** Parses the discovery hook's product-type list (or ATD_HOT_SET) leniently (unknown fields ignored). */
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

/** The products list's largest page (docs/contract-gaps.md, Lists and pagination: per_page at most 100). */
export const WALK_PAGE_SIZE = 100;
/** Products read at most by one walk: a bound on its requests (about three per product), not a catalogue size. */
export const MAX_WALK_PRODUCTS = 40;

export interface WalkPlan {
  /** Where the walk starts, as a share of the products list: 0 the first product, 1 the last. */
  start: number;
  /** Forward to the end (then around from the start), or backward to the start (then around from the end). */
  direction: "forward" | "backward";
  /** Whether the types found so far (in walk order) are enough: the walk stops as soon as they are. */
  enough: (found: readonly ControlProductType[]) => boolean;
  maxProducts?: number;
}

export type WalkRequest =
  | { endpoint: "products"; params: Record<string, string>; query: { page: number; per_page: number } }
  | { endpoint: "productTypes"; params: { uuid: string }; query: { per_page: number } }
  | { endpoint: "productType"; params: { uuid: string }; query: Record<string, never> };

export interface WalkAnswer {
  status: number;
  /** The envelope's `data`. */
  data: unknown;
  /** meta.pagination.total of a list answer. */
  total: number | undefined;
}

/** The products list itself could not be read: nothing can be discovered. */
export class CatalogueWalkError extends Error {
  override name = "CatalogueWalkError";
  readonly status: number;

  constructor(status: number, page: number) {
    super(
      `Failed to discover product types: GET /v2/products?page=${page} answered ${status}. Please check the target and the API keys (--keys).`,
    );
    this.status = status;
  }
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function count(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** A product type's public detail (GET /v2/product-types/{uuid}) in the shape scenarios and churn work with. */
export function fromPublicDetail(productUuid: string, detail: Record<string, unknown>): ControlProductType {
  const timeslots = Array.isArray(detail.timeslots)
    ? detail.timeslots.map((t) => (isRecord(t) ? String(t.timeslot) : String(t)))
    : [];
  return {
    uuid: String(detail.uuid),
    productUuid,
    // The public API lists available types only (a withdrawn one answers 410).
    available: true,
    timeslots,
    instantConfirmation: detail.instantConfirmation === true,
    daysInAdvance: count(detail.daysInAdvance, 0),
    minPax: Math.max(1, count(detail.minPax, 1)),
    maxPax: Math.max(1, count(detail.maxPax, 1)),
    categories: [
      "adults",
      ...(detail.allowChildren === true ? ["children"] : []),
      ...(detail.allowSeniors === true ? ["seniors"] : []),
    ],
    requiredOptions: records(detail.options)
      .filter((o) => o.required === true)
      .map((o) => ({
        uuid: String(o.uuid),
        type: String(o.type),
        values: records(o.values).map((v) => String(v.uuid)),
      })),
  };
}

/** The positions a walk visits: from the start, in its direction, around the end, each product once. */
export function walkOrder(total: number, plan: Pick<WalkPlan, "start" | "direction" | "maxProducts">): number[] {
  if (total <= 0) return [];
  const first = Math.min(total - 1, Math.max(0, Math.floor(total * plan.start)));
  const step = plan.direction === "forward" ? 1 : -1;
  const visits = Math.min(total, plan.maxProducts ?? MAX_WALK_PRODUCTS);
  return Array.from({ length: visits }, (_, i) => (((first + i * step) % total) + total) % total);
}

/**
 * The walk: yields each request, resumed with its answer; returns the types found in walk order (the last of them
 * made `enough` true, unless the walk ran out of products first). A product or type withdrawn meanwhile (404/410)
 * is passed over; only an unreadable products list ends the walk (CatalogueWalkError).
 */
export function* walkCatalogue(plan: WalkPlan): Generator<WalkRequest, ControlProductType[], WalkAnswer> {
  const pages = new Map<number, string[]>();
  let total = 0;
  function* page(n: number): Generator<WalkRequest, string[], WalkAnswer> {
    const known = pages.get(n);
    if (known) return known;
    const answer = yield { endpoint: "products", params: {}, query: { page: n, per_page: WALK_PAGE_SIZE } };
    if (answer.status !== 200) throw new CatalogueWalkError(answer.status, n);
    const uuids = records(answer.data).map((p) => String(p.uuid));
    pages.set(n, uuids);
    if (n === 1) total = answer.total ?? uuids.length;
    return uuids;
  }
  yield* page(1);
  const found: ControlProductType[] = [];
  for (const position of walkOrder(total, plan)) {
    const uuids = yield* page(Math.floor(position / WALK_PAGE_SIZE) + 1);
    const productUuid = uuids[position % WALK_PAGE_SIZE];
    if (productUuid === undefined) continue;
    const types = yield { endpoint: "productTypes", params: { uuid: productUuid }, query: { per_page: 100 } };
    if (types.status !== 200) continue;
    for (const summary of records(types.data)) {
      const detail = yield { endpoint: "productType", params: { uuid: String(summary.uuid) }, query: {} };
      if (detail.status !== 200 || !isRecord(detail.data)) continue;
      found.push(fromPublicDetail(productUuid, detail.data));
      if (plan.enough(found)) return found;
    }
  }
  return found;
}

/**
 * The same candidates from the reference service's discovery hook (every type in catalogue order): those from the
 * walk's starting point on, in its direction, as the walk would meet them.
 */
export function candidatesFromHook(data: unknown, plan: Pick<WalkPlan, "start" | "direction">): ControlProductType[] {
  const all = parseControlProductTypes(data);
  const first = Math.min(all.length, Math.max(0, Math.floor(all.length * plan.start)));
  return plan.direction === "forward" ? all.slice(first) : all.slice(0, first + 1).reverse();
}
