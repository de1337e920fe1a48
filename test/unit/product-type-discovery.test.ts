/**
 * Product-type discovery through the public API (lib/contract/product-type-discovery.ts) and what each user picks from it
 * (hot set, invariants types, webhook types): driven here over a fake catalogue answering like the partner API, so
 * the walk's bounds, its start and direction, and its tolerance of withdrawn items are shown without a service.
 */
import { describe, expect, it } from "vitest";
import {
  HOT_SET_PER_KIND,
  HOT_SET_WALK,
  INVARIANTS_WALK,
  pickHotSet,
  pickInvariantTypes,
} from "../../lib/contract/hot-set.ts";
import {
  CatalogueWalkError,
  MAX_WALK_PRODUCTS,
  WALK_PAGE_SIZE,
  candidatesFromHook,
  fromPublicDetail,
  walkCatalogue,
  walkOrder,
  type WalkAnswer,
  type WalkPlan,
  type ControlProductType,
  type WalkRequest,
} from "../../lib/contract/product-type-discovery.ts";
import { WEBHOOKS_WALK, pickWebhookTypes } from "../../lib/k6/webhooks/sample.ts";

/** Product i has two types: i-a (kind by i % 4) and i-b (always instant, no timeslots). */
function detail(product: number, which: "a" | "b"): Record<string, unknown> {
  const kind = which === "b" ? 1 : product % 4;
  return {
    uuid: `pt-${product}-${which}`,
    daysInAdvance: 2,
    minPax: 1,
    maxPax: 8,
    allowChildren: product % 2 === 0,
    allowSeniors: false,
    instantConfirmation: kind !== 2,
    timeslots: kind === 0 ? [{ timeslot: "09:00" }, { timeslot: "11:00" }, { timeslot: "14:00" }] : [],
    options: [
      { uuid: "o1", type: "select", required: true, values: [{ uuid: "v1" }, { uuid: "v2" }] },
      { uuid: "o2", type: "text", required: false, values: [] },
    ],
  };
}

interface Fake {
  products: number;
  /** Answers by product index for the product-types list (default 200). */
  typesStatus?: (product: number) => number;
  listStatus?: number;
}

/** Drives the walk like a driver does, answering from the fake catalogue; returns what it found and asked. */
function drive(plan: WalkPlan, fake: Fake): { found: ControlProductType[]; requests: WalkRequest[] } {
  const requests: WalkRequest[] = [];
  const walk = walkCatalogue(plan);
  let step = walk.next();
  while (!step.done) {
    const r = step.value;
    requests.push(r);
    let answer: WalkAnswer;
    if (r.endpoint === "products") {
      const start = (r.query.page - 1) * r.query.per_page;
      const items = Array.from({ length: Math.max(0, Math.min(r.query.per_page, fake.products - start)) }, (_, i) => ({
        uuid: `p-${start + i}`,
      }));
      answer = { status: fake.listStatus ?? 200, data: items, total: fake.products };
    } else if (r.endpoint === "productTypes") {
      const product = Number(r.params.uuid.slice(2));
      const data = [{ uuid: `pt-${product}-a` }, { uuid: `pt-${product}-b` }];
      answer = { status: fake.typesStatus?.(product) ?? 200, data, total: 2 };
    } else {
      const [, product, which] = r.params.uuid.split("-");
      answer = { status: 200, data: detail(Number(product), which as "a" | "b"), total: undefined };
    }
    step = walk.next(answer);
  }
  return { found: step.value, requests };
}

