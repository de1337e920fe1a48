/**
 * The two published OpenAPI 3.1 documents, built from lib/contract so that they cannot drift from it:
 * - the partner API (docs/partner-api.openapi.yaml): ENDPOINTS, the key sets of spec Part 2 (key-sets.ts),
 *   the envelopes, error codes and parameters of docs/contract-gaps.md, the rate-limit headers of spec Part 8;
 * - the test hooks (docs/test-hooks.openapi.yaml): TEST_HOOKS with the level of each hook in `x-atd-level`.
 * scripts/openapi.ts writes them as YAML; the reference service serves them as JSON. Not exported from index.ts:
 * the k6 bundles have no use for them. Runtime-neutral: plain objects only.
 */
import { ENDPOINTS, ENDPOINT_NAMES, HEADERS, type EndpointName } from "./endpoints.ts";
import { ERROR_CODES } from "./errors.ts";
import {
  BOOKING_DETAIL_FORBIDDEN_KEYS,
  BOOKING_DETAIL_REQUIRED_KEYS,
  BOOKING_LIST_ITEM_KEYS,
  PRICE_LIST_ENTRY_KEYS,
  PRODUCT_DETAIL_FORBIDDEN_KEYS,
  PRODUCT_DETAIL_KEYS,
  PRODUCT_LIST_ITEM_KEYS,
  PRODUCT_TYPE_DETAIL_FORBIDDEN_KEYS,
  PRODUCT_TYPE_DETAIL_KEYS,
  PRODUCT_TYPE_SUMMARY_KEYS,
  SINGLE_DATE_PRICE_KEYS,
  VOUCHER_FILE_KEYS,
} from "./key-sets.ts";
import { PAGINATION, PRICE_CALENDAR_MAX_MONTHS, RATE_LIMIT } from "./limits.ts";
import { BOOKING_REQUEST_LIMITS, LANGUAGES, PRODUCT_SORTS } from "./reference-values.ts";
import { UUID_PATTERN, s, wire, type JsonSchema } from "./schema.ts";
import { TEST_HOOKS, TEST_HOOK_NAMES, TEST_HOOK_SCHEMAS, type TestHookName } from "./test-hooks.ts";
import { BOOKING_STATUSES } from "./types.ts";

export const OPENAPI_VERSION = "3.1.0";
/** The extension field that carries a hook's level (and marks reference-only fields and parameters). */
export const LEVEL_EXTENSION = "x-atd-level";
/** Where the reference service serves each document: the partner API's on the API listener (with a key). */
export const PARTNER_API_DOCUMENT_PATH = "/openapi.json";
export const TEST_HOOKS_DOCUMENT_PATH = TEST_HOOKS.openApi.path;

export type OpenApiDocument = Record<string, unknown>;
type Json = Record<string, unknown>;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const schemaRef = (name: string) => ref("schemas", name);
const reference = { [LEVEL_EXTENSION]: "reference" } as const;

/**
 * Replaces every object that is one of the named schemas (by identity: the builders share their objects) with a
 * $ref, except each component's own root, so the YAML names what it reuses instead of repeating it.
 */
function withRefs(value: unknown, names: ReadonlyMap<object, string>, root?: object): unknown {
  if (typeof value !== "object" || value === null) return value;
  const name = names.get(value);
  if (name !== undefined && value !== root) return schemaRef(name);
  if (Array.isArray(value)) return value.map((v) => withRefs(v, names));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withRefs(v, names)]));
}

function components(named: Readonly<Record<string, JsonSchema>>): { schemas: Json; names: Map<object, string> } {
  const names = new Map<object, string>(Object.entries(named).map(([name, json]) => [json, name]));
  const schemas = Object.fromEntries(Object.entries(named).map(([name, json]) => [name, withRefs(json, names, json)]));
  return { schemas, names };
}

/** Path parameters of a template, in order. */
export function pathParameters(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "");
}

// ---------------------------------------------------------------------------------------------------------------
// The partner API
// ---------------------------------------------------------------------------------------------------------------

const NOT_SHOWN = "Type not shown by the spec (2.12).";

/**
 * In an open key set, a key the contract does not name but that ends in `Uuid` holds a UUID, or null when there is
 * nothing to identify (lib/contract/freedoms/wire-format.ts, wire-format-nullable-identifiers).
 */
const NULLABLE_IDENTIFIERS = {
  Uuid$: s.nullable(wire.uuid(), { description: "A UUID, or null when there is nothing to identify." }).json,
};

interface KeySetOptions {
  exact: boolean;
  required?: readonly string[];
  forbidden?: readonly string[];
  description: string;
}

/** A resource of spec Part 2: its keys, typed where the contract fixes the type, `required`, closed when exact. */
function keySet(keys: readonly string[], typed: Readonly<Record<string, JsonSchema>>, o: KeySetOptions): JsonSchema {
  const properties: Record<string, unknown> = {};
  for (const key of keys) {
    properties[key] = typed[key] ?? (key.endsWith("Translated") ? typed["*Translated"] : undefined) ?? {};
    if (Object.keys(properties[key] as object).length === 0) properties[key] = { description: NOT_SHOWN };
  }
  // `false`: the spec says the resource must not carry the key.
  for (const key of o.forbidden ?? []) properties[key] = false;
  return {
    type: "object",
    description: o.description,
    required: [...(o.required ?? keys)],
    properties,
    ...(o.exact ? { additionalProperties: false } : {}),
  };
}

