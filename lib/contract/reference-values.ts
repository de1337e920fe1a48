/**
 * Values the reference service chose where the spec leaves them open, read by the service and stated by the published
 * document (openapi.ts, `x-atd-level: reference`), so the two cannot differ. Another service lists its own languages
 * in GET /v2/config; the harness reads them there and never from here.
 */

/** The languages of the reference catalogue (GET /v2/config lists them): lower-case codes, as written. */
export const LANGUAGES = ["en", "de", "fr", "es", "it", "ja", "ko", "zh", "th", "id"] as const;

/** The orders of GET /v2/products?sort=; a leading - sorts descending. */
export const PRODUCT_SORTS = ["title", "-title", "updated_at", "-updated_at", "base_price", "-base_price"] as const;

/** Bounds of the booking request's fields beyond the spec's: text at most this long, quantities at most this. */
export const BOOKING_REQUEST_LIMITS = {
  textMaxLength: 200,
  quantityMax: 10_000,
  /** docs/contract-gaps.md, Booking request. */
  partnerReferenceMaxLength: 100,
} as const;
