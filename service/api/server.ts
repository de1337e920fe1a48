/**
 * The partner API listener: auth, routing, the shared rate limit, faults, OPTIONS, and the error envelope.
 * Hot path (GET of a listed endpoint): one header lookup, one route scan, one Map per limiter, one JSON.stringify
 * (a fault's latencyFactor adds two clock reads and a timer only where a rule sets it above 1).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import {
  BOOKING_LIST_ITEM_KEYS,
  ENDPOINTS,
  ERROR_CODES,
  PRICE_LIST_ENTRY_KEYS,
  PRODUCT_DETAIL_KEYS,
  PRODUCT_LIST_ITEM_KEYS,
  PRODUCT_TYPE_DETAIL_KEYS,
  PRODUCT_TYPE_SUMMARY_KEYS,
  SINGLE_DATE_PRICE_KEYS,
  VOUCHER_FILE_KEYS,
  type EndpointName,
} from "../../lib/contract/index.ts";
import { HttpError, defineRoute, errorBody, matchRoute, readBody, send, type Reply, type Route } from "../http.ts";
import { PARTNER_API_DOCUMENT_PATH } from "../../lib/contract/openapi.ts";
import { partnerApiDocumentReply } from "../openapi.ts";
import type { Metrics } from "../metrics.ts";
import { leakPerRequest } from "../defects/soak-memory-leak.ts";
import { slowdownMs } from "../defects/soak-slowdown.ts";
import { camelCaseParameters } from "../defects/conformance-query-camel-case.ts";
import type { Partner } from "../partners.ts";
import type { RateDecision } from "../ratelimit.ts";
import type { ServiceState } from "../state.ts";
import {
  cancelBooking,
  confirmBooking,
  createBooking,
  getBooking,
  listBookings,
  listVouchers,
  voucherFile,
} from "./bookings.ts";
import { getConfig, getProduct, getProductType, getRestrictions, listProductTypes, listProducts } from "./catalogue.ts";
import type { ApiContext, ApiHandler } from "./context.ts";
import { priceList, priceListDate } from "./prices.ts";
import { wireChoicesOf, wireOptionsOf, wireReply } from "./wire.ts";

interface Described {
  handler: ApiHandler;
  endpoint: EndpointName;
  parameters: string[];
  keys: readonly string[];
}

type ApiRoute = Route<Described>;

const d = (endpoint: EndpointName, handler: ApiHandler, parameters: string[], keys: readonly string[]): Described => ({
  handler,
  endpoint,
  parameters,
  keys,
});

const LIST_PARAMS = ["page", "per_page"];

export const API_ROUTES: readonly ApiRoute[] = [
  defineRoute("products", ENDPOINTS.products.path, {
    GET: d(
      "products",
      listProducts,
      [...LIST_PARAMS, "language", "sort", "type", "category", "country", "city"],
      PRODUCT_LIST_ITEM_KEYS,
    ),
  }),
  defineRoute("product", ENDPOINTS.product.path, {
    GET: d("product", getProduct, ["fields", "language"], PRODUCT_DETAIL_KEYS),
  }),
  defineRoute("productRestrictions", ENDPOINTS.productRestrictions.path, {
    GET: d(
      "productRestrictions",
      getRestrictions,
      [],
      ["productUuid", "mode", "allowedCountries", "excludedCountries"],
    ),
  }),
  defineRoute("productTypes", ENDPOINTS.productTypes.path, {
    GET: d("productTypes", listProductTypes, LIST_PARAMS, PRODUCT_TYPE_SUMMARY_KEYS),
  }),
  defineRoute("productType", ENDPOINTS.productType.path, {
    GET: d("productType", getProductType, ["fields", "language"], PRODUCT_TYPE_DETAIL_KEYS),
  }),
  defineRoute("priceList", ENDPOINTS.priceList.path, {
    GET: d("priceList", priceList, ["date_start", "date_end"], PRICE_LIST_ENTRY_KEYS),
  }),
  defineRoute("priceListDate", ENDPOINTS.priceListDate.path, {
    GET: d("priceListDate", priceListDate, [], SINGLE_DATE_PRICE_KEYS),
  }),
  defineRoute("bookings", ENDPOINTS.bookings.path, {
    GET: d(
      "bookings",
      listBookings,
      [
        ...LIST_PARAMS,
        "date_start",
        "date_end",
        "first_name",
        "last_name",
        "email",
        "phone",
        "partner_reference",
        "status",
      ],
      BOOKING_LIST_ITEM_KEYS,
    ),
    POST: d(
      "bookingCreate",
      createBooking,
      [
        "productTypeUuid",
        "date",
        "timeslot",
        "adults",
        "children",
        "seniors",
        "customer",
        "options",
        "partnerReference",
      ],
      [],
    ),
  }),
  defineRoute("booking", ENDPOINTS.booking.path, { GET: d("booking", getBooking, [], []) }),
  defineRoute("bookingConfirm", ENDPOINTS.bookingConfirm.path, {
    PUT: d("bookingConfirm", confirmBooking, [], []),
  }),
  defineRoute("bookingCancel", ENDPOINTS.bookingCancel.path, { PUT: d("bookingCancel", cancelBooking, [], []) }),
  defineRoute("vouchers", ENDPOINTS.vouchers.path, { GET: d("vouchers", listVouchers, [], VOUCHER_FILE_KEYS) }),
  defineRoute("voucherFile", ENDPOINTS.voucherFile.path, { GET: d("voucherFile", voucherFile, [], []) }),
  defineRoute("config", ENDPOINTS.config.path, { GET: d("config", getConfig, [], []) }),
];

const BOOKING_ENDPOINTS: ReadonlySet<string> = new Set([
  "bookingCreate",
  "bookings",
  "booking",
  "bookingConfirm",
  "bookingCancel",
  "vouchers",
  "voucherFile",
]);

function rateBucket(state: ServiceState, partner: Partner, endpoint: string): string {
  let bucket = partner.apiKey;
  if (state.defects.on("rate-limit-shared-keys")) bucket = `pair:${partner.index >> 1}`;
  if (state.defects.on("rate-limit-per-endpoint")) bucket = `${bucket}|${endpoint}`;
  return bucket;
}

/** Per service state, bucket and endpoint: requests in the bucket's current window (rate-limit-remaining-per-endpoint). */
const endpointCounts = new WeakMap<ServiceState, Map<string, { resetMs: number; count: number }>>();

