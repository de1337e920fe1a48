import type { EndpointName } from "./endpoints.ts";

/**
 * The exact response key sets of spec Part 2, one per resource. Checks compare a response's keys with these
 * (list item vs detail), so a key that is missing or one that the spec says the resource must not carry is caught.
 */

export const PRODUCT_LIST_ITEM_KEYS = [
  "uuid",
  "updatedAt",
  "title",
  "titleTranslated",
  "validFrom",
  "validThrough",
  "basePrice",
  "typeName",
  "typeUuid",
  "links",
] as const;

export const PRODUCT_DETAIL_KEYS = [
  "uuid",
  "updatedAt",
  "title",
  "titleTranslated",
  "description",
  "descriptionTranslated",
  "highlights",
  "highlightsTranslated",
  "additionalInfo",
  "additionalInfoTranslated",
  "priceIncludes",
  "priceIncludesTranslated",
  "priceExcludes",
  "priceExcludesTranslated",
  "validFrom",
  "validThrough",
  "itinerary",
  "itineraryTranslated",
  "warnings",
  "warningsTranslated",
  "safety",
  "safetyTranslated",
  "latitude",
  "longitude",
  "minPax",
  "maxPax",
  "basePrice",
  "currency",
  "isFlatPaxPrice",
  "reviewCount",
  "reviewAverageScore",
  "typeName",
  "typeUuid",
  "photosUrl",
  "businessHoursFrom",
  "businessHoursTo",
  "averageDelivery",
  "hotelPickup",
  "airportPickup",
  "hasOptions",
  "allProductTypesHaveOptions",
  "photos",
  "categories",
  "locations",
  "guideLanguages",
  "audioHeadsetLanguages",
  "writtenLanguages",
  "links",
] as const;

/** Spec 2.2: keys the product detail must not carry (they moved to their own endpoints in v2). */
export const PRODUCT_DETAIL_FORBIDDEN_KEYS = [
  "productTypes",
  "prices",
  "minChildren",
  "maxChildren",
  "url",
  "staticUrl",
] as const;

export const PRODUCT_TYPE_SUMMARY_KEYS = ["uuid", "title", "links"] as const;

export const PRODUCT_TYPE_DETAIL_KEYS = [
  "uuid",
  "title",
  "titleTranslated",
  "description",
  "descriptionTranslated",
  "durationDays",
  "durationHours",
  "durationMinutes",
  "daysInAdvance",
  "isNonRefundable",
  "minPax",
  "maxPax",
  "minAdultAge",
  "maxAdultAge",
  "hasChildPrice",
  "allowChildren",
  "minChildren",
  "maxChildren",
  "minChildAge",
  "maxChildAge",
  "allowSeniors",
  "minSeniors",
  "maxSeniors",
  "minSeniorAge",
  "maxSeniorAge",
  "allowInfant",
  "minInfantAge",
  "maxInfantAge",
  "maxGroup",
  "minGroup",
  "instantConfirmation",
  "nonInstantVoucher",
  "directAdmission",
  "voucherUse",
  "voucherUseTranslated",
  "voucherRedemptionAddress",
  "voucherRedemptionAddressTranslated",
  "voucherRequiresPrinting",
  "meetingTime",
  "meetingAddress",
  "meetingLocation",
  "meetingLocationTranslated",
  "cancellationPolicies",
  "recommendedMarkup",
  "adultParityPrice",
  "childParityPrice",
  "seniorParityPrice",
  "validity",
  "timeslots",
  "options",
  "links",
] as const;

/** Spec 2.4: the adult limits are minPax/maxPax; these v1 names must not appear. */
export const PRODUCT_TYPE_DETAIL_FORBIDDEN_KEYS = ["minAdults", "maxAdults"] as const;

export const PRICE_LIST_ENTRY_KEYS = [
  "date",
  "weekday",
  "available",
  "currency",
  "prices",
  "timeslots",
  "options",
  "links",
] as const;

export const SINGLE_DATE_PRICE_KEYS = [
  "date",
  "weekday",
  "available",
  "currency",
  "prices",
  "timeslots",
  "options",
  "voucherValidity",
  "links",
] as const;

export const BOOKING_LIST_ITEM_KEYS = ["uuid", "code", "status", "createdAt", "updatedAt"] as const;

/** Spec 2.8 names only some keys of the booking detail; these must be there. */
export const BOOKING_DETAIL_REQUIRED_KEYS = ["uuid", "status", "adults", "options", "partner_reference"] as const;

