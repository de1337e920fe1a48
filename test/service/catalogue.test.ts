/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import {
  PRODUCT_DETAIL_KEYS,
  PRODUCT_LIST_ITEM_KEYS,
  PRODUCT_TYPE_DETAIL_KEYS,
  PRODUCT_TYPE_SUMMARY_KEYS,
  diffKeys,
  isListEnvelope,
} from "../../lib/contract/index.ts";
import { api, start } from "./helpers.ts";

describe("catalogue endpoints", () => {
  it("should list products with exactly the list-item keys and pagination meta", async () => {
    await using svc = await start();
    const res = await api(svc, "/v2/products?per_page=5&page=2");
    expect(res.status).toBe(200);
    expect(isListEnvelope(res.body)).toBe(true);
    expect(res.body.data).toHaveLength(5);
    for (const item of res.body.data)
      expect(diffKeys(item, PRODUCT_LIST_ITEM_KEYS)).toEqual({ missing: [], unexpected: [] });
    expect(res.body.meta.pagination).toEqual({ total: 60, count: 5, per_page: 5, current_page: 2, total_pages: 12 });
  });

  it("should return a product detail with exactly the detail keys", async () => {
    await using svc = await start();
    const uuid = svc.state.catalogue.products[3]?.uuid ?? "";
    const res = await api(svc, `/v2/products/${uuid}`);
    expect(res.status).toBe(200);
    expect(diffKeys(res.body.data, PRODUCT_DETAIL_KEYS)).toEqual({ missing: [], unexpected: [] });
    expect(res.body.links[0].rel).toBe("self");
  });

  it("should list product types and return a product-type detail with exactly its keys", async () => {
    await using svc = await start();
    const product = svc.state.catalogue.products[0];
    const list = await api(svc, `/v2/products/${product?.uuid ?? ""}/product-types`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(product?.productTypes.length ?? -1);
    for (const s of list.body.data) expect(diffKeys(s, PRODUCT_TYPE_SUMMARY_KEYS).unexpected).toEqual([]);
    const detail = await api(svc, `/v2/product-types/${list.body.data[0].uuid as string}`);
    expect(diffKeys(detail.body.data, PRODUCT_TYPE_DETAIL_KEYS)).toEqual({ missing: [], unexpected: [] });
  });

  it("should give the same UUIDs for the same seed and different ones for another seed", async () => {
    await using a = await start({ seed: 7 });
    await using b = await start({ seed: 7 });
    await using c = await start({ seed: 8 });
    const uuids = (s: typeof a) => s.state.catalogue.products.map((p) => p.uuid);
    expect(uuids(a)).toEqual(uuids(b));
    expect(uuids(a)).not.toEqual(uuids(c));
    expect(uuids(a)[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("should answer 401 GEN-UNAUTHORIZED without a valid key", async () => {
    await using svc = await start();
    for (const key of [null, "nope"]) {
      const res = await api(svc, "/v2/products", { key });
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: "GEN-UNAUTHORIZED", message: expect.any(String), http_code: 401 });
    }
  });
});