const ENDPOINT_DOCS: Readonly<Record<EndpointName, { summary: string; tag: string }>> = {
  products: { summary: "List products (spec 4.1, items 2.1).", tag: "products" },
  product: { summary: "Product detail (spec 4.1, 2.2).", tag: "products" },
  productRestrictions: {
    summary: "The origin restrictions of a product for the authenticated partner (spec 4.1).",
    tag: "products",
  },
  productTypes: { summary: "Product type summaries of a product (spec 4.1, 2.3).", tag: "products" },
  productType: { summary: "Product type detail (spec 4.2, 2.4).", tag: "product types" },
  priceList: {
    summary:
      "Price calendar over at most six months (spec 4.2, 2.5); every date at once unless page or per_page is given.",
    tag: "product types",
  },
  priceListDate: {
    summary: "Single-date price and availability, computed in real time (spec 4.2, 2.6).",
    tag: "product types",
  },
  bookingCreate: { summary: "Create a booking; it starts reserved (spec 4.3, Part 3).", tag: "bookings" },
  bookings: { summary: "List the partner's bookings (spec 4.3, items 2.7).", tag: "bookings" },
  booking: { summary: "Booking detail with its current status (spec 4.3, 2.8).", tag: "bookings" },
  bookingConfirm: {
    summary: "Confirm a reserved booking; 422 with optional alternatives when no longer bookable (spec 7.2).",
    tag: "bookings",
  },
  bookingCancel: { summary: "Request the cancellation of a booking (spec Part 3).", tag: "bookings" },
  vouchers: { summary: "The voucher files of a booking (spec 4.3, 2.9).", tag: "bookings" },
  voucherFile: { summary: "Download one voucher file (authorization required, spec 1.4).", tag: "bookings" },
  config: { summary: "Languages, currencies, locations and the image base address (spec 4.4).", tag: "config" },
};

const PATH_PARAMETER_DOCS: Readonly<Record<string, string>> = {
  uuid: "The uuid of the addressed resource.",
  bookingUuid: "The uuid of the booking.",
  voucherUuid: "The uuid of the voucher file.",
  date: "The date, YYYY-MM-DD.",
  productTypeUuid: "The uuid of the product type.",
  apiKey: "The partner's API key.",
};

function pathParameter(name: string): Json {
  // The identifier a path names is the one the service wrote, so what the service may write is no input's concern.
  const uuid = s.string({ format: "uuid", pattern: UUID_PATTERN }).json;
  const schema = name === "date" ? wire.date().json : name === "apiKey" ? s.string().json : uuid;
  return { name, in: "path", required: true, description: PATH_PARAMETER_DOCS[name] ?? name, schema };
}

function query(name: string, schema: JsonSchema, description: string, extra: Json = {}): Json {
  return { name, in: "query", required: false, description, schema, ...extra };
}

function partnerParameters(): Json {
  const fields = (keys: readonly string[]) =>
    query(
      "fields",
      { type: "array", minItems: 1, items: { type: "string", enum: [...keys] } },
      "Which keys to return, comma-separated, at least one; `uuid` and `links` always stay. An unknown or empty " +
        "name (`fields=`, `fields=a,,b`) is 400. With it the answer carries only those keys: the 200 answer's " +
        "`data` is then the `...Fields` schema, without it the whole detail.",
      { style: "form", explode: false },
    );
  return {
    page: query(
      "page",
      { type: "integer", minimum: 1, maximum: PAGINATION.maxPage, default: 1 },
      `Page number, from 1 to ${PAGINATION.maxPage} (docs/contract-gaps.md, Lists and pagination); a page past ` +
        "the last answers an empty `data`.",
    ),
    per_page: query(
      "per_page",
      { type: "integer", minimum: 1, maximum: PAGINATION.maxPerPage },
      `Items per page, from 1 to ${PAGINATION.maxPerPage}. Without it the page size is the service's own, said by ` +
        `meta.pagination.per_page (the reference service: ${PAGINATION.defaultPerPage}, and the price calendar's ` +
        "whole range at once) (docs/contract-gaps.md, Lists and pagination).",
    ),
    language: query(
      "language",
      { type: "string", enum: [...LANGUAGES], ...reference },
      "Language of the returned content, default en: a code GET /v2/config lists, as written there. The enum is the " +
        "reference service's languages; another service lists its own.",
    ),
    productFields: fields(PRODUCT_DETAIL_KEYS),
    productTypeFields: fields(PRODUCT_TYPE_DETAIL_KEYS),
    calendarStart: {
      ...query("date_start", wire.date().json, "First day of the calendar, YYYY-MM-DD."),
      required: true,
    },
    calendarEnd: {
      ...query(
        "date_end",
        wire.date().json,
        `Last day of the calendar, YYYY-MM-DD: not before date_start and at most ${PRICE_CALENDAR_MAX_MONTHS} months ` +
          "after it (spec Part 8), else 400; a bound between two parameters, which a schema cannot state.",
      ),
      required: true,
    },
  };
}

const P = (name: string) => ref("parameters", name);
/** A free query value: `?name=` is refused like any value the schema does not allow (docs/contract-gaps.md). */
const NON_EMPTY: JsonSchema = { type: "string", minLength: 1 };

function parametersOf(name: EndpointName): unknown[] {
  const path = pathParameters(ENDPOINTS[name].path).map(pathParameter);
  const list = [P("page"), P("per_page")];
  const referenceFilter = (n: string, description: string, schema: JsonSchema = NON_EMPTY) =>
    query(n, schema, `${description} Not in the spec: the reference service's choice.`, reference);
  const selects = "A value no product has selects none: an empty list, not an error.";
  switch (name) {
    case "products":
      return [
        ...list,
        P("language"),
        referenceFilter("type", `Only products of this product-type uuid (typeUuid). ${selects}`),
        referenceFilter("category", `Only products of this category (slug or uuid). ${selects}`),
        referenceFilter("country", `Only products in this country (ISO 3166 code, either case). ${selects}`),
        referenceFilter("city", `Only products in this city (slug). ${selects}`),
        referenceFilter("sort", "The order; a leading - sorts descending.", {
          type: "string",
          enum: [...PRODUCT_SORTS],
        }),
      ];
    case "product":
      return [...path, P("productFields"), P("language")];
    case "productType":
      return [...path, P("productTypeFields"), P("language")];
    case "productTypes":
      return [...path, ...list];
    case "priceList":
      return [...path, P("calendarStart"), P("calendarEnd"), ...list];
    case "bookings":
      return [
        ...list,
        query("date_start", wire.date().json, "Only bookings for dates from this day."),
        query("date_end", wire.date().json, "Only bookings for dates up to this day."),
        ...["first_name", "last_name", "email"].map((n) =>
          query(
            n,
            NON_EMPTY,
            `Only bookings whose customer has this ${n.replace("_", " ")}, in any case, surrounding spaces ignored.`,
          ),
        ),
        query("phone", NON_EMPTY, "Only bookings whose customer has this phone, surrounding spaces ignored."),
        query("partner_reference", NON_EMPTY, "Only bookings with this partner reference (spec 2.8)."),
        query("status", { type: "string", enum: [...BOOKING_STATUSES] }, "Only bookings in this status."),
      ];
    default:
      return path;
  }
}

