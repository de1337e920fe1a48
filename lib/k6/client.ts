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
  isCollectionEnvelope,
  isDetailEnvelope,
  isErrorEnvelope,
  isListEnvelope,
  isRecord,
  type ApiErrorBody,
  type BookingRequest,
  type EndpointName,
  type Pagination,
} from "../contract/index.ts";
import { throttles, throttleWaitSeconds } from "./metrics.ts";
import type { ExpectationRecorder } from "./expectations.ts";
import { WITHDRAWABLE_ENDPOINTS } from "./withdrawn.ts";

export type Query = Readonly<Record<string, string | number | undefined>>;
export type Json = Record<string, unknown>;

/** The item type of a list answer's data. */
export type ItemOf<T> = T extends readonly (infer I)[] ? I : never;

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
  /** One response header by name, whatever its case on the wire; cheaper than reading `headers`. */
  header(name: string): string | undefined;
  /** The envelope's `data` when the body matched the endpoint's envelope. */
  data: T | undefined;
  pagination: Pagination | undefined;
  /** The `error` object of an error envelope. */
  error: ApiErrorBody | undefined;
  /** Seconds waited for Retry-After before the answer that is returned here (0 when not throttled). */
  throttledSeconds: number;
  /**
   * The API key the request was made with (undefined when the answer was not made by an ApiClient): the rate-limit
   * value checks follow each key's allowance across a VU's answers (checks.ts).
   */
  apiKey: string | undefined;
  /** When the request of this answer was sent, on this machine's clock (ms since the epoch); 0 when unknown. */
  sentAt: number;
  /** The URL the request went to (the base URL, the path and the query), read from k6 on first use. */
  readonly url: string;
  /**
   * The item at `index` (modulo the number of items) of a list answer's `data`, or undefined when there is none or
   * it is not an object. Unless the body was parsed already, only that item is read (k6's gjson paths, in Go): picking
   * one item of a list costs a fraction of parsing the whole body. It does not judge the rest of the envelope; the
   * shape checks do (checks.ts).
   */
  itemAt(index: number): ItemOf<T> | undefined;
  /**
   * The `field` of each item of a list answer's `data` whose `flag` is true (a price list's available dates), in list
   * order; [] when there is no such list. Unless the body was parsed already, read in Go with one gjson query
   * (`data.#(flag==true)#.field`): a price list parsed whole costs k6 about a request's worth. gjson compares the flag
   * by its text, so a flag sent as the string "true" counts there too; the value rules judge the flag's type.
   */
  valuesWhere(flag: string, field: string): unknown[];
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
  let out = "";
  // An index loop over Object.keys: destructuring Object.entries runs the iterator protocol twice per pair, which
  // costs more than the request's own URL handling in k6's script runtime.
  const names = Object.keys(query);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const value = query[name];
    if (value !== undefined)
      out += `${out ? "&" : "?"}${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
  }
  return out;
}

/** A path template split once: literal pieces around the parameter names, so filling it needs no regex. */
interface Route {
  readonly pieces: readonly string[];
  readonly names: readonly string[];
}

function compileRoute(template: string): Route {
  const pieces: string[] = [];
  const names: string[] = [];
  let rest = template;
  for (let open = rest.indexOf("{"); open >= 0; open = rest.indexOf("{")) {
    const close = rest.indexOf("}", open);
    pieces.push(rest.slice(0, open));
    names.push(rest.slice(open + 1, close));
    rest = rest.slice(close + 1);
  }
  pieces.push(rest);
  return { pieces, names };
}

const ROUTES = Object.fromEntries(
  Object.entries(ENDPOINTS).map(([name, spec]) => [name, compileRoute(spec.path)]),
) as Record<EndpointName, Route>;

/** Fills an endpoint's path template, like fillPath, from its compiled pieces. */
function fillRoute(endpoint: EndpointName, params: Readonly<Record<string, string>>): string {
  const { pieces, names } = ROUTES[endpoint];
  let out = pieces[0] as string;
  for (let i = 0; i < names.length; i++) {
    const value = params[names[i] as string];
    if (value === undefined) {
      throw new Error(`Failed to fill path ${ENDPOINTS[endpoint].path}: parameter "${names[i] as string}" is missing.`);
    }
    out += encodeURIComponent(value) + (pieces[i + 1] as string);
  }
  return out;
}

/** The path of an endpoint with one or two path parameters, in template order; no parameter object is built. */
function pathOf(endpoint: EndpointName, first: string, second?: string): string {
  const { pieces, names } = ROUTES[endpoint];
  // A typed function that passes the wrong number of parameters fails like fillPath does, naming the missing one.
  if (names.length !== (second === undefined ? 1 : 2)) return fillRoute(endpoint, {});
  const head = `${pieces[0] as string}${encodeURIComponent(first)}${pieces[1] as string}`;
  return second === undefined ? head : `${head}${encodeURIComponent(second)}${pieces[2] as string}`;
}

/**
 * How Go (and so k6) spells a header name in res.headers: http.CanonicalHeaderKey, first letter and every letter
 * after a hyphen upper case, the rest lower case (X-RateLimit-Limit arrives as X-Ratelimit-Limit).
 */
const canonicalNames: Record<string, string> = {};

function canonicalHeaderName(name: string): string {
  let canonical = canonicalNames[name];
  if (canonical === undefined) {
    canonical = name
      .toLowerCase()
      .split("-")
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join("-");
    canonicalNames[name] = canonical;
  }
  return canonical;
}

/** A response header by name, whatever its case on the wire. */
export function header(
  res: { headers: Record<string, string>; header?: (name: string) => string | undefined },
  name: string,
): string | undefined {
  return res.header ? res.header(name) : res.headers[name.toLowerCase()];
}

function lowerCaseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const names = Object.keys(headers);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    out[name.toLowerCase()] = headers[name] as string;
  }
  return out;
}

/** One header of a k6 response: the canonical name first (one map read in Go), all names lower-cased only if absent. */
function rawHeader(headers: Record<string, string>, name: string): string | undefined {
  const value = (headers as Record<string, string | undefined>)[canonicalHeaderName(name)];
  return value !== undefined ? value : lowerCaseHeaders(headers)[name.toLowerCase()];
}

function parseBody(res: RefinedResponse<ResponseType | undefined>, contentType: string | undefined): unknown {
  // No answer, or no JSON: nothing to parse. The body itself is not read here (k6 hands it to the script as a copy).
  if (res.status === 0 || !(contentType ?? "").includes("json")) return undefined;
  try {
    // k6's own json() parses in Go: about twice as fast as JSON.parse in the script runtime. It throws on an empty
    // or discarded body, which is no JSON either.
    return res.json();
  } catch {
    return undefined;
  }
}

function retryAfterSeconds(res: RefinedResponse<ResponseType | undefined>): number {
  const value = Number(rawHeader(res.headers, HEADERS.retryAfter));
  return Number.isFinite(value) && value > 0 ? value : 1;
}

/** What k6 gets with a request: the client's headers, the endpoint's tags (and callback), the timeout. */
interface RequestParams {
  headers: Record<string, string>;
  timeout: string;
  tags: Record<string, string>;
  responseCallback?: ReturnType<typeof http.expectedStatuses>;
  /**
   * Setup calls read their answers whatever the scenario does with its own: "text" keeps their bodies when the
   * scenario discards bodies (discardResponseBodies, scenarios/capacity.ts).
   */
  responseType?: "text";
}

/**
 * Where a resource may have been withdrawn since it was listed (withdrawn.ts), 404 and 410 are the contract's answers,
 * not failed requests (429 stays expected, as for every endpoint: partner.ts); the status checks judge each.
 */
const WITHDRAWN_IS_EXPECTED = http.expectedStatuses({ min: 200, max: 399 }, 404, 410, 429);

/** Per phase and endpoint, the tags of its requests: made once per VU and shared by all its clients (every key's). */
const TAGS: Record<ClientOptions["phase"], Partial<Record<EndpointName, Record<string, string>>>> = {
  load: {},
  setup: {},
};

function tagsOf(endpoint: EndpointName, phase: ClientOptions["phase"]): Record<string, string> {
  let tags = TAGS[phase][endpoint];
  if (!tags) {
    const name = ENDPOINTS[endpoint].path;
    tags = phase === "load" ? { endpoint, name } : { phase: "setup", name };
    TAGS[phase][endpoint] = tags;
  }
  return tags;
}

export class ApiClient {
  readonly options: ClientOptions;
  /**
   * The headers of requests without and with a JSON body. A VU keeps a client per key (partner.ts), so what a client
   * keeps per endpoint would be kept for every key in every VU: a soak's k6 grew by tens of MB filling such tables
   * (docs/performance.md, k6's memory in a soak). The params object itself is made per request, from shared parts.
   */
  private readonly plainHeaders: Record<string, string>;
  private readonly bodyHeaders: Record<string, string>;

  constructor(options: ClientOptions) {
    this.options = options;
    // gzip accepted, as partners' HTTP clients do, so a service that compresses is judged compressed; k6 asks for no
    // coding by itself and decodes gzip, deflate, br and zstd answers before the script reads them.
    this.plainHeaders = { [HEADERS.auth]: options.apiKey, Accept: "application/json", "Accept-Encoding": "gzip" };
    this.bodyHeaders = { ...this.plainHeaders, "Content-Type": "application/json" };
  }

  private paramsFor(endpoint: EndpointName, withBody: boolean): RequestParams {
    const headers = withBody ? this.bodyHeaders : this.plainHeaders;
    const { timeout, phase } = this.options;
    const tags = tagsOf(endpoint, phase);
    // Elsewhere no responseCallback key at all, so k6 applies the default one (partner.ts).
    const params: RequestParams = WITHDRAWABLE_ENDPOINTS.has(endpoint)
      ? { headers, timeout, tags, responseCallback: WITHDRAWN_IS_EXPECTED }
      : { headers, timeout, tags };
    if (phase === "setup") params.responseType = "text";
    return params;
  }

  /** Sends one request to a named endpoint and parses the answer; the building block of the typed functions. */
  call<T>(
    endpoint: EndpointName,
    params: Readonly<Record<string, string>> = {},
    request: { query?: Query; body?: Json; url?: string } = {},
  ): ApiResponse<T> {
    const url = request.url ?? `${this.options.baseUrl}${fillRoute(endpoint, params)}${queryString(request.query)}`;
    return this.send<T>(endpoint, url, request.body);
  }

  /** Sends to a URL already built: the typed functions build theirs without a parameter object. */
  private send<T>(endpoint: EndpointName, url: string, body?: Json): ApiResponse<T> {
    const method = ENDPOINTS[endpoint].method;
    const httpParams = this.paramsFor(endpoint, body !== undefined);
    const payload = body ? JSON.stringify(body) : null;
    const expectations = this.options.expectations;
    const firstSentAt = Date.now();
    let sentAt = firstSentAt;
    let res = http.request(method, url, payload, httpParams);
    let waited = 0;
    if (res.status === 429) {
      throttles.add(1, { endpoint });
      if (this.options.onThrottle === "wait") {
        waited = Math.min(retryAfterSeconds(res), this.options.maxThrottleWaitSeconds);
        throttleWaitSeconds.add(waited, { endpoint });
        sleep(waited);
        sentAt = Date.now();
        res = http.request(method, url, payload, httpParams);
        if (res.status === 429) throttles.add(1, { endpoint });
      }
    }
    const response = new LazyApiResponse<T>(endpoint, res, waited, this.options.apiKey, sentAt);
    expectations?.afterCall(response, firstSentAt);
    return response;
  }

  private url(endpoint: EndpointName, first: string, second?: string, query?: Query): string {
    return `${this.options.baseUrl}${pathOf(endpoint, first, second)}${queryString(query)}`;
  }

  listProducts(query?: Query): ApiResponse<Json[]> {
    return this.send("products", `${this.options.baseUrl}${ENDPOINTS.products.path}${queryString(query)}`);
  }

  getProduct(uuid: string, query?: Query): ApiResponse<Json> {
    return this.send("product", this.url("product", uuid, undefined, query));
  }

  getProductRestrictions(uuid: string): ApiResponse<Json> {
    return this.send("productRestrictions", this.url("productRestrictions", uuid));
  }

  listProductTypes(uuid: string, query?: Query): ApiResponse<Json[]> {
    return this.send("productTypes", this.url("productTypes", uuid, undefined, query));
  }

  getProductType(uuid: string, query?: Query): ApiResponse<Json> {
    return this.send("productType", this.url("productType", uuid, undefined, query));
  }

  getPriceList(uuid: string, dateStart: string, dateEnd: string): ApiResponse<Json[]> {
    const query = `?date_start=${encodeURIComponent(dateStart)}&date_end=${encodeURIComponent(dateEnd)}`;
    return this.send("priceList", `${this.url("priceList", uuid)}${query}`);
  }

  getPriceForDate(uuid: string, date: string): ApiResponse<Json> {
    return this.send("priceListDate", this.url("priceListDate", uuid, date));
  }

  createBooking(request: BookingRequest): ApiResponse<Json> {
    return this.send("bookingCreate", `${this.options.baseUrl}${ENDPOINTS.bookingCreate.path}`, { ...request });
  }

  listBookings(query?: Query): ApiResponse<Json[]> {
    return this.send("bookings", `${this.options.baseUrl}${ENDPOINTS.bookings.path}${queryString(query)}`);
  }

  getBooking(uuid: string): ApiResponse<Json> {
    return this.send("booking", this.url("booking", uuid));
  }

  confirmBooking(uuid: string): ApiResponse<Json> {
    return this.send("bookingConfirm", this.url("bookingConfirm", uuid));
  }

  cancelBooking(uuid: string): ApiResponse<Json> {
    return this.send("bookingCancel", this.url("bookingCancel", uuid));
  }

  listVouchers(bookingUuid: string): ApiResponse<Json[]> {
    return this.send("vouchers", this.url("vouchers", bookingUuid));
  }

  /** Downloads a voucher file by the href of its link (absolute, or relative to the base URL). */
  downloadVoucherFile(href: string): ApiResponse<Json> {
    return this.send("voucherFile", /^https?:/.test(href) ? href : `${this.options.baseUrl}${href}`);
  }

  getConfig(): ApiResponse<Json> {
    return this.send("config", `${this.options.baseUrl}${ENDPOINTS.config.path}`);
  }
}

/**
 * An answer whose body is parsed on first use, once: parsing JSON is most of what a check costs inside k6, and a
 * load scenario often needs only the status and headers of an answer (the shape checks are sampled, checks.ts).
 * Fields are declared, not defined: the k6 bundle targets ES2020, where esbuild turns each defined field into a helper
 * call per object (and #private fields into WeakMaps).
 */
class LazyApiResponse<T> implements ApiResponse<T> {
  declare readonly endpoint: EndpointName;
  declare readonly status: number;
  declare readonly throttledSeconds: number;
  declare readonly apiKey: string | undefined;
  declare readonly sentAt: number;
  declare private readonly raw: RefinedResponse<ResponseType | undefined>;
  declare private parsed: { body: unknown; data: T | undefined; pagination: Pagination | undefined } | undefined;
  declare private lowerCased: Record<string, string> | undefined;
  declare private rawHeaders: Record<string, string> | undefined;
  declare private itemCount: number | undefined;

  constructor(
    endpoint: EndpointName,
    res: RefinedResponse<ResponseType | undefined>,
    throttledSeconds: number,
    apiKey: string | undefined,
    sentAt: number,
  ) {
    this.endpoint = endpoint;
    this.status = res.status;
    this.throttledSeconds = throttledSeconds;
    this.apiKey = apiKey;
    this.sentAt = sentAt;
    this.raw = res;
    // parsed, lowerCased, rawHeaders and itemCount start undefined: filled on first use.
  }

  get url(): string {
    return this.raw.url;
  }

  /** Reading all of k6's headers converts each into a script value: done only when the whole set is asked for. */
  get headers(): Record<string, string> {
    this.lowerCased ??= lowerCaseHeaders(this.raw.headers);
    return this.lowerCased;
  }

  /** One header by name, whatever its case on the wire, without converting the others. */
  header(name: string): string | undefined {
    if (this.lowerCased) return this.lowerCased[name.toLowerCase()];
    // k6 hands res.headers over as a view of its Go map, a new one on every read: kept for the answer's next header.
    this.rawHeaders ??= this.raw.headers;
    const value = (this.rawHeaders as Record<string, string | undefined>)[canonicalHeaderName(name)];
    // Not under Go's spelling (absent, or a name Go leaves as it is): look through all of them, converted once.
    return value !== undefined ? value : this.headers[name.toLowerCase()];
  }

  private parse(): { body: unknown; data: T | undefined; pagination: Pagination | undefined } {
    if (this.parsed) return this.parsed;
    const body = parseBody(this.raw, this.header("Content-Type"));
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

  itemAt(index: number): ItemOf<T> | undefined {
    if (this.parsed) {
      const data = this.parsed.data;
      return Array.isArray(data) && data.length > 0 ? (data[index % data.length] as ItemOf<T>) : undefined;
    }
    if (this.itemCount === undefined) {
      // A body whose data is not an array has no count.
      const count = this.selectInGo("data.#");
      this.itemCount = typeof count === "number" ? count : 0;
    }
    if (this.itemCount <= 0) return undefined;
    // A count means the body is JSON and was validated: the item is read straight away.
    const item: unknown = this.raw.json(`data.${index % this.itemCount}`);
    return isRecord(item) ? (item as ItemOf<T>) : undefined;
  }

  valuesWhere(flag: string, field: string): unknown[] {
    if (this.parsed) {
      const data = this.parsed.data;
      if (!Array.isArray(data)) return [];
      const values: unknown[] = [];
      for (const item of data as unknown[]) {
        if (isRecord(item) && item[flag] === true && item[field] !== undefined) values.push(item[field]);
      }
      return values;
    }
    const values = this.selectInGo(`data.#(${flag}==true)#.${field}`);
    return Array.isArray(values) ? values : [];
  }

  /**
   * A gjson path on the body, in Go: the body is validated once and scanned to what the path names; nothing else
   * becomes a script value. Undefined when the answer is not JSON or has no body (discarded, or the request failed).
   */
  private selectInGo(path: string): unknown {
    if (this.status === 0 || !(this.header("Content-Type") ?? "").includes("json")) return undefined;
    try {
      return this.raw.json(path);
    } catch {
      return undefined;
    }
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
  apiKey?: string,
  sentAt = 0,
): ApiResponse<T> {
  return new LazyApiResponse<T>(endpoint, res, throttledSeconds, apiKey, sentAt);
}
