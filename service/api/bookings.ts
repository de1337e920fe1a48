/** Bookings and vouchers (spec 4.3): validation, the state machine (service/bookings.ts), lists and files. */
import {
  BOOKING_STATUSES,
  ERROR_CODES,
  type BookingStatus,
  type Customer,
  type Pagination,
} from "../../lib/contract/index.ts";
import { BOOKING_REQUEST_LIMITS } from "../../lib/contract/reference-values.ts";
import { bookingTotal, quantity, type Booking } from "../bookings.ts";
import { parseDay } from "../../lib/reference/dates.ts";
import type { ProductType } from "../../lib/reference/catalogue.ts";
import { CATEGORY_NAMES } from "../../lib/reference/inventory.ts";
import { HttpError, badRequest, invalidData, link, notFound, parseJsonObject, type Reply } from "../http.ts";
import { formatDay, iso } from "../render.ts";
import { findProductType } from "./catalogue.ts";
import { param, type ApiContext } from "./context.ts";
import { defaultPerPage, listEnvelope, optionalDay, parsePage, queryValue } from "./params.ts";
import { dayOpen } from "./prices.ts";

function bookingLinks(b: Booking) {
  const base = `/v2/bookings/${b.uuid}`;
  return [
    link("self", base),
    link("confirm", `${base}/confirm`, "PUT"),
    link("cancel", `${base}/cancel`, "PUT"),
    link("vouchers", `${base}/vouchers`),
  ];
}

export function bookingDetail(b: Booking): Record<string, unknown> {
  return {
    uuid: b.uuid,
    code: b.code,
    status: b.status,
    cancellationRequestStatus: b.cancellationRequestStatus,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
    expiresAt: b.status === "reserved" ? iso(b.expiresAt) : null,
    productUuid: b.pt.product.uuid,
    productTypeUuid: b.pt.uuid,
    date: formatDay(b.day),
    timeslot: b.pt.timeslots.length > 0 ? (b.pt.timeslots[b.ts] ?? null) : null,
    adults: b.adults,
    children: b.children,
    seniors: b.seniors,
    infants: b.infants,
    customer: b.customer,
    options: b.options,
    partner_reference: b.partnerReference,
    totalAmount: bookingTotal(b.pt, b.adults, b.children, b.seniors, b.optionsPrice),
    currency: b.pt.product.city.currency,
    links: bookingLinks(b),
  };
}

function listItem(b: Booking): Record<string, unknown> {
  return { uuid: b.uuid, code: b.code, status: b.status, createdAt: iso(b.createdAt), updatedAt: iso(b.updatedAt) };
}