/** Spec 2.8: keys the v2 booking detail must not carry. */
export const BOOKING_DETAIL_FORBIDDEN_KEYS = [
  "guests",
  "totalAmountRequestCurrency",
  "requestCurrencyCode",
  "confirmationEmailSentAt",
  "confirmationEmailFiles",
] as const;

export const VOUCHER_FILE_KEYS = ["uuid", "generatedAt", "downloadedAt", "links"] as const;

/**
 * The identifier keys spec Part 2 names in answers: a resource's `uuid` and the product's `typeUuid` (2.1, 2.2). Each
 * holds a UUID, never null. Any other `...Uuid` key (an extra key of an open key set: a booking's `timeslotUuid`) may
 * be null where there is nothing to identify: a null is no identifier, and not a malformed one
 * (docs/contract-gaps.md, Formats).
 */
export const IDENTIFIER_KEYS = ["uuid", "typeUuid"] as const;

export const CUSTOMER_KEYS = ["firstName", "lastName", "salutation", "email", "phone"] as const;

export const ERROR_KEYS = ["code", "message", "http_code"] as const;

export type KeySet = readonly string[];

/** How a value's own keys differ from an expected key set; empty arrays mean an exact match. */
export interface KeyDiff {
  missing: string[];
  unexpected: string[];
}

export function diffKeys(value: object, expected: KeySet): KeyDiff {
  const actual = Object.keys(value);
  const want = new Set(expected);
  const have = new Set(actual);
  return {
    missing: expected.filter((k) => !have.has(k)),
    unexpected: actual.filter((k) => !want.has(k)),
  };
}

/**
 * What each endpoint answers on success: the envelope (docs/contract-gaps.md, Lists and pagination) and the key set of
 * its resource (spec Part 2).
 * `exact` key sets must match exactly; the booking detail's are a minimum (spec 2.8 lists only some of its keys).
 * Restrictions and config have no key set in the spec (2.12).
 */
export interface ResponseShape {
  /** list: {data: [...], meta: {pagination}, links}; collection: {data: [...], links}; detail: {data: {...}, links}. */
  envelope: "list" | "collection" | "detail";
  keys?: KeySet;
  exact: boolean;
  forbidden?: KeySet;
}

export const RESPONSE_SHAPES = {
  products: { envelope: "list", keys: PRODUCT_LIST_ITEM_KEYS, exact: true },
  product: { envelope: "detail", keys: PRODUCT_DETAIL_KEYS, exact: true, forbidden: PRODUCT_DETAIL_FORBIDDEN_KEYS },
  productRestrictions: { envelope: "detail", exact: false },
  productTypes: { envelope: "list", keys: PRODUCT_TYPE_SUMMARY_KEYS, exact: true },
  productType: {
    envelope: "detail",
    keys: PRODUCT_TYPE_DETAIL_KEYS,
    exact: true,
    forbidden: PRODUCT_TYPE_DETAIL_FORBIDDEN_KEYS,
  },
  priceList: { envelope: "list", keys: PRICE_LIST_ENTRY_KEYS, exact: true },
  priceListDate: { envelope: "detail", keys: SINGLE_DATE_PRICE_KEYS, exact: true },
  bookingCreate: {
    envelope: "detail",
    keys: BOOKING_DETAIL_REQUIRED_KEYS,
    exact: false,
    forbidden: BOOKING_DETAIL_FORBIDDEN_KEYS,
  },
  bookings: { envelope: "list", keys: BOOKING_LIST_ITEM_KEYS, exact: true },
  booking: {
    envelope: "detail",
    keys: BOOKING_DETAIL_REQUIRED_KEYS,
    exact: false,
    forbidden: BOOKING_DETAIL_FORBIDDEN_KEYS,
  },
  bookingConfirm: {
    envelope: "detail",
    keys: BOOKING_DETAIL_REQUIRED_KEYS,
    exact: false,
    forbidden: BOOKING_DETAIL_FORBIDDEN_KEYS,
  },
  bookingCancel: {
    envelope: "detail",
    keys: BOOKING_DETAIL_REQUIRED_KEYS,
    exact: false,
    forbidden: BOOKING_DETAIL_FORBIDDEN_KEYS,
  },
  vouchers: { envelope: "collection", keys: VOUCHER_FILE_KEYS, exact: true },
  voucherFile: { envelope: "detail", exact: false },
  config: { envelope: "detail", exact: false },
} as const satisfies Record<EndpointName, ResponseShape>;
