/**
 * The endpoint table of spec Part 4: a stable name per endpoint (used as the metric tag, never the raw URL, so
 * metric series do not grow with UUIDs), its method and path template, and whether it spends the shared rate-limit
 * allowance of spec Part 8.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "OPTIONS";

export interface EndpointSpec {
  readonly method: HttpMethod;
  /** Path template relative to {base_url}; `{name}` marks a path parameter. */
  readonly path: string;
  /** True for the six GET endpoints that share one allowance (spec Part 8). */
  readonly rateLimited: boolean;
}

export const ENDPOINTS = {
  products: { method: "GET", path: "/v2/products", rateLimited: true },
  product: { method: "GET", path: "/v2/products/{uuid}", rateLimited: true },
  productRestrictions: { method: "GET", path: "/v2/products/{uuid}/restrictions", rateLimited: false },
  productTypes: { method: "GET", path: "/v2/products/{uuid}/product-types", rateLimited: true },
  productType: { method: "GET", path: "/v2/product-types/{uuid}", rateLimited: true },
  priceList: { method: "GET", path: "/v2/product-types/{uuid}/price-lists", rateLimited: true },
  priceListDate: { method: "GET", path: "/v2/product-types/{uuid}/price-lists/{date}", rateLimited: true },
  bookingCreate: { method: "POST", path: "/v2/bookings", rateLimited: false },
  bookings: { method: "GET", path: "/v2/bookings", rateLimited: false },
  booking: { method: "GET", path: "/v2/bookings/{uuid}", rateLimited: false },
  bookingConfirm: { method: "PUT", path: "/v2/bookings/{uuid}/confirm", rateLimited: false },
  bookingCancel: { method: "PUT", path: "/v2/bookings/{uuid}/cancel", rateLimited: false },
  vouchers: { method: "GET", path: "/v2/bookings/{bookingUuid}/vouchers", rateLimited: false },
  voucherFile: { method: "GET", path: "/v2/bookings/{bookingUuid}/vouchers/{voucherUuid}/file", rateLimited: false },
  config: { method: "GET", path: "/v2/config", rateLimited: false },
} as const satisfies Record<string, EndpointSpec>;

export type EndpointName = keyof typeof ENDPOINTS;

export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];

export const RATE_LIMITED_ENDPOINTS = ENDPOINT_NAMES.filter((name) => ENDPOINTS[name].rateLimited);

/** Fills a path template: fillPath("/v2/products/{uuid}", { uuid }) -> "/v2/products/<uuid>". */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Failed to fill path ${template}: parameter "${name}" is missing.`);
    return encodeURIComponent(value);
  });
}

/** The names of the request headers and response headers the contract relies on. */
export const HEADERS = {
  auth: "X-Authorization",
  rateLimitLimit: "X-RateLimit-Limit",
  rateLimitRemaining: "X-RateLimit-Remaining",
  rateLimitReset: "X-RateLimit-Reset",
  retryAfter: "Retry-After",
  control: "X-Control-Token",
} as const;