/** The defect's Remaining: the limit less what this endpoint alone was asked in the window. */
function endpointRemaining(state: ServiceState, decision: RateDecision, bucket: string, endpoint: string): number {
  let counts = endpointCounts.get(state);
  if (counts === undefined) {
    counts = new Map();
    endpointCounts.set(state, counts);
  }
  const id = `${bucket}|${endpoint}`;
  let counted = counts.get(id);
  if (counted === undefined || counted.resetMs !== decision.resetMs) {
    counted = { resetMs: decision.resetMs, count: 0 };
    counts.set(id, counted);
  }
  counted.count += 1;
  return Math.max(0, decision.limit - counted.count);
}

/** Answers counted so far, for rate-limit-limit-flaps: every other one carries the stale configuration's limit. */
let limitAnswers = 0;

function rateHeaders(
  state: ServiceState,
  decision: RateDecision,
  now: number,
  bucket: string,
  endpoint: string,
): Record<string, string> {
  let remaining = decision.remaining;
  if (state.defects.on("rate-limit-remaining-off-by-one")) remaining = Math.min(decision.limit, remaining + 1);
  if (state.defects.on("rate-limit-remaining-is-limit")) remaining = decision.limit;
  if (state.defects.on("rate-limit-remaining-per-endpoint"))
    remaining = endpointRemaining(state, decision, bucket, endpoint);
  const stale = state.defects.on("rate-limit-limit-flaps") && limitAnswers++ % 2 === 1;
  return {
    "X-RateLimit-Limit": String(stale ? decision.limit + 100 : decision.limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": resetValue(state, decision, now),
  };
}

function resetValue(state: ServiceState, decision: RateDecision, now: number): string {
  if (state.defects.on("rate-limit-reset-ms")) return String(Math.ceil(decision.resetMs));
  if (state.defects.on("rate-limit-reset-relative"))
    return String(Math.max(1, Math.ceil((decision.resetMs - now) / 1000)));
  return String(Math.ceil(decision.resetMs / 1000));
}

function tooManyRequests(
  state: ServiceState,
  decision: RateDecision,
  now: number,
  path: string,
  method: string,
): Reply {
  // Whole seconds, at least 1: the seconds left rounded up, or down under rate-limit-retry-after-floor.
  const round = state.variations.on("rate-limit-retry-after-floor") ? Math.floor : Math.ceil;
  const retryAfter = Math.max(1, round((decision.resetMs - now) / 1000));
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": "0",
    "X-RateLimit-Reset": resetValue(state, decision, now),
  };
  if (!state.defects.on("rate-limit-missing-retry-after")) {
    headers["Retry-After"] = String(state.defects.on("rate-limit-retry-after-ms") ? retryAfter * 1000 : retryAfter);
  }
  if (state.defects.on("rate-limit-html-429")) {
    return {
      status: 429,
      body: "<html><body><h1>429 Too Many Requests</h1></body></html>",
      contentType: "text/html; charset=utf-8",
      headers,
    };
  }
  const code = state.defects.on("rate-limit-wrong-error-code") ? "RATE_LIMITED" : ERROR_CODES.tooManyRequests;
  const message = `Rate limit of ${decision.limit} requests exceeded; retry after ${retryAfter} s.`;
  return {
    status: 429,
    body: errorBody({ code, message, status: 429 }, path, method, state.now()),
    headers,
  };
}

