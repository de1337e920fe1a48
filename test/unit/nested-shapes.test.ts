/**
 * The nested values the partner document fixes (lib/k6/nested-shapes.ts, rule 2.12-nested-shapes) and the vouchers
 * answer without pagination: each shape passes with keys of the service's own beside it, and fails where it breaks,
 * naming the item and the key; the values the document leaves open are not read.
 */
import { describe, expect, it } from "vitest";
import { collectionPaginationProblem, hasNestedShapes, nestedShapesProblem } from "../../lib/k6/nested-shapes.ts";

const slot = { timeslot: "10:00", available: true, remaining: 3 };

describe("2.12-nested-shapes", () => {
  it("should pass the reference's shapes, with keys of a service's own beside them and the open values free", () => {
    const entry = {
      timeslots: [{ ...slot, uuid: "x", label: null }],
      options: [{ anything: true }],
      prices: 12,
      voucherValidity: "free",
    };
    expect(nestedShapesProblem("priceList", [entry, { ...entry, timeslots: [] }])).toBeUndefined();
    expect(nestedShapesProblem("priceListDate", entry)).toBeUndefined();
    const detail = { titleTranslated: { zh: "Xianggang" }, descriptionTranslated: {}, photos: "any", options: 3 };
    expect(nestedShapesProblem("product", detail)).toBeUndefined();
    expect(nestedShapesProblem("productType", { timeslots: [{ uuid: "x" }], options: {}, titleTranslated: {} })).toBe(
      undefined,
    );
  });

  it.each([
    [
      "priceList",
      [{ timeslots: [slot] }, { timeslots: [{ uuid: "u", timeslot: "10:00" }] }],
      /^item 1: timeslots\[0\] available is null, remaining is null/,
    ],
    ["priceListDate", { timeslots: [{ ...slot, remaining: "3" }] }, /^timeslots\[0\] remaining is "3"/],
    ["priceListDate", { timeslots: [{ ...slot, remaining: 2.5 }] }, /remaining is 2\.5/],
    ["priceListDate", { timeslots: "10:00" }, /^timeslots is "10:00", not an array/],
    ["priceListDate", { timeslots: ["10:00"] }, /^timeslots\[0\] is "10:00", not an object/],
    ["priceList", [{ timeslots: [], options: null }], /^item 0: options is null, not an array/],
    ["booking", { options: "none" }, /^options is "none", not an array/],
    [
      "products",
      [{ titleTranslated: "[zh] Hong Kong" }],
      /^item 0: titleTranslated is "\[zh\] Hong Kong", not text by language code/,
    ],
    ["product", { titleTranslated: { zh: 3 } }, /^titleTranslated\.zh is 3, not text/],
  ] as const)("should fail %s on %j", (endpoint, data, problem) => {
    expect(nestedShapesProblem(endpoint, data)).toMatch(problem);
  });

  it("should judge only the endpoints whose answers carry shapes the document fixes", () => {
    expect(hasNestedShapes("productTypes")).toBe(false);
    expect(hasNestedShapes("config")).toBe(false);
    expect(nestedShapesProblem("config", { titleTranslated: "x" })).toBeUndefined();
    expect(hasNestedShapes("priceList")).toBe(true);
  });
});

describe("the vouchers answer", () => {
  it("should pass {data, links} and fail one with meta.pagination", () => {
    expect(collectionPaginationProblem({ data: [], links: [] })).toBeUndefined();
    expect(collectionPaginationProblem({ data: [], links: [], meta: { pagination: {} } })).toMatch(
      /carries meta\.pagination/,
    );
  });
});
