/**
 * Judges of the key-set rules of spec Part 2 (2.1-2.9) and of the formats the gaps fix (dates, UUIDs): each reads
 * one answer of its endpoint and applies the same envelope and key-set tests the shared checks apply under load
 * (checks.ts), so a rule judged here and the check under load cannot disagree.
 */
import { RESPONSE_SHAPES, type EndpointName } from "../../contract/index.ts";
import type { ApiResponse } from "../client.ts";
import { envelopeProblem, keysProblem } from "../checks.ts";
import { withApprovedBooking } from "./booking-rules.ts";
import { failed, firstType, notJudged, passed, unusable, type Judge, type Verdict } from "./judge.ts";

/** An answer to judge, or why there is none to judge. */
type Fetched = { res: ApiResponse<unknown>; request: string } | { none: string };

/** Envelope and exact key set of one answer, as the shared checks test them. */
function shapeVerdict(endpoint: EndpointName, fetched: Fetched): Verdict {
  if ("none" in fetched) return notJudged(fetched.none);
  const { res, request } = fetched;
  const bad = unusable("GET", request, res);
  if (bad) return bad;
  const shape = RESPONSE_SHAPES[endpoint];
  const problem = envelopeProblem(res, shape) ?? keysProblem(res, shape);
  return problem === undefined ? passed : failed(`GET ${request}: ${problem}`);
}

const NO_TYPE = "setup found no available product type through the public catalogue";

export const SHAPE_JUDGES: Record<string, Judge> = {
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