describe("walkCatalogue", () => {
  it("should read a type's kind, categories and required options from its public detail", () => {
    expect(fromPublicDetail("p-4", detail(4, "a"))).toEqual({
      uuid: "pt-4-a",
      productUuid: "p-4",
      available: true,
      timeslots: ["09:00", "11:00", "14:00"],
      instantConfirmation: true,
      daysInAdvance: 2,
      minPax: 1,
      maxPax: 8,
      categories: ["adults", "children"],
      requiredOptions: [{ uuid: "o1", type: "select", values: ["v1", "v2"] }],
    });
  });

  it("should start at its share of the catalogue and stop as soon as the hot set is complete", () => {
    const { found, requests } = drive(HOT_SET_WALK, { products: 250 });
    const hot = pickHotSet(found);
    expect(hot).toHaveLength(2 * HOT_SET_PER_KIND);
    // 45% of 250 products: the walk starts at product 112, on the second page of the products list.
    expect(found[0]?.productUuid).toBe("p-112");
    expect(requests.filter((r) => r.endpoint === "products").map((r) => r.query)).toEqual([
      { page: 1, per_page: WALK_PAGE_SIZE },
      { page: 2, per_page: WALK_PAGE_SIZE },
    ]);
    // It stopped at the last type it needed.
    expect(hot).toContain(found.at(-1));
  });

  it("should make as many requests whatever the catalogue's size", () => {
    // Both start on a product of the same kind (45% of each is a multiple of 4), so they meet the same kinds.
    const small = drive(HOT_SET_WALK, { products: 400 }).requests.length;
    const huge = drive(HOT_SET_WALK, { products: 100_000 }).requests.length;
    expect(huge).toBe(small);
    expect(huge).toBeLessThan(2 + MAX_WALK_PRODUCTS * 3);
  });

  it("should give up after MAX_WALK_PRODUCTS products when the catalogue never satisfies it", () => {
    const never: WalkPlan = { start: 0, direction: "forward", enough: () => false };
    const { requests } = drive(never, { products: 10_000 });
    expect(requests.filter((r) => r.endpoint === "productTypes")).toHaveLength(MAX_WALK_PRODUCTS);
  });

  it("should walk back from the end for the webhook types, around to the start of a small catalogue", () => {
    expect(walkOrder(5, { start: 1, direction: "backward", maxProducts: 40 })).toEqual([4, 3, 2, 1, 0]);
    expect(walkOrder(5, { start: 0.7, direction: "forward", maxProducts: 40 })).toEqual([3, 4, 0, 1, 2]);
    const { found } = drive(WEBHOOKS_WALK, { products: 60 });
    const picked = pickWebhookTypes(found);
    expect(picked?.instant.productUuid).toBe("p-59");
    expect(picked?.supplierDecided.uuid).toBe("pt-58-a");
    expect([picked?.changingProductType, picked?.changingProduct]).toEqual(["pt-57-a", "p-56"]);
  });

  it("should pass over a product withdrawn during the walk and keep going", () => {
    const { found } = drive(INVARIANTS_WALK, { products: 100, typesStatus: (p) => (p === 70 ? 404 : 200) });
    expect(found.some((t) => t.productUuid === "p-70")).toBe(false);
    expect(pickInvariantTypes(found).map((t) => t.uuid)).toEqual(["pt-71-a", "pt-71-b"]);
  });

  it("should fail with the status when the products list itself cannot be read", () => {
    expect(() => drive(HOT_SET_WALK, { products: 100, listStatus: 401 })).toThrow(CatalogueWalkError);
    expect(() => drive(HOT_SET_WALK, { products: 100, listStatus: 401 })).toThrow(/answered 401/);
  });
});

describe("candidatesFromHook", () => {
  const listed = Array.from({ length: 10 }, (_, i) => ({
    ...fromPublicDetail(`p-${i}`, detail(i, "a")),
    available: i !== 6,
  }));

  it("should give the discovery hook's types from the walk's starting point, in its direction", () => {
    expect(candidatesFromHook(listed, { start: 0.45, direction: "forward" }).map((t) => t.productUuid)).toEqual([
      "p-4",
      "p-5",
      "p-6",
      "p-7",
      "p-8",
      "p-9",
    ]);
    expect(candidatesFromHook(listed, { start: 1, direction: "backward" })[0]?.productUuid).toBe("p-9");
  });

  it("should leave withdrawn types out of every pick", () => {
    const candidates = candidatesFromHook(listed, { start: 0, direction: "forward" });
    expect(pickHotSet(candidates).some((t) => t.productUuid === "p-6")).toBe(false);
  });
});
