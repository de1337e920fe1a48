/**
 * The typed client of the partner API for k6: one function per endpoint of spec Part 4. Every request is tagged
 * with the endpoint's stable name (and `name` = the path template) so metric series never grow with UUIDs, and every
 * response is parsed once into an ApiResponse with the body checked against its envelope.
 */
import http from "k6/http";
import type { RefinedResponse, ResponseType } from "k6/http";
import { sleep } from "k6";
import {
  ENDPOINTS,
  HEADERS,
  RESPONSE_SHAPES,
  fillPath,
  isCollectionEnvelope,
  isDetailEnvelope,
  isErrorEnvelope,
  isListEnvelope,
  type ApiErrorBody,
  type BookingRequest,
  type EndpointName,
  type Pagination,
} from "../contract/index.ts";
import { throttles, throttleWaitSeconds } from "./metrics.ts";
import type { ExpectationRecorder } from "./expectations.ts";

export type Query = Readonly<Record<string, string | number | undefined>>;
export type Json = Record<string, unknown>;

export interface ApiResponse<T> {
  endpoint: EndpointName;
  status: number;
  /**
   * Response headers with lower-case names: k6 (Go) canonicalises names, so X-RateLimit-Limit arrives as
   * X-Ratelimit-Limit. Read them with header().
   */
  headers: Record<string, string>;
  /** The JSON body, parsed once; undefined when the body is not JSON. */
  body: unknown;
  /** The envelope's `data` when the body matched the endpoint's envelope. */
  data: T | undefined;
  pagination: Pagination | undefined;
  /** The `error` object of an error envelope. */
  error: ApiErrorBody | undefined;
  /** Seconds waited for Retry-After before the answer that is returned here (0 when not throttled). */
  throttledSeconds: number;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  timeout: string;
  /**
   * "load" tags each request with its endpoint (per-endpoint SLOs and the mix); "setup" tags it phase=setup only, so
   * preparation calls stay out of the per-endpoint figures.
   */
  phase: "load" | "setup";
  /**
   * What to do on 429: "wait" sleeps Retry-After and tries once more (load scenarios: pacing, never a busy loop);
   * "return" hands the 429 to the caller (conformance scenarios inspect it).
   */
  onThrottle: "wait" | "return";
  /** Upper bound on one Retry-After wait, so a wrong header cannot park a VU for the rest of the run. */
  maxThrottleWaitSeconds: number;
  /** Logs the webhook events booking calls must cause; set only when the run records them (lib/k6/expectations.ts). */
  expectations?: ExpectationRecorder;
}

function queryString(query: Query | undefined): string {
  if (!query) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

/** A response header by name, whatever its case on the wire. */
export function header(res: { headers: Record<string, string> }, name: string): string | undefined {
  return res.headers[name.toLowerCase()];
}

function lowerCaseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

function parseBody(res: RefinedResponse<ResponseType | undefined>, headers: Record<string, string>): unknown {
  const type = header({ headers }, "Content-Type") ?? "";
  if (!type.includes("json") || typeof res.body !== "string" || res.body.length === 0) return undefined;
  try {
    // k6's own json() parses in Go: about twice as fast as JSON.parse in the script runtime.
    return res.json();
  } catch {
    return undefined;
  }
}

function retryAfterSeconds(res: RefinedResponse<ResponseType | undefined>): number {
  const value = Number(header({ headers: lowerCaseHeaders(res.headers) }, HEADERS.retryAfter));
  return Number.isFinite(value) && value > 0 ? value : 1;
}

export class ApiClient {
  readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
  }

  /** Sends one request to a named endpoint and parses the answer; the building block of the typed functions. */
  call<T>(
    endpoint: EndpointName,
    params: Readonly<Record<string, string>> = {},
    request: { query?: Query; body?: Json; url?: string } = {},
  ): ApiResponse<T> {
    const spec = ENDPOINTS[endpoint];
    const url = request.url ?? `${this.options.baseUrl}${fillPath(spec.path, params)}${queryString(request.query)}`;
    const headers: Record<string, string> = { [HEADERS.auth]: this.options.apiKey, Accept: "application/json" };
    if (request.body) headers["Content-Type"] = "application/json";
    const tags: Record<string, string> =
      this.options.phase === "load" ? { endpoint, name: spec.path } : { phase: "setup", name: spec.path };
    const httpParams = { headers, timeout: this.options.timeout, tags };
    const payload = request.body ? JSON.stringify(request.body) : null;
    const sentAt = this.options.expectations ? Date.now() : 0;
    let res = http.request(spec.method, url, payload, httpParams);
    let waited = 0;
    if (res.status === 429) {
      throttles.add(1, { endpoint });
      if (this.options.onThrottle === "wait") {
        waited = Math.min(retryAfterSeconds(res), this.options.maxThrottleWaitSeconds);
        throttleWaitSeconds.add(waited, { endpoint });
        sleep(waited);
        res = http.request(spec.method, url, payload, httpParams);
        if (res.status === 429) throttles.add(1, { endpoint });
      }
    }
    const response = toApiResponse<T>(endpoint, res, waited);
    this.options.expectations?.afterCall(response, sentAt);
    return response;
  }

  listProducts(query?: Query): ApiResponse<Json[]> {
    return this.call("products", {}, { query });
  }

  getProduct(uuid: string, query?: Query): ApiResponse<Json> {
    return this.call("product", { uuid }, { query });
  }

  getProductRestrictions(uuid: string): ApiResponse<Json> {
    return this.call("productRestrictions", { uuid });
  }

  listProductTypes(uuid: string): ApiResponse<Json[]> {
    return this.call("productTypes", { uuid });
  }

  getProductType(uuid: string, query?: Query): ApiResponse<Json> {
    return this.call("productType", { uuid }, { query });
  }

  getPriceList(uuid: string, dateStart: string, dateEnd: string): ApiResponse<Json[]> {
    return this.call("priceList", { uuid }, { query: { date_start: dateStart, date_end: dateEnd } });
  }

  getPriceForDate(uuid: string, date: string): ApiResponse<Json> {
    return this.call("priceListDate", { uuid, date });
  }

  createBooking(request: BookingRequest): ApiResponse<Json> {
    return this.call("bookingCreate", {}, { body: { ...request } });
  }

  listBookings(query?: Query): ApiResponse<Json[]> {
    return this.call("bookings", {}, { query });
  }

  getBooking(uuid: string): ApiResponse<Json> {
    return this.call("booking", { uuid });
  }

  confirmBooking(uuid: string): ApiResponse<Json> {
    return this.call("bookingConfirm", { uuid });
  }

  cancelBooking(uuid: string): ApiResponse<Json> {
    return this.call("bookingCancel", { uuid });
  }

  listVouchers(bookingUuid: string): ApiResponse<Json[]> {
    return this.call("vouchers", { bookingUuid });
  }

  /** Downloads a voucher file by the href of its link (absolute, or relative to the base URL). */
  downloadVoucherFile(href: string): ApiResponse<Json> {
    return this.call("voucherFile", {}, { url: /^https?:/.test(href) ? href : `${this.options.baseUrl}${href}` });
  }

  getConfig(): ApiResponse<Json> {
    return this.call("config");
  }
}

