/**
 * The slice of the catalogue the personas work on, read once in setup() (k6 hands setup's return value to every
 * VU): products and, for some of them, their product types with what a booking needs (timeslots, limits, options).
 */
import { isRecord } from "../../contract/index.ts";
import type { ApiClient, Json } from "../client.ts";

export interface SampleOption {
  uuid: string;
  type: string;
  required: boolean;
  values: string[];
}

export interface SampleProductType {
  uuid: string;
  productUuid: string;
  timeslotted: boolean;
  daysInAdvance: number;
  minPax: number;
  maxPax: number;
  options: SampleOption[];
}

export interface CatalogueSample {
  productUuids: string[];
  /** Pages of the products list at the catalogue-sync page size. */
  productPages: number;
  productTypes: SampleProductType[];
}

function num(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function sampleOptions(value: unknown): SampleOption[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((o) => ({
    uuid: String(o.uuid),
    type: String(o.type),
    required: o.required === true,
    values: Array.isArray(o.values) ? o.values.filter(isRecord).map((v) => String(v.uuid)) : [],
  }));
}

export function toSampleProductType(productUuid: string, detail: Json): SampleProductType {
  return {
    uuid: String(detail.uuid),
    productUuid,
    timeslotted: Array.isArray(detail.timeslots) && detail.timeslots.length > 0,
    daysInAdvance: num(detail.daysInAdvance, 0),
    minPax: Math.max(1, num(detail.minPax, 1)),
    maxPax: Math.max(1, num(detail.maxPax, 1)),
    options: sampleOptions(detail.options),
  };
}

/**
 * Reads `products` products and the product types of the first `withTypes` of them. `clientAt(i)` gives the
 * client for the i-th call, so setup spreads over the keys too.
 */
export function readCatalogueSample(
  clientAt: (i: number) => ApiClient,
  sizes: { products: number; withTypes: number; pageSize: number },
): CatalogueSample {
  let call = 0;
  const list = clientAt(call++).listProducts({ page: 1, per_page: Math.min(100, sizes.products) });
  if (list.status !== 200 || !list.data) {
    throw new Error(
      `Failed to read the catalogue in setup: GET /v2/products answered ${list.status}. Please check the target and keys.`,
    );
  }
  const productUuids = list.data.map((p) => String(p.uuid));
  const total = list.pagination?.total ?? productUuids.length;
  const productTypes: SampleProductType[] = [];
  for (const productUuid of productUuids.slice(0, sizes.withTypes)) {
    const types = clientAt(call++).listProductTypes(productUuid);
    for (const summary of types.data ?? []) {
      const detail = clientAt(call++).getProductType(String(summary.uuid));
      if (detail.data) productTypes.push(toSampleProductType(productUuid, detail.data));
    }
  }
  if (productTypes.length === 0) {
    throw new Error("Failed to read the catalogue in setup: no product type could be read. Please check the target.");
  }
  return { productUuids, productPages: Math.max(1, Math.ceil(total / sizes.pageSize)), productTypes };
}