/** The error answers each endpoint can give besides 401, 405 and 500, which every one can. */
function errorStatusesOf(name: EndpointName): string[] {
  const out: string[] = [];
  const spec = ENDPOINTS[name];
  const hasQuery = ["products", "product", "productTypes", "productType", "priceList", "bookings"].includes(name);
  if (hasQuery || name === "priceListDate" || name === "bookingCreate") out.push("400");
  if (pathParameters(spec.path).length > 0) out.push("404");
  if (name === "bookingConfirm" || name === "bookingCancel") out.push("409");
  // A withdrawn product type is gone; a withdrawn product is gone or not found, as the service chooses.
  const withdrawn = ["product", "productTypes", "productRestrictions", "productType", "priceList", "priceListDate"];
  if ([...withdrawn, "bookingCreate"].includes(name)) out.push("410");
  if (name === "bookingCreate") out.push("422InvalidData");
  if (name === "bookingConfirm") out.push("422PricesMismatch");
  if (spec.rateLimited) out.push("429");
  return out;
}

const ERROR_RESPONSES: Readonly<Record<string, { status: string; codes: readonly string[]; description: string }>> = {
  "400": {
    status: "400",
    codes: [ERROR_CODES.invalidParams, ERROR_CODES.malformedJson],
    description: "A parameter or the body is malformed.",
  },
  "401": {
    status: "401",
    codes: [ERROR_CODES.unauthorized],
    description: "The key is missing or unknown.",
  },
  "404": { status: "404", codes: [ERROR_CODES.notFound], description: "No such resource (for this partner)." },
  "405": {
    status: "405",
    codes: [ERROR_CODES.methodNotAllowed],
    description:
      "Answered to a method the path does not offer, with an Allow header (listed on each operation: OpenAPI has no " +
      "per-path responses).",
  },
  "409": {
    status: "409",
    codes: [ERROR_CODES.invalidAction],
    description: "The transition is not allowed from the booking's current status; the status is unchanged.",
  },
  "410": {
    status: "410",
    codes: [ERROR_CODES.gone],
    description:
      "No longer available: a product type withdrawn; a withdrawn product (and its product types) answers 410 or " +
      "404, as the service chooses (docs/contract-gaps.md, Lists and pagination).",
  },
  "422InvalidData": {
    status: "422",
    codes: [ERROR_CODES.invalidData],
    description: "The booking request is not bookable (limits, age groups, lead time, options, seats).",
  },
  "422PricesMismatch": {
    status: "422",
    codes: [ERROR_CODES.pricesMismatch],
    description:
      "The confirmation failed: the date or timeslot is no longer bookable (spec 7.2). `error.alternatives` is there " +
      "only for keys with the feature and when a suggestion can be computed.",
  },
  "429": {
    status: "429",
    codes: [ERROR_CODES.tooManyRequests],
    description: "The shared allowance is used up (spec 7.1); refused requests do not consume allowance.",
  },
  "500": { status: "500", codes: [ERROR_CODES.internal], description: "Internal error." },
};

const RESPONSE_NAMES: Readonly<Record<string, string>> = {
  "400": "BadRequest",
  "401": "Unauthorized",
  "404": "NotFound",
  "405": "MethodNotAllowed",
  "409": "InvalidAction",
  "410": "Gone",
  "422InvalidData": "InvalidData",
  "422PricesMismatch": "PricesMismatch",
  "429": "TooManyRequests",
  "500": "InternalError",
};

/** The small schemas the others are built of, created once so that withRefs can name them (by identity). */
function buildingBlocks() {
  const Link = s.object(
    { rel: s.string(), href: s.string(), method: s.string() },
    {},
    { description: "Every link is {rel, href, method} (docs/contract-gaps.md, Links)." },
  );
  const Links = s.array(Link);
  const SelfLinks = s.array(Link, {
    contains: { type: "object", required: ["rel"], properties: { rel: { const: "self" } } },
    description: "The answer's links; `self` is always present (docs/contract-gaps.md, Links).",
  });
  const Translated = s.record(s.string(), { description: "Text by language code." });
  const Pagination = s.object(
    {
      total: s.integer({ minimum: 0 }),
      count: s.integer({ minimum: 0 }),
      per_page: s.integer({ minimum: 1 }),
      current_page: s.integer({ minimum: 1 }),
      total_pages: s.integer({ minimum: 1 }),
    },
    {},
  );
  const TimeslotAvailability = s.object(
    { timeslot: wire.timeslot(), available: s.boolean(), remaining: s.integer() },
    {},
  );
  const status = s.enumOf(BOOKING_STATUSES, {
    description: "The booking states of docs/contract-gaps.md (Booking states).",
  });
  return { Link, Links, SelfLinks, Translated, Pagination, TimeslotAvailability, status, ...alternativesSchemas() };
}

type Blocks = ReturnType<typeof buildingBlocks>;