/**
 * An answer whose body is parsed on first use, once: parsing JSON is most of what a check costs inside k6, and a
 * load scenario often needs only the status and headers of an answer (the shape checks are sampled, checks.ts).
 */
class LazyApiResponse<T> implements ApiResponse<T> {
  readonly endpoint: EndpointName;
  readonly status: number;
  readonly throttledSeconds: number;
  // Plain fields, not #private ones: the k6 bundle targets ES2020, where esbuild turns #fields into WeakMaps.
  private readonly raw: RefinedResponse<ResponseType | undefined>;
  private parsed: { body: unknown; data: T | undefined; pagination: Pagination | undefined } | undefined;

  constructor(endpoint: EndpointName, res: RefinedResponse<ResponseType | undefined>, throttledSeconds: number) {
    this.endpoint = endpoint;
    this.status = res.status;
    this.throttledSeconds = throttledSeconds;
    this.raw = res;
  }

  private lowerCased: Record<string, string> | undefined;

  /** Reading k6's headers converts all of them into script objects: done only for answers whose headers are read. */
  get headers(): Record<string, string> {
    this.lowerCased ??= lowerCaseHeaders(this.raw.headers);
    return this.lowerCased;
  }

  private parse(): { body: unknown; data: T | undefined; pagination: Pagination | undefined } {
    if (this.parsed) return this.parsed;
    const body = parseBody(this.raw, this.headers);
    let data: unknown;
    let pagination: Pagination | undefined;
    const envelope = RESPONSE_SHAPES[this.endpoint].envelope;
    if (envelope === "list" && isListEnvelope(body)) {
      data = body.data;
      pagination = body.meta.pagination;
    } else if (envelope === "collection" && isCollectionEnvelope(body)) {
      data = body.data;
    } else if (envelope === "detail" && isDetailEnvelope(body)) {
      data = body.data;
    }
    this.parsed = { body, data: data as T | undefined, pagination };
    return this.parsed;
  }

  get body(): unknown {
    return this.parse().body;
  }

  get data(): T | undefined {
    return this.parse().data;
  }

  get pagination(): Pagination | undefined {
    return this.parse().pagination;
  }

  get error(): ApiErrorBody | undefined {
    const body = this.parse().body;
    return isErrorEnvelope(body) ? body.error : undefined;
  }
}

export function toApiResponse<T>(
  endpoint: EndpointName,
  res: RefinedResponse<ResponseType | undefined>,
  throttledSeconds = 0,
): ApiResponse<T> {
  return new LazyApiResponse<T>(endpoint, res, throttledSeconds);
}
