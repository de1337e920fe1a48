/**
 * Judges of the key-set rules of spec Part 2 (2.1-2.9) and of the formats the gaps fix (dates, UUIDs): each reads
 * one answer of its endpoint and applies the same envelope and key-set tests the shared checks apply under load
 * (checks.ts), so a rule judged here and the check under load cannot disagree.
 */
import { RESPONSE_SHAPES, addDays, type EndpointName } from "../../contract/index.ts";
import type { ApiResponse } from "../client.ts";
import { envelopeProblem, keysProblem } from "../checks.ts";
import { collectionPaginationProblem, nestedShapesProblem } from "../nested-shapes.ts";
import { withApprovedBooking } from "./booking-rules.ts";
import {
  failed,
  firstType,
  notJudged,
  passed,
  unusable,
  type ConformanceContext,
  type Judge,
  type Verdict,
} from "./judge.ts";

/** An answer to judge, or why there is none to judge. */
type Fetched = { res: ApiResponse<unknown>; request: string } | { none: string };

/** Envelope and exact key set of one answer, as the shared checks test them. */
function shapeVerdict(endpoint: EndpointName, fetched: Fetched): Verdict {
  if ("none" in fetched) return notJudged(fetched.none);
  const { res, request } = fetched;
  const bad = unusable("GET", request, res);
  if (bad) return bad;
  const shape = RESPONSE_SHAPES[endpoint];
  const problem =
    envelopeProblem(res, shape) ??
    (shape.envelope === "collection" ? collectionPaginationProblem(res.body) : undefined) ??
    keysProblem(res, shape);
  return problem === undefined ? passed : failed(`GET ${request}: ${problem}`);
}

/** 2.12-nested-shapes on one answer of `endpoint`, or the verdict that it could not be read. */
function nestedVerdict(endpoint: EndpointName, request: string, res: ApiResponse<unknown>): Verdict {
  const bad = unusable("GET", request, res);
  if (bad) return bad;
  const problem = nestedShapesProblem(endpoint, res.data);
  return problem === undefined ? passed : failed(`GET ${request}: ${problem}`);
}

/**
 * 2.12-nested-shapes: the catalogue's answers that carry the nested values the partner document fixes (a week of the
 * calendar, the single date, a products page, a product's and a product type's details), then a booking's detail;
 * not judged for the booking alone when none can be approved and the others keep the rule.
 */
function nestedShapes(ctx: ConformanceContext): Verdict {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const end = addDays(ctx.probeDate, 6);
  const asks: [EndpointName, string, () => ApiResponse<unknown>][] = [
    [
      "priceList",
      `/v2/product-types/${type.uuid}/price-lists?date_start=${ctx.probeDate}&date_end=${end}`,
      () => ctx.client.getPriceList(type.uuid, ctx.probeDate, end),
    ],
    [
      "priceListDate",
      `/v2/product-types/${type.uuid}/price-lists/${ctx.probeDate}`,
      () => ctx.client.getPriceForDate(type.uuid, ctx.probeDate),
    ],
    ["products", "/v2/products?per_page=5", () => ctx.client.listProducts({ per_page: 5 })],
    ["product", `/v2/products/${type.productUuid}`, () => ctx.client.getProduct(type.productUuid)],
    ["productType", `/v2/product-types/${type.uuid}`, () => ctx.client.getProductType(type.uuid)],
  ];
  for (const [endpoint, request, send] of asks) {
    const verdict = nestedVerdict(endpoint, request, send());
    if (verdict !== passed) return verdict;
  }
  const booking = withApprovedBooking(ctx, "a booking detail", (uuid) =>
    nestedVerdict("booking", `/v2/bookings/${uuid}`, ctx.client.getBooking(uuid)),
  );
  return "notJudged" in booking
    ? notJudged(`the catalogue's answers keep the rule, but no booking could be read: ${booking.notJudged}`)
    : booking;
}

const NO_TYPE = "setup found no available product type through the public catalogue";

export const SHAPE_JUDGES: Record<string, Judge> = {
  "2.12-nested-shapes": nestedShapes,
  "2.1-product-list-keys": (ctx) =>
    shapeVerdict("products", { res: ctx.client.listProducts({ per_page: 5 }), request: "/v2/products?per_page=5" }),
  "2.3-product-type-summary-keys": (ctx) => {
    const type = firstType(ctx);
    const request = `/v2/products/${type?.productUuid ?? ""}/product-types`;
    return shapeVerdict(
      "productTypes",
      type ? { res: ctx.client.listProductTypes(type.productUuid), request } : { none: NO_TYPE },
    );
  },
  "2.4-product-type-detail-keys": (ctx) => {
    const type = firstType(ctx);
    const request = `/v2/product-types/${type?.uuid ?? ""}`;
    return shapeVerdict(
      "productType",
      type ? { res: ctx.client.getProductType(type.uuid), request } : { none: NO_TYPE },
    );
  },
  "2.5-price-list-entry-keys": (ctx) => {
    const type = firstType(ctx);
    const request = `/v2/product-types/${type?.uuid ?? ""}/price-lists?date_start=${ctx.probeDate}&date_end=${ctx.probeDate}`;
    return shapeVerdict(
      "priceList",
      type ? { res: ctx.client.getPriceList(type.uuid, ctx.probeDate, ctx.probeDate), request } : { none: NO_TYPE },
    );
  },
  "2.6-single-date-keys": (ctx) => {
    const type = firstType(ctx);
    const request = `/v2/product-types/${type?.uuid ?? ""}/price-lists/${ctx.probeDate}`;
    return shapeVerdict(
      "priceListDate",
      type ? { res: ctx.client.getPriceForDate(type.uuid, ctx.probeDate), request } : { none: NO_TYPE },
    );
  },
  // The booking rules read a booking of the run's own, made for them and cancelled afterwards.
  "2.7-booking-list-keys": (ctx) =>
    withApprovedBooking(ctx, "a booking list", (uuid) => {
      const reference = ctx.client.getBooking(uuid).data?.partner_reference;
      const query = { per_page: 5, ...(typeof reference === "string" ? { partner_reference: reference } : {}) };
      const request = `/v2/bookings?${Object.entries(query)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join("&")}`;
      return shapeVerdict("bookings", { res: ctx.client.listBookings(query), request });
    }),
  "2.8-booking-detail-keys": (ctx) =>
    withApprovedBooking(ctx, "a booking detail", (uuid) =>
      shapeVerdict("booking", { res: ctx.client.getBooking(uuid), request: `/v2/bookings/${uuid}` }),
    ),
  "2.9-voucher-keys": (ctx) =>
    withApprovedBooking(ctx, "a voucher list", (uuid) =>
      shapeVerdict("vouchers", { res: ctx.client.listVouchers(uuid), request: `/v2/bookings/${uuid}/vouchers` }),
    ),
};