/** Spec 2.11 and 7.2: the alternatives a 422 prices_mismatch may carry. */
function alternativesSchemas() {
  const AlternativeTimeslot = s.object(
    { timeslot: wire.timeslot(), qty: s.integer({ minimum: 0 }) },
    {},
    {
      closed: true,
    },
  );
  const NearbyDate = s.object(
    { date: wire.date(), qty: s.integer({ minimum: 0 }) },
    { timeslots: s.array(AlternativeTimeslot, { description: "Timeslotted products only." }) },
    { closed: true },
  );
  const Alternatives = s.object(
    {
      requested: s.object(
        { date: wire.date() },
        { timeslot: wire.timeslot({ description: "Timeslotted products only." }) },
        { closed: true },
      ),
      same_date_timeslots: s.array(AlternativeTimeslot),
      nearby_dates: s.array(NearbyDate),
    },
    {},
    { closed: true, description: "Spec 2.11 and 7.2." },
  );
  return { AlternativeTimeslot, NearbyDate, Alternatives };
}

/** Spec 2.10 and 4.3: the booking request and its customer and options. */
function bookingRequestSchemas() {
  const { textMaxLength, quantityMax, partnerReferenceMaxLength } = BOOKING_REQUEST_LIMITS;
  // Text that must say something: not empty, not only spaces.
  const text = (keywords: Json = {}) => s.string({ pattern: "\\S", maxLength: textMaxLength, ...keywords });
  const quantity = (minimum: number, keywords: Json = {}) => s.integer({ minimum, maximum: quantityMax, ...keywords });
  const orNull = "null is taken as leaving the key out.";
  const Customer = s.object(
    {
      firstName: text(),
      lastName: text(),
      email: text({ pattern: "^[^@\\s]+@[^@\\s]+$", description: "An email address." }),
    },
    {
      salutation: s.nullable(s.string({ maxLength: textMaxLength }), { description: orNull }),
      phone: s.nullable(s.string({ maxLength: textMaxLength }), { description: orNull }),
    },
    {
      description:
        "Spec 2.10: the contact data of the person booking; the booking's detail echoes all five keys " +
        "(docs/contract-gaps.md, Booking request). Other keys are ignored.",
    },
  );
  const SelectedOption = s.object({ uuid: s.string(), value: s.string() }, {});
  const BookingRequest = s.object(
    {
      productTypeUuid: wire.uuid(),
      date: wire.date(),
      adults: quantity(1, { description: "The quantity key (v1 called it pax)." }),
      customer: Customer,
    },
    {
      timeslot: s.nullable(wire.timeslot(), { description: `Required for timeslotted product types; ${orNull}` }),
      children: s.nullable(quantity(0), { description: orNull }),
      seniors: s.nullable(quantity(0), { description: orNull }),
      options: s.nullable(s.array(SelectedOption), {
        description: `Booking options; a select option takes a value's uuid. ${orNull}`,
      }),
      partnerReference: s.nullable(s.string({ maxLength: partnerReferenceMaxLength }), { description: orNull }),
      infants: s.nullable(quantity(0), { ...reference, description: orNull }),
    },
    {
      description:
        "Spec 4.3 names adults, customer and options; the rest is this project's (docs/contract-gaps.md, Booking " +
        "request). A body that is well formed but cannot be booked (an unknown product type, a date not on sale, " +
        "limits, seats) is 422 invalid_data, not 400.",
    },
  );
  return { Customer, SelectedOption, BookingRequest };
}

/** The types of the keys every resource may hold (spec Part 2), for keySet. */
function commonKeyTypes(b: Blocks) {
  return {
    uuid: wire.uuid().json,
    title: s.string().json,
    "*Translated": b.Translated.json,
    updatedAt: wire.timestamp().json,
    createdAt: wire.timestamp().json,
    validFrom: wire.date().json,
    validThrough: wire.date().json,
    basePrice: wire.decimal().json,
    currency: wire.currency().json,
    typeName: s.string().json,
    typeUuid: wire.uuid().json,
    links: b.Links.json,
  };
}

type CommonKeyTypes = ReturnType<typeof commonKeyTypes>;

/** The detail's data: the whole detail without `fields`, the keys asked for with it. */
function detailOrFields(whole: JsonSchema, sparse: JsonSchema): JsonSchema {
  return {
    anyOf: [whole, sparse],
    description:
      "Without `fields`, the whole detail (every key); with it, only uuid, links and the keys asked for. OpenAPI " +
      "cannot tie a response to a parameter, so a validator accepts either.",
  };
}

/** Spec 2.1 to 2.4: products and product types, listed, in detail, and as an answer to `fields`. */
function productSchemas(common: CommonKeyTypes) {
  const ProductListItem = keySet(PRODUCT_LIST_ITEM_KEYS, common, { exact: true, description: "Spec 2.1." });
  const ProductDetail = keySet(PRODUCT_DETAIL_KEYS, common, {
    exact: true,
    forbidden: PRODUCT_DETAIL_FORBIDDEN_KEYS,
    description: "Spec 2.2.",
  });
  const ProductTypeSummary = keySet(PRODUCT_TYPE_SUMMARY_KEYS, common, { exact: true, description: "Spec 2.3." });
  const ProductTypeDetail = keySet(PRODUCT_TYPE_DETAIL_KEYS, common, {
    exact: true,
    forbidden: PRODUCT_TYPE_DETAIL_FORBIDDEN_KEYS,
    description: "Spec 2.4; the adult limits are minPax and maxPax.",
  });
  // An answer to `fields` (spec 4.0): the same keys, of which only uuid and links are always there.
  const asked = ["uuid", "links"];
  const fieldsOf = (spec: string) => `An answer to \`fields\`: uuid, links and the keys asked for, of ${spec}.`;
  const ProductDetailFields = keySet(PRODUCT_DETAIL_KEYS, common, {
    exact: true,
    required: asked,
    forbidden: PRODUCT_DETAIL_FORBIDDEN_KEYS,
    description: fieldsOf("ProductDetail"),
  });
  const ProductTypeDetailFields = keySet(PRODUCT_TYPE_DETAIL_KEYS, common, {
    exact: true,
    required: asked,
    forbidden: PRODUCT_TYPE_DETAIL_FORBIDDEN_KEYS,
    description: fieldsOf("ProductTypeDetail"),
  });
  return {
    ProductListItem,
    ProductDetail,
    ProductTypeSummary,
    ProductTypeDetail,
    ProductDetailFields,
    ProductTypeDetailFields,
  };
}