async function consumeAllowance(state: ServiceState, bucket: string): Promise<RateDecision> {
  if (!state.defects.on("rate-limit-counter-race")) return state.limiter.consume(bucket, Date.now());
  // The defect: read the counter, yield, then write back what was read plus this request (lost updates).
  const before = state.limiter.snapshot(bucket);
  await delay(3);
  state.limiter.restore(bucket, before);
  return state.limiter.consume(bucket, Date.now());
}

function describe(match: ApiRoute, path: string): Reply {
  const methods = Object.keys(match.handlers);
  const allow = [...methods, "OPTIONS"].join(", ");
  return {
    status: 200,
    headers: { Allow: allow },
    body: {
      data: {
        path: match.template,
        methods: Object.entries(match.handlers).map(([method, h]) => ({
          method,
          endpoint: h?.endpoint,
          rateLimited: h !== undefined && ENDPOINTS[h.endpoint].rateLimited,
          parameters: h?.parameters ?? [],
          keys: h?.keys ?? [],
        })),
      },
      links: [{ rel: "self", href: path, method: "OPTIONS" }],
    },
  };
}

/** An answer given before routing (a defect's, or the published contract's), counted as a 200 of `routeName`. */
interface Shortcut {
  routeName: string;
  reply: Reply;
}

/** How much longer a request on a route with a latencyFactor takes: `factor` times the time since `from`. */
interface Stretch {
  factor: number;
  from: number;
}

export function createApiHandler(state: ServiceState, metrics: Metrics) {
  const wire = wireChoicesOf(state);
  /** Writes an answer as the wire variations say (none: as it is); `endpoint` undefined for a self-description. */
  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    endpoint: string | undefined,
    reply: Reply,
    extraHeaders?: Record<string, string>,
  ): void => {
    if (wire === undefined) send(res, reply, extraHeaders);
    else send(res, wireReply(wire, endpoint, reply), extraHeaders, wireOptionsOf(wire, req));
  };
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    const method = req.method ?? "GET";
    let routeName = "unknown";
    /** The endpoint whose handler answers; undefined for OPTIONS and failures before routing. */
    let endpoint: string | undefined;
    let extraHeaders: Record<string, string> | undefined;
    let reply: Reply;
    const stretch: Stretch = { factor: 0, from: 0 };
    // HTTP/1.1 lets a server close the connection after any answer; a client must then open a new one.
    if (state.variations.on("http-connection-close")) res.setHeader("Connection", "close");
    try {
      const key = req.headers["x-authorization"];
      const known = typeof key === "string" ? state.partners.get(key) : undefined;
      const shortcut =
        known === undefined ? keylessShortcut(state, path, method) : contractShortcut(state, path, method);
      if (shortcut !== undefined) {
        metrics.request(shortcut.routeName, 200);
        answer(req, res, undefined, shortcut.reply);
        return;
      }
      const partner = known ?? partnerWithoutKey(state, key, path, method);
      const approveAsConfirm = method === "PUT" && state.defects.on("conformance-approve-segment-confirms");
      const match = matchRoute(API_ROUTES, approveAsConfirm ? path.replace(/\/approve$/, "/confirm") : path);
      if (match === undefined) throw new HttpError(404, ERROR_CODES.notFound, `No resource at ${path}.`);
      routeName = match.route.name;
      if (method === "OPTIONS") {
        reply = optionsReply(state, match.route, path);
      } else {
        const described = match.route.handlers[method];
        if (described === undefined) throw methodNotAllowed(state, match.route, method, path);
        routeName = described.endpoint;
        endpoint = described.endpoint;
        const limit = await spendAllowance(state, partner, described.endpoint, path, method);
        if (limit.refused) {
          metrics.request(routeName, limit.refused.status);
          answer(req, res, endpoint, limit.refused);
          return;
        }
        extraHeaders = limit.headers;
        await injectFaults(state, described.endpoint, path, stretch);
        const body = method === "POST" || method === "PUT" ? await readBodyOf(state, req) : undefined;
        const ctx: ApiContext = { state, partner, method, path, params: match.params, query: queryOf(url, q), body };
        reply = await described.handler(ctx);
      }
    } catch (error) {
      reply = errorReplyWithDefects(state, error, path, method);
    }
    // Errors of the handler and injected 500s too: the whole request on that route takes factor times as long.
    if (stretch.factor > 0) await delay(stretch.factor * (performance.now() - stretch.from));
    if (reply.status === 413) cutOffUnfinishedBody(req, res);
    if (!res.headersSent && !res.writableEnded) {
      if (reply.status >= 400 && reply.body === undefined) reply.body = {};
      metrics.request(routeName, reply.status);
      answer(req, res, endpoint, reply, extraHeaders);
    }
  };
}