function int(body: Record<string, unknown>, name: string, min: number, required: boolean): number {
  const value = body[name];
  if (value === undefined || value === null) {
    if (required) throw badRequest(`${name} is required (an integer of at least ${min}).`);
    return 0;
  }
  const max = BOOKING_REQUEST_LIMITS.quantityMax;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}.`);
  }
  return value;
}

function str(
  body: Record<string, unknown>,
  name: string,
  required: boolean,
  max: number = BOOKING_REQUEST_LIMITS.textMaxLength,
): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) {
    if (required) throw badRequest(`${name} is required (a string).`);
    return undefined;
  }
  if (typeof value !== "string" || (required && value.trim() === "") || value.length > max) {
    throw badRequest(`${name} must be a ${required ? "non-empty " : ""}string of at most ${max} characters.`);
  }
  return value;
}

function parseCustomer(value: unknown): Customer {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest("customer is required: an object with firstName, lastName, salutation, email, phone.");
  }
  const c = value as Record<string, unknown>;
  const email = str(c, "email", true) ?? "";
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw badRequest("customer.email must be an email address.");
  return {
    firstName: str(c, "firstName", true) ?? "",
    lastName: str(c, "lastName", true) ?? "",
    salutation: str(c, "salutation", false) ?? "",
    email,
    phone: str(c, "phone", false) ?? "",
  };
}

function parseOptions(value: unknown): { uuid: string; value: string }[] {
  if (value === undefined || value === null) return [];
  if (
    !Array.isArray(value) ||
    !value.every(
      (o): o is { uuid: string; value: string } =>
        typeof o === "object" &&
        o !== null &&
        typeof (o as Record<string, unknown>).uuid === "string" &&
        typeof (o as Record<string, unknown>).value === "string",
    )
  ) {
    throw badRequest("options must be an array of {uuid, value} strings.");
  }
  return value.map((o) => ({ uuid: o.uuid, value: o.value }));
}

export function createBooking(ctx: ApiContext): Reply {
  try {
    return create(ctx);
  } catch (error) {
    throw withConformanceDefects(ctx, error);
  }
}

/** The conformance defects that answer a refused booking request with 500 instead of its 400. */
function withConformanceDefects(ctx: ApiContext, error: unknown): unknown {
  if (!(error instanceof HttpError) || error.status !== 400) return error;
  const defect =
    error.code === ERROR_CODES.malformedJson ? "conformance-malformed-json-500" : "conformance-validation-500";
  return ctx.state.defects.on(defect) ? new HttpError(500, ERROR_CODES.internal, "Internal error.") : error;
}

function create(ctx: ApiContext): Reply {
  const { state } = ctx;
  const body = parseJsonObject(ctx.body ?? Buffer.alloc(0));
  // 400: the request's shape.
  const productTypeUuid = str(body, "productTypeUuid", true) ?? "";
  const dateText = str(body, "date", true) ?? "";
  const day = parseDay(dateText);
  if (day === undefined) throw badRequest(`date must be a date in the format YYYY-MM-DD, got "${dateText}".`);
  const timeslot = str(body, "timeslot", false);
  const paxAccepted = state.defects.on("conformance-pax-accepted") && body.adults === undefined;
  const adults = int(body, paxAccepted ? "pax" : "adults", 1, true);
  const children = int(body, "children", 0, false);
  const seniors = int(body, "seniors", 0, false);
  const infants = int(body, "infants", 0, false);
  const customer = parseCustomer(body.customer);
  const options = parseOptions(body.options);
  const referenceMax = state.defects.on("conformance-partner-reference-unbounded")
    ? 1000
    : BOOKING_REQUEST_LIMITS.partnerReferenceMaxLength;
  const partnerReference =
    str(body, "partnerReference", false, referenceMax) ?? str(body, "partner_reference", false, referenceMax);
  // 404/410/422: whether it can be booked.
  const pt = state.catalogue.productTypesByUuid.get(productTypeUuid);
  if (pt === undefined) throw invalidData(`productTypeUuid ${productTypeUuid} does not name a product type.`);
  findProductType(state, productTypeUuid);
  if (adults < pt.minPax || adults > pt.maxPax) {
    if (adults > pt.maxPax && state.defects.on("conformance-over-max-pax-400")) {
      throw badRequest(`adults must be at most ${pt.maxPax} for this product type.`);
    }
    throw invalidData(`adults must be from ${pt.minPax} to ${pt.maxPax} for this product type.`);
  }
  if (children > 0 && !pt.allowChildren) throw invalidData("This product type does not sell children tickets.");
  if (children > pt.maxChildren && pt.allowChildren) throw invalidData(`children must be at most ${pt.maxChildren}.`);
  if (seniors > 0 && !pt.allowSeniors) throw invalidData("This product type does not sell senior tickets.");
  if (seniors > pt.maxSeniors && pt.allowSeniors) throw invalidData(`seniors must be at most ${pt.maxSeniors}.`);
  if (infants > 0 && !pt.allowInfant) throw invalidData("This product type does not admit infants.");
  const q = adults + children + seniors;
  if (q > pt.maxGroup) throw invalidData(`A booking takes at most ${pt.maxGroup} people for this product type.`);
  const ts = timeslotIndex(pt, timeslot);
  const optionsPrice = optionsPriceOf(ctx, pt, options);
  if (!dayOpen(state, pt, day)) throw invalidData(`${dateText} is not bookable for this product type.`);
  const slot = state.inventory.peek(pt, day, ts);
  const counts = { adults, children, seniors };
  for (const category of CATEGORY_NAMES) {
    const cap = slot?.caps?.[category];
    if (cap !== undefined && counts[category] > cap) {
      throw invalidData(`At most ${cap} ${category} can be booked at this slot.`);
    }
  }
  if (state.inventory.remaining(pt, day, ts) < q) {
    throw invalidData("Not enough availability left for this date and timeslot.");
  }
  const booking = state.bookings.reserve({
    partner: ctx.partner,
    pt,
    day,
    ts,
    adults,
    children,
    seniors,
    infants,
    customer,
    options,
    partnerReference: partnerReference ?? null,
    optionsPrice,
  });
  const detail = bookingDetail(booking);
  if (state.defects.on("conformance-created-as-approved")) detail.status = "approved";
  return { status: 201, body: { data: detail, links: bookingLinks(booking) } };
}

/** The index of the requested timeslot (0 for a product type without timeslots); 422 when it names none of them. */
function timeslotIndex(pt: ProductType, timeslot: string | undefined): number {
  if (pt.timeslots.length > 0) {
    if (timeslot === undefined) throw invalidData("timeslot is required for this timeslotted product type.");
    const ts = pt.timeslots.indexOf(timeslot);
    if (ts === -1) throw invalidData(`timeslot ${timeslot} is not one of ${pt.timeslots.join(", ")}.`);
    return ts;
  } else if (timeslot !== undefined) {
    throw invalidData("This product type has no timeslots; leave timeslot out.");
  }
  return 0;
}

/** What the chosen options add to the price; 422 for an option or value not of this product type, or one missing. */
function optionsPriceOf(ctx: ApiContext, pt: ProductType, options: readonly { uuid: string; value: string }[]): number {
  let optionsPrice = 0;
  for (const o of options) {
    const def = pt.options.find((d) => d.uuid === o.uuid);
    if (def === undefined) throw invalidData(`Option ${o.uuid} does not belong to this product type.`);
    if (def.type === "select") {
      const v = def.values.find((x) => x.uuid === o.value);
      if (v === undefined) throw invalidData(`Option ${o.uuid}: value must be the uuid of one of its values.`);
      optionsPrice += v.price;
    } else if (o.value.trim() === "") {
      throw invalidData(`Option ${o.uuid} needs a non-empty value.`);
    }
  }
  const missing = pt.options.filter((d) => d.required && !options.some((o) => o.uuid === d.uuid));
  if (missing.length > 0 && !ctx.state.defects.on("conformance-required-options-ignored"))
    throw invalidData(`Required options are missing: ${missing.map((m) => m.uuid).join(", ")}.`);
  return optionsPrice;
}

function own(ctx: ApiContext, uuid: string): Booking {
  const b = ctx.state.bookings.store.byUuid.get(uuid);
  const shared = ctx.state.defects.on("conformance-bookings-shared-across-keys");
  if (b === undefined || (b.partner.apiKey !== ctx.partner.apiKey && !shared))
    throw notFound(`Booking ${uuid} was not found.`);
  return b;
}

export function getBooking(ctx: ApiContext): Reply {
  const b = own(ctx, param(ctx, "uuid"));
  const detail = bookingDetail(b);
  if (ctx.state.defects.on("conformance-customer-salutation-dropped")) {
    const { salutation: _dropped, ...customer } = b.customer;
    detail.customer = customer;
  }
  // v1's name of adults kept beside it on the read path.
  if (ctx.state.defects.on("conformance-booking-detail-has-guests")) detail.guests = b.adults;
  return { status: 200, body: { data: detail, links: bookingLinks(b) } };
}

export function listBookings(ctx: ApiContext): Reply {
  const { query } = ctx;
  const page = parsePage(query, defaultPerPage(ctx.state));
  const start = optionalDay(query, "date_start");
  const end = optionalDay(query, "date_end");
  // Names and email match without case and surrounding spaces (the document says so); the rest exactly.
  const lower = (name: string) => queryValue(query, name)?.trim().toLowerCase();
  const firstName = lower("first_name");
  const lastName = lower("last_name");
  const email = lower("email");
  const phone = queryValue(query, "phone")?.trim();
  const reference = queryValue(query, "partner_reference");
  const status = queryValue(query, "status");
  if (status !== undefined && !(BOOKING_STATUSES as readonly string[]).includes(status)) {
    throw badRequest(`status must be one of ${BOOKING_STATUSES.join(", ")}.`);
  }
  const stored = ctx.state.bookings.store.byPartner.get(ctx.partner.apiKey) ?? [];
  const all = ctx.state.defects.on("booking-list-drops-newest") ? stored.slice(0, -1) : stored;
  const list = all.filter(
    (b) =>
      (start === undefined || b.day >= start) &&
      (end === undefined || b.day <= end) &&
      (firstName === undefined || b.customer.firstName.toLowerCase() === firstName) &&
      (lastName === undefined || b.customer.lastName.toLowerCase() === lastName) &&
      (email === undefined || b.customer.email.toLowerCase() === email) &&
      (phone === undefined || b.customer.phone === phone) &&
      (reference === undefined || b.partnerReference === reference) &&
      (status === undefined ||
        ctx.state.defects.on("conformance-bookings-status-filter-ignored") ||
        b.status === (status as BookingStatus)),
  );
  // Oldest first; newest first under lists-reverse-order (the order is the service's own).
  if (ctx.state.variations.on("lists-reverse-order")) list.reverse();
  const body = listEnvelope(ctx.path, query, list.length, page, (s, e) =>
    list.slice(s, e).map((b) => {
      const item = listItem(b);
      if (ctx.state.defects.on("conformance-list-status-upper-case")) item.status = b.status.toUpperCase();
      if (ctx.state.defects.on("conformance-booking-list-has-partner-reference"))
        item.partner_reference = b.partnerReference;
      return item;
    }),
  );
  if (ctx.state.defects.on("conformance-pagination-total-wrong")) {
    body.meta.pagination.total = body.data.length;
    body.meta.pagination.total_pages = 1;
  }
  return { status: 200, body };
}

export async function confirmBooking(ctx: ApiContext): Promise<Reply> {
  const b = await ctx.state.bookings.confirm(own(ctx, param(ctx, "uuid")));
  return { status: 200, body: { data: bookingDetail(b), links: bookingLinks(b) } };
}

export function cancelBooking(ctx: ApiContext): Reply {
  const b = ctx.state.bookings.cancel(own(ctx, param(ctx, "uuid")));
  return { status: 200, body: { data: bookingDetail(b), links: bookingLinks(b) } };
}

export function listVouchers(ctx: ApiContext): Reply {
  const uuid = param(ctx, "bookingUuid");
  if (ctx.state.defects.on("conformance-unknown-booking-vouchers-empty") && !ctx.state.bookings.store.byUuid.has(uuid))
    return { status: 200, body: { data: [], links: [link("self", ctx.path)] } };
  const b = own(ctx, uuid);
  // conformance-voucher-has-booking-uuid: each file with its booking's uuid, a key of the data model.
  const withBookingUuid = ctx.state.defects.on("conformance-voucher-has-booking-uuid");
  return {
    status: 200,
    body: {
      data: (ctx.state.variations.on("lists-reverse-order") ? [...b.vouchers].reverse() : b.vouchers).map((v) => ({
        uuid: v.uuid,
        ...(withBookingUuid ? { bookingUuid: b.uuid } : {}),
        generatedAt: iso(v.generatedAt),
        downloadedAt: v.downloadedAt === null ? null : iso(v.downloadedAt),
        links: [link("file", `/v2/bookings/${b.uuid}/vouchers/${v.uuid}/file`)],
      })),
      links: [link("self", ctx.path), link("booking", `/v2/bookings/${b.uuid}`)],
      // conformance-vouchers-paginated: the list envelope's pagination, which the vouchers answer does not have.
      ...(ctx.state.defects.on("conformance-vouchers-paginated") ? { meta: { pagination: voucherPages(b) } } : {}),
    },
  };
}

function voucherPages(b: Booking): Pagination {
  const n = b.vouchers.length;
  return { total: n, count: n, per_page: Math.max(1, n), current_page: 1, total_pages: 1 };
}

export function voucherFile(ctx: ApiContext): Reply {
  const b = own(ctx, param(ctx, "bookingUuid"));
  const v = b.vouchers.find((x) => x.uuid === param(ctx, "voucherUuid"));
  if (v === undefined) throw notFound("Voucher not found.");
  v.downloadedAt ??= ctx.state.now();
  const pdf = Buffer.from(
    `%PDF-1.4\n% ATD voucher ${v.uuid} for booking ${b.code}, ${quantity(b)} people, ${formatDay(b.day)}\n%%EOF\n`,
  );
  return {
    status: 200,
    body: pdf,
    contentType: "application/pdf",
    headers: {
      "Content-Disposition": `attachment; filename="voucher-${b.code}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  };
}