/** Spec 2.5 to 2.9: prices, bookings and vouchers. */
function priceAndBookingSchemas(b: Blocks, common: CommonKeyTypes) {
  const priceTyped = {
    ...common,
    date: wire.date().json,
    weekday: s.string().json,
    available: s.boolean().json,
    timeslots: s.array(b.TimeslotAvailability, { description: "Empty for non-timeslotted product types." }).json,
    options: s.array(s.any()).json,
  };
  const PriceListEntry = keySet(PRICE_LIST_ENTRY_KEYS, priceTyped, { exact: true, description: "Spec 2.5." });
  const SingleDatePrice = keySet(SINGLE_DATE_PRICE_KEYS, priceTyped, { exact: true, description: "Spec 2.6." });
  const bookingTyped = {
    ...common,
    code: s.string().json,
    status: b.status.json,
    adults: s.integer({ minimum: 1 }).json,
    options: s.array(s.any()).json,
    partner_reference: s.nullable(s.string()).json,
  };
  const BookingListItem = keySet(BOOKING_LIST_ITEM_KEYS, bookingTyped, { exact: true, description: "Spec 2.7." });
  const BookingDetail = {
    ...keySet(BOOKING_DETAIL_REQUIRED_KEYS, bookingTyped, {
      exact: false,
      forbidden: BOOKING_DETAIL_FORBIDDEN_KEYS,
      description:
        "Spec 2.8 names only some keys of the booking detail: these must be there, the forbidden ones not. The key set " +
        "is open (spec 2.12): other keys may hold anything, a key without a value may be null or left out, and a " +
        "`...Uuid` key holds a UUID or null. The reference service adds code, cancellationRequestStatus, createdAt, " +
        "updatedAt, expiresAt, productUuid, productTypeUuid, date, timeslot, children, seniors, infants, customer, " +
        "totalAmount, currency and links, null where they have no value.",
    }),
    patternProperties: NULLABLE_IDENTIFIERS,
  };
  const VoucherFile = keySet(
    VOUCHER_FILE_KEYS,
    {
      ...common,
      generatedAt: wire.timestamp().json,
      downloadedAt: s.nullable(wire.timestamp(), { description: "null until first downloaded." }).json,
    },
    { exact: true, description: "Spec 2.9; its file links need authorization." },
  );
  return { PriceListEntry, SingleDatePrice, BookingListItem, BookingDetail, VoucherFile };
}

/** What the spec does not show the shape of (2.12): restrictions, config, OPTIONS; and the error envelope. */
function openSchemas(b: Blocks) {
  const Restrictions = s.object(
    {},
    {
      productUuid: wire.uuid(reference),
      mode: s.enumOf(["allow", "exclude", "none"], reference),
      allowedCountries: s.array(s.string(), reference),
      excludedCountries: s.array(s.string(), reference),
    },
    {
      description:
        "Spec 4.1: the partner's origin restrictions; the shape is not shown (2.12): other keys may hold anything, " +
        "and a `...Uuid` key holds a UUID or null.",
      patternProperties: NULLABLE_IDENTIFIERS,
    },
  );
  const Config = s.object(
    {},
    {},
    {
      description:
        "Spec 4.4: languages, currencies, locations, other items and the image base address; structure not shown " +
        "(2.12): other keys may hold anything, and a `...Uuid` key holds a UUID or null.",
      patternProperties: NULLABLE_IDENTIFIERS,
    },
  );
  const SelfDescription = s.object(
    {},
    {},
    {
      description:
        "A JSON body describing methods, parameters and the resource's keys (docs/contract-gaps.md, OPTIONS).",
    },
  );
  const ErrorEnvelope = errorEnvelope(
    s.string().json,
    b.Links.json,
    "The envelope of every failure (docs/contract-gaps.md, Wire format and error codes).",
  );
  return { Restrictions, Config, SelfDescription, ErrorEnvelope };
}

/** Every schema of the partner API, built once; `named` in the order components.schemas lists them. */
function partnerSchemas() {
  const b = buildingBlocks();
  const common = commonKeyTypes(b);
  const products = productSchemas(common);
  const bookings = priceAndBookingSchemas(b, common);
  const request = bookingRequestSchemas();
  const open = openSchemas(b);
  const named: Record<string, JsonSchema> = {
    Link: b.Link.json,
    Links: b.Links.json,
    SelfLinks: b.SelfLinks.json,
    Translated: b.Translated.json,
    Pagination: b.Pagination.json,
    ...products,
    TimeslotAvailability: b.TimeslotAvailability.json,
    ...bookings,
    Customer: request.Customer.json,
    SelectedOption: request.SelectedOption.json,
    BookingRequest: request.BookingRequest.json,
    Alternatives: b.Alternatives.json,
    AlternativeTimeslot: b.AlternativeTimeslot.json,
    NearbyDate: b.NearbyDate.json,
    Restrictions: open.Restrictions.json,
    Config: open.Config.json,
    SelfDescription: open.SelfDescription.json,
    ErrorEnvelope: open.ErrorEnvelope,
  };
  return { b, products, bookings, request, open, named };
}

type PartnerSchemas = ReturnType<typeof partnerSchemas>;

