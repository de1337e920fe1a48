/**
 * The slice of the catalogue the personas work on, read once in setup() (k6 hands setup's return value to every
 * VU): products and, for some of them, their product types with what a booking needs (timeslots, limits, options).
 */
import { toSampleProductType, type CatalogueSample, type SampleProductType } from "../../contract/catalogue-sample.ts";
import type { ApiClient } from "../client.ts";

export type { CatalogueSample, SampleOption, SampleProductType } from "../../contract/catalogue-sample.ts";

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