/** conformance-options-without-key: OPTIONS of a known path is described to a request without a valid key. */
function keylessShortcut(state: ServiceState, path: string, method: string): Shortcut | undefined {
  if (!state.defects.on("conformance-options-without-key") || method !== "OPTIONS") return undefined;
  const described = matchRoute(API_ROUTES, path);
  return described && { routeName: described.route.name, reply: describe(described.route, path) };
}

/** The published contract (docs/partner-api.openapi.yaml), and the booking check conformance-booking-check-kept keeps. */
function contractShortcut(state: ServiceState, path: string, method: string): Shortcut | undefined {
  // Behind the key like every path of the API.
  if (path === PARTNER_API_DOCUMENT_PATH && method === "GET") {
    return { routeName: "openapi", reply: partnerApiDocumentReply() };
  }
  if (state.defects.on("conformance-booking-check-kept") && method === "POST" && path === "/v2/bookings/check") {
    return {
      routeName: "bookings",
      reply: { status: 200, body: { data: { available: true }, links: [{ rel: "self", href: path, method: "POST" }] } },
    };
  }
  return undefined;
}

/** A request without a valid key: 401, unless conformance-voucher-download-without-key hands a voucher to anyone. */
function partnerWithoutKey(
  state: ServiceState,
  key: string | string[] | undefined,
  path: string,
  method: string,
): Partner {
  const owner =
    state.defects.on("conformance-voucher-download-without-key") && method === "GET"
      ? voucherOwner(state, path)
      : undefined;
  if (owner !== undefined) return owner;
  throw new HttpError(
    401,
    ERROR_CODES.unauthorized,
    key === undefined ? "The X-Authorization header is missing." : "The API key in X-Authorization is not valid.",
  );
}

/** OPTIONS: the route's self-description, as its conformance defects change it. */
function optionsReply(state: ServiceState, route: ApiRoute, path: string): Reply {
  const reply = describe(route, path);
  if (state.defects.on("conformance-query-camel-case")) camelCaseParameters(reply.body);
  if (state.defects.on("conformance-options-no-allow")) delete reply.headers;
  return reply;
}

/** 405 with the methods the route allows (404 under conformance-405-as-404). */
function methodNotAllowed(state: ServiceState, route: ApiRoute, method: string, path: string): HttpError {
  if (state.defects.on("conformance-405-as-404")) {
    return new HttpError(404, ERROR_CODES.notFound, `No resource at ${path}.`);
  }
  return new HttpError(405, ERROR_CODES.methodNotAllowed, `${method} is not allowed on ${route.template}.`, undefined, {
    Allow: [...Object.keys(route.handlers), "OPTIONS"].join(", "),
  });
}

/**
 * Spends one request of the partner's allowance on a rate-limited endpoint: the 429 when none is left, else the
 * rate-limit headers of the answer (none for an endpoint outside the limit).
 */
async function spendAllowance(
  state: ServiceState,
  partner: Partner,
  endpoint: EndpointName,
  path: string,
  method: string,
): Promise<{ refused?: Reply; headers?: Record<string, string> }> {
  const counted =
    ENDPOINTS[endpoint].rateLimited ||
    (BOOKING_ENDPOINTS.has(endpoint) && state.defects.on("rate-limit-counts-bookings"));
  if (!counted) return {};
  const now = Date.now();
  const bucket = rateBucket(state, partner, endpoint);
  const decision = await consumeAllowance(state, bucket);
  if (!decision.allowed) return { refused: tooManyRequests(state, decision, now, path, method) };
  return { headers: rateHeaders(state, decision, now, bucket, endpoint) };
}