/** The envelopes of docs/contract-gaps.md (Lists and pagination) around a resource's schema. */
function envelopes(b: Blocks) {
  const list = (item: JsonSchema): JsonSchema => ({
    type: "object",
    description: "The list envelope (docs/contract-gaps.md, Lists and pagination).",
    required: ["data", "meta", "links"],
    properties: {
      data: { type: "array", items: item },
      meta: { type: "object", required: ["pagination"], properties: { pagination: b.Pagination.json } },
      links: b.SelfLinks.json,
    },
  });
  const detail = (data: JsonSchema): JsonSchema => ({
    type: "object",
    description: "The detail envelope (docs/contract-gaps.md, Lists and pagination).",
    required: ["data", "links"],
    properties: { data, links: b.SelfLinks.json },
  });
  const collection = (item: JsonSchema): JsonSchema => ({
    type: "object",
    description: "An object `data` holding the items, with links, without pagination (spec 4.0, 4.3).",
    required: ["data", "links"],
    properties: { data: { type: "array", items: item }, links: b.SelfLinks.json },
  });
  return { list, detail, collection };
}

/** Each endpoint's success body (a voucher file is a PDF). */
function successSchemas(all: PartnerSchemas): Record<EndpointName, JsonSchema | "file"> {
  const { list, detail, collection } = envelopes(all.b);
  const p = all.products;
  const { BookingDetail } = all.bookings;
  return {
    products: list(p.ProductListItem),
    product: detail(detailOrFields(p.ProductDetail, p.ProductDetailFields)),
    productRestrictions: detail(all.open.Restrictions.json),
    productTypes: list(p.ProductTypeSummary),
    productType: detail(detailOrFields(p.ProductTypeDetail, p.ProductTypeDetailFields)),
    priceList: list(all.bookings.PriceListEntry),
    priceListDate: detail(all.bookings.SingleDatePrice),
    bookingCreate: detail(BookingDetail),
    bookings: list(all.bookings.BookingListItem),
    booking: detail(BookingDetail),
    bookingConfirm: detail(BookingDetail),
    bookingCancel: detail(BookingDetail),
    vouchers: collection(all.bookings.VoucherFile),
    voucherFile: "file",
    config: detail(all.open.Config.json),
  };
}

/** components.responses: one per error of ERROR_RESPONSES, with the 429's rate-limit headers and the 405's Allow. */
function errorResponsesOf(b: Blocks): Json {
  const errorResponses: Json = {};
  for (const [key, e] of Object.entries(ERROR_RESPONSES)) {
    const alternatives = key === "422PricesMismatch" ? { alternatives: b.Alternatives.json } : {};
    const body = {
      type: "object",
      required: ["code", "message", "http_code"],
      properties: {
        code: { type: "string", enum: [...e.codes] },
        message: { type: "string" },
        http_code: { const: Number(e.status) },
        ...alternatives,
      },
    };
    const headers: Json =
      e.status === "429"
        ? {
            [HEADERS.rateLimitLimit]: ref("headers", "RateLimitLimit"),
            [HEADERS.rateLimitRemaining]: ref("headers", "RateLimitRemainingZero"),
            [HEADERS.retryAfter]: ref("headers", "RetryAfter"),
            [HEADERS.rateLimitReset]: ref("headers", "RateLimitResetRequired"),
          }
        : e.status === "405"
          ? { Allow: ref("headers", "Allow") }
          : {};
    errorResponses[RESPONSE_NAMES[key] ?? key] = {
      description: `${e.codes.join(" or ")}: ${e.description}`,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { "application/json": { schema: errorEnvelope(body, b.Links.json, undefined) } },
    };
  }
  return errorResponses;
}

/** An endpoint's success responses: 200 (and 201 for bookingCreate), its rate-limit headers, its body. */
function successResponses(name: EndpointName, success: JsonSchema | "file"): Json {
  const responses: Json = {};
  const okStatuses = name === "bookingCreate" ? ["201", "200"] : ["200"];
  for (const code of okStatuses) {
    responses[code] = {
      description:
        code === "201"
          ? "The booking was created, reserved (the reference service answers 201)."
          : code === "200" && name === "bookingCreate"
            ? "The booking was created (the spec does not fix the success status; 200 is accepted too)."
            : "Success.",
      ...(ENDPOINTS[name].rateLimited
        ? {
            headers: {
              [HEADERS.rateLimitLimit]: ref("headers", "RateLimitLimit"),
              [HEADERS.rateLimitRemaining]: ref("headers", "RateLimitRemaining"),
              [HEADERS.rateLimitReset]: ref("headers", "RateLimitReset"),
            },
          }
        : {}),
      content:
        success === "file"
          ? { "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } } }
          : { "application/json": { schema: success } },
    };
  }
  return responses;
}

/** Every endpoint's operation under its path, then OPTIONS on every path. */
function partnerPaths(all: PartnerSchemas): Json {
  const successOf = successSchemas(all);
  const paths: Json = {};
  for (const name of ENDPOINT_NAMES) {
    const spec = ENDPOINTS[name];
    const responses = successResponses(name, successOf[name]);
    for (const key of ["401", ...errorStatusesOf(name), "405", "500"]) {
      const status = ERROR_RESPONSES[key]?.status ?? key;
      if (responses[status] !== undefined) continue;
      responses[status] = ref("responses", RESPONSE_NAMES[key] ?? key);
    }
    const operation: Json = {
      operationId: name,
      summary: ENDPOINT_DOCS[name].summary,
      tags: [ENDPOINT_DOCS[name].tag],
      "x-atd-rate-limited": spec.rateLimited,
      parameters: parametersOf(name),
      ...(name === "bookingCreate"
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: all.request.BookingRequest.json } },
            },
          }
        : {}),
      responses: sortedResponses(responses),
    };
    const item = (paths[spec.path] ??= {}) as Json;
    item[spec.method.toLowerCase()] = operation;
  }
  addOptions(paths, envelopes(all.b).detail(all.open.SelfDescription.json));
  return paths;
}