/**
 * The soak defects and the control API's faults on the endpoint: latency, injected 500s, and the start of a
 * latencyFactor's stretch (set before an injected 500 is thrown, so that it is stretched too).
 */
async function injectFaults(
  state: ServiceState,
  endpoint: EndpointName,
  path: string,
  stretch: Stretch,
): Promise<void> {
  if (state.defects.on("soak-memory-leak")) leakPerRequest(path);
  if (state.defects.on("soak-slowdown")) await delay(slowdownMs());
  const fault = state.faults.routes[endpoint] ?? state.faults.default;
  // latencyFactor: what follows (fixed latency, handler) is timed, then waited (factor - 1) times more.
  if (fault.latencyFactor > 1) {
    stretch.factor = fault.latencyFactor - 1;
    stretch.from = performance.now();
  }
  if (fault.latencyMs > 0) await delay(fault.latencyMs);
  if (fault.errorRate > 0 && state.random.next() < fault.errorRate) {
    throw new HttpError(500, ERROR_CODES.internal, "Injected fault (control API).");
  }
}

/** The error's reply, as the conformance defects of error answers change it. */
function errorReplyWithDefects(state: ServiceState, error: unknown, path: string, method: string): Reply {
  const reply = errorReply(state, error, path, method);
  if (reply.status === 401 && state.defects.on("conformance-401-plain-text")) {
    return { status: 401, body: "401 Unauthorized\n", contentType: "text/plain; charset=utf-8" };
  } else if (reply.status === 401 && state.defects.on("conformance-401-wrong-code")) {
    const body = reply.body as { error: { code: string } };
    body.error.code = "unauthorized";
  } else if (reply.status === 500 && state.defects.on("conformance-500-html")) {
    return { status: 500, body: "<html><body><h1>Internal Server Error</h1></body></html>", contentType: "text/html" };
  } else if (reply.status === 404 && state.defects.on("conformance-404-html")) {
    return { status: 404, body: "<html><body><h1>404 Not Found</h1></body></html>", contentType: "text/html" };
  } else if (reply.status === 404 && state.defects.on("conformance-404-without-timestamp")) {
    const { timestamp: _dropped, ...rest } = reply.body as Record<string, unknown>;
    return { ...reply, body: rest };
  }
  return reply;
}

/**
 * An oversized body is drained, not read (readBody); a client still sending it gets a moment to finish and read the
 * 413 (cutting it off at once can reset the connection before it reads the answer); one that keeps sending is cut off.
 */
function cutOffUnfinishedBody(req: IncomingMessage, res: ServerResponse): void {
  res.once("finish", () => {
    if (req.complete) return;
    const cutOff = setTimeout(() => req.destroy(), 2000);
    cutOff.unref();
    req.once("end", () => {
      clearTimeout(cutOff);
    });
  });
}

/** The partner of the booking a voucher file path names (conformance-voucher-download-without-key). */
function voucherOwner(state: ServiceState, path: string): Partner | undefined {
  const match = matchRoute(API_ROUTES, path);
  if (match?.route.name !== "voucherFile") return undefined;
  return state.bookings.store.byUuid.get(match.params.bookingUuid ?? "")?.partner;
}

/** The body of a POST or PUT; conformance-payload-too-large-500 turns its 413 into a 500. */
async function readBodyOf(state: ServiceState, req: IncomingMessage): Promise<Buffer> {
  try {
    return await readBody(req);
  } catch (error) {
    if (error instanceof HttpError && error.status === 413 && state.defects.on("conformance-payload-too-large-500")) {
      throw new HttpError(500, ERROR_CODES.internal, "Internal error.");
    }
    throw error;
  }
}

function queryOf(url: string, q: number): URLSearchParams {
  return q === -1 ? new URLSearchParams() : new URLSearchParams(url.slice(q + 1));
}

export function errorReply(state: ServiceState, error: unknown, path: string, method: string): Reply {
  if (error instanceof HttpError) {
    const reply: Reply = {
      status: error.status,
      body: errorBody(
        { code: error.code, message: error.message, status: error.status, extra: error.extra },
        path,
        method,
        state.now(),
      ),
    };
    if (error.headers !== undefined) reply.headers = error.headers;
    return reply;
  }
  process.stderr.write(
    `internal error on ${method} ${path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return {
    status: 500,
    body: errorBody({ code: ERROR_CODES.internal, message: "Internal error.", status: 500 }, path, method, state.now()),
  };
}