/** OPTIONS on every path (docs/contract-gaps.md, OPTIONS): the path describes itself. */
function addOptions(paths: Json, selfDescription: JsonSchema): void {
  for (const item of Object.values(paths) as Json[]) {
    const first = Object.values(item)[0] as Json;
    // Any segment: OPTIONS describes the path, not a resource, so it answers 200 whatever the segment holds.
    const pathParams = (first.parameters as Json[])
      .filter((p) => p.in === "path")
      .map((p) => ({ ...p, description: `${String(p.description)} Any segment.`, schema: { type: "string" } }));
    item.options = {
      operationId: `describe_${String(first.operationId)}`,
      summary: "The path's methods, parameters and the resource's keys (docs/contract-gaps.md, OPTIONS).",
      tags: first.tags,
      parameters: pathParams,
      responses: {
        "200": {
          description: "The self-description, with an Allow header.",
          headers: { Allow: ref("headers", "Allow") },
          content: { "application/json": { schema: selfDescription } },
        },
        "401": ref("responses", "Unauthorized"),
        "404": ref("responses", "NotFound"),
      },
    };
  }
}

const PARTNER_INFO = {
  title: "Attractions, tours and activities partner API",
  version: "2.1",
  description:
    "The partner API of interface-spec.md with the gaps filled as docs/contract-gaps.md says, generated from " +
    "lib/contract (scripts/openapi.ts; do not edit by hand). Key sets are spec Part 2's: `required` and, where " +
    "the spec's set is exact, `additionalProperties: false`; `false` marks a key the spec forbids. Types are " +
    "given only where the spec or docs/contract-gaps.md fixes them. Parameters and fields marked " +
    "`x-atd-level: reference` are the reference service's own choices. Every bound, enum and pattern of a " +
    "parameter or body is enforced: a value outside it is 400 (a query parameter given empty, `?name=`, " +
    "included), except what the descriptions name (a body that cannot be booked is 422). What a schema cannot " +
    "say is in the descriptions: the price calendar's six months, `fields` choosing the keys of a detail. " +
    "The reference service serves this " +
    `document at GET ${PARTNER_API_DOCUMENT_PATH} on the API listener, with the key like every path.`,
};

/** components.headers: the rate-limit headers of spec Part 8 and docs/contract-gaps.md, and Allow. */
function partnerHeaders(): Json {
  const limitHeader = (description: string, schema: Json) => ({ description, required: true, schema });
  return {
    RateLimitLimit: limitHeader(`The allowance per window (spec Part 8: ${RATE_LIMIT.limit}).`, {
      type: "integer",
      minimum: 1,
    }),
    RateLimitRemaining: limitHeader("Requests left in the current window.", { type: "integer", minimum: 0 }),
    RateLimitRemainingZero: limitHeader("0 (spec 7.1).", { type: "integer", const: 0 }),
    RateLimitReset: {
      description: "UNIX seconds at which the allowance resets (docs/contract-gaps.md, Rate limit).",
      required: false,
      schema: { type: "integer", minimum: 0 },
    },
    RateLimitResetRequired: limitHeader("UNIX seconds at which a retry is possible (spec 7.1).", {
      type: "integer",
      minimum: 0,
    }),
    RetryAfter: limitHeader("Whole seconds to wait, at least 1 (docs/contract-gaps.md, Rate limit).", {
      type: "integer",
      minimum: 1,
    }),
    Allow: limitHeader("The methods the path offers.", { type: "string" }),
  };
}

/** The partner API's document, composed from the parts above. */
export function partnerApiDocument(): OpenApiDocument {
  const all = partnerSchemas();
  const paths = partnerPaths(all);
  const errorResponses = errorResponsesOf(all.b);
  const { schemas, names } = components(all.named);
  return {
    openapi: OPENAPI_VERSION,
    info: PARTNER_INFO,
    servers: [
      {
        url: "{base_url}",
        description: "The demo or production base address.",
        variables: { base_url: { default: "http://127.0.0.1:8080" } },
      },
    ],
    security: [{ PartnerKey: [] }],
    tags: [
      { name: "products", description: "Product discovery (spec 4.1)." },
      { name: "product types", description: "Product types, prices and availability (spec 4.2)." },
      { name: "bookings", description: "Bookings and vouchers (spec 4.3)." },
      { name: "config", description: "Configuration (spec 4.4)." },
    ],
    paths: withRefs(paths, names),
    components: {
      securitySchemes: {
        PartnerKey: {
          type: "apiKey",
          in: "header",
          name: HEADERS.auth,
          description: "The partner's API key, on every request (spec Part 5); missing or unknown: 401.",
        },
      },
      schemas,
      parameters: withRefs(partnerParameters(), names),
      headers: partnerHeaders(),
      responses: withRefs(errorResponses, names),
    },
  };
}

function errorEnvelope(error: JsonSchema, links: JsonSchema, description: string | undefined): JsonSchema {
  return {
    type: "object",
    ...(description === undefined ? {} : { description }),
    required: ["error", "links", "timestamp"],
    properties: { error, links, timestamp: wire.timestamp().json },
  };
}

function sortedResponses(responses: Json): Json {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

// ---------------------------------------------------------------------------------------------------------------
// The test hooks
// ---------------------------------------------------------------------------------------------------------------

/** The rules every hook follows, stated once at the top of the document. */
const HOOKS_DOCUMENT_DESCRIPTION = [
  "The control API (test hooks) of the partner API of docs/partner-api.openapi.yaml, as docs/contract-gaps.md " +
    `(Control API (test hooks)) requires it: a separate listener, in test environments only, guarded by the ` +
    `${HEADERS.control} header. \`x-atd-level: required\` marks what every implementation must offer, and all a test ` +
    "may need; `reference` marks optional extensions that only the reference service offers, and answer fields a " +
    "service may leave out (when it gives them, they mean what their description says).",
  "",
  "Rules every hook follows:",
  '- JSON in and out. A success answer is `{"data": ...}` (the metrics and this document excepted). A failure is ' +
    "the partner API's error envelope with the codes the responses below name: 400 invalid_params or " +
    `malformed_json, 401 ${ERROR_CODES.unauthorized} (the partner API's code), 404 not_found, 405 ` +
    "method_not_allowed.",
  "- Every type, bound (minimum, maximum), enum and pattern of a parameter or body is enforced: a value outside it " +
    "is 400 invalid_params and the hook changes nothing. That includes null where the schema does not list null " +
    "(null never stands for a key left out) and a number above a maximum (every value up to it is accepted).",
  "- A key left out of a body leaves what it sets as it is.",
  "- A body key the document does not name: the service either ignores it (the rest of the body applies) or " +
    "refuses the body with 400 invalid_params (nothing changes). Either is allowed; clients send only the keys " +
    "named here.",
  "- Answers are open objects: a service may say more than the document names.",
  "",
  `The reference service serves this document at GET ${TEST_HOOKS_DOCUMENT_PATH} on the control listener.`,
].join("\n");

export function testHooksDocument(): OpenApiDocument {
  const { schemas, names } = components(TEST_HOOK_SCHEMAS);
  const paths: Json = {};
  for (const name of TEST_HOOK_NAMES) {
    const hook: TestHookSpecView = TEST_HOOKS[name];
    const item = (paths[hook.path] ??= {}) as Json;
    item[hook.method.toLowerCase()] = hookOperation(name, hook);
  }
  const error = (status: number, codes: readonly string[], description: string, headers?: Json) => ({
    description: `${codes.join(" or ")}: ${description}`,
    ...(headers === undefined ? {} : { headers }),
    content: {
      "application/json": {
        schema: errorEnvelope(
          {
            type: "object",
            required: ["code", "message", "http_code"],
            properties: {
              code: { type: "string", enum: [...codes] },
              message: { type: "string" },
              http_code: { const: status },
            },
          },
          { type: "array" },
          undefined,
        ),
      },
    },
  });
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "Test hooks (control API) of the partner API",
      version: "1.1",
      description: HOOKS_DOCUMENT_DESCRIPTION,
    },
    servers: [
      {
        url: "{control_url}",
        description: "The control listener.",
        variables: { control_url: { default: "http://127.0.0.1:8081" } },
      },
    ],
    security: [{ ControlToken: [] }],
    paths: withRefs(paths, names),
    components: {
      securitySchemes: {
        ControlToken: {
          type: "apiKey",
          in: "header",
          name: HEADERS.control,
          description: "The control token of the test environment; missing or wrong: 401.",
        },
      },
      schemas,
      responses: {
        BadRequest: error(
          400,
          [ERROR_CODES.invalidParams, ERROR_CODES.malformedJson],
          "a parameter or body value the document does not allow (invalid_params), or a body that is not JSON " +
            "(malformed_json); the hook changes nothing.",
        ),
        Unauthorized: error(
          401,
          [ERROR_CODES.unauthorized],
          `the ${HEADERS.control} header is missing or wrong; answered on every path, before anything else.`,
        ),
        NotFound: error(404, [ERROR_CODES.notFound], "no such resource (each operation says which)."),
        MethodNotAllowed: error(
          405,
          [ERROR_CODES.methodNotAllowed],
          "the path does not offer this method; the Allow header lists the methods it offers.",
          { Allow: { description: "The methods the path offers.", required: true, schema: { type: "string" } } },
        ),
      },
    },
  };
}

/** A row of TEST_HOOKS seen through its widest type. */
interface TestHookSpecView {
  readonly method: string;
  readonly path: string;
  readonly level: string;
  readonly summary: string;
  readonly description?: string;
  readonly notFound?: string;
  readonly query?: Readonly<Record<string, { schema: JsonSchema; required: boolean; description: string }>>;
  readonly request?: JsonSchema;
  readonly bodyOptional?: boolean;
  readonly answer: JsonSchema;
  readonly envelope: "data" | "none";
  readonly contentType: string;
  readonly statuses: readonly number[];
}

function hookOperation(name: TestHookName, hook: TestHookSpecView): Json {
  const parameters = [
    ...pathParameters(hook.path).map(pathParameter),
    ...Object.entries(hook.query ?? {}).map(([q, p]) => ({
      name: q,
      in: "query",
      required: p.required,
      description: p.description,
      schema: p.schema,
    })),
  ];
  const body = hook.envelope === "data" ? dataEnvelope(hook.answer) : hook.answer;
  const responses: Json = {};
  for (const status of hook.statuses) {
    responses[String(status)] = {
      description: status === 201 ? "Created." : "Success.",
      content: { [hook.contentType]: { schema: body } },
    };
  }
  const errorRef = (n: string) => ref("responses", n);
  if (hook.request !== undefined || hook.query !== undefined || parameters.length > 0)
    responses["400"] = errorRef("BadRequest");
  responses["401"] = errorRef("Unauthorized");
  // A Reference Object of OpenAPI 3.1 may override the description: what a 404 means here.
  if (hook.notFound !== undefined) responses["404"] = { ...errorRef("NotFound"), description: hook.notFound };
  responses["405"] = errorRef("MethodNotAllowed");
  return {
    operationId: name,
    summary: hook.summary,
    ...(hook.description === undefined ? {} : { description: hook.description }),
    [LEVEL_EXTENSION]: hook.level,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(hook.request === undefined
      ? {}
      : {
          requestBody: {
            required: hook.bodyOptional !== true,
            content: { "application/json": { schema: hook.request } },
          },
        }),
    responses: sortedResponses(responses),
  };
}

function dataEnvelope(data: JsonSchema): JsonSchema {
  return { type: "object", required: ["data"], properties: { data } };
}
