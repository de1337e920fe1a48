/**
 * The judge of 1-links-self (lib/k6/conformance/links-rules.ts) against a small service behind the k6 shims: every
 * answer carries self, unless the test takes it from the answers of some paths. The judge reads every kind of answer,
 * names each that lacks self, and cancels the booking it made.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import {
  sendRaw,
  type ConformanceContext,
  type FoundProductType,
  type RawRequest,
} from "../../lib/k6/conformance/judge.ts";
import { LINKS_JUDGES, answerLinksProblem } from "../../lib/k6/conformance/links-rules.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";

const BASE = "http://svc.test";
const KEY = "key-1";
const PRODUCT = "11111111-1111-4111-8111-111111111111";
const TYPE = "22222222-2222-4222-8222-222222222222";
const BOOKING = "33333333-3333-4333-8333-333333333333";
const PROBE = "2030-01-07";

/** Paths (as a pattern) whose answers carry their own link under rel canonical instead of self. */
let withoutSelf: RegExp | undefined;
/** Refuse every booking (no seat anywhere). */
let fullyBooked = false;
let cancelled: string[] = [];

function json(status: number, body: unknown): ShimResponse {
  return { status, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

function links(path: string, method = "GET") {
  return [{ rel: withoutSelf?.test(path) ? "canonical" : "self", href: path, method }];
}

const list = (path: string, data: unknown[]) => {
  const pagination = { total: data.length, count: data.length, per_page: 10, current_page: 1, total_pages: 1 };
  return json(200, { data, meta: { pagination }, links: links(path) });
};

function error(status: number, code: string, path: string): ShimResponse {
  return json(status, { error: { code, message: code, http_code: status }, links: links(path), timestamp: "x" });
}

const productItem = { uuid: PRODUCT, links: [{ rel: "self", href: `/v2/products/${PRODUCT}`, method: "GET" }] };
const entry = { date: PROBE, available: true, timeslots: [] };
const booking = { uuid: BOOKING, status: "reserved" };

function service(method: string, url: string, _body: string | null, params: { headers?: Record<string, string> }) {
  const { pathname: path } = new URL(url);
  if (params.headers?.["X-Authorization"] !== KEY) return error(401, "GEN-UNAUTHORIZED", path);
  const detail = (data: unknown, status = 200) => json(status, { data, links: links(path, method) });
  if (path === "/v2/products") return list(path, [productItem]);
  if (path === `/v2/products/${PRODUCT}`) return detail(productItem);
  if (path === `/v2/products/${PRODUCT}/restrictions`) return detail({ productUuid: PRODUCT, mode: "none" });
  if (path === `/v2/products/${PRODUCT}/product-types`) return list(path, [{ uuid: TYPE }]);
  if (path === `/v2/product-types/${TYPE}`) return detail({ uuid: TYPE });
  if (path === `/v2/product-types/${TYPE}/price-lists`) return list(path, [entry]);
  if (path === `/v2/product-types/${TYPE}/price-lists/${PROBE}`) return detail(entry);
  if (path === "/v2/config") return detail({ languages: ["en"] });
  if (path === "/v2/bookings" && method === "POST")
    return fullyBooked ? error(422, "invalid_data", path) : detail(booking, 201);
  if (path === "/v2/bookings") return list(path, [booking]);
  if (path === `/v2/bookings/${BOOKING}`) return detail(booking);
  if (path === `/v2/bookings/${BOOKING}/cancel`) {
    cancelled.push(BOOKING);
    return detail({ ...booking, status: "cancelled" });
  }
  return error(404, "not_found", path);
}

const TYPE_FOUND: FoundProductType = {
  uuid: TYPE,
  productUuid: PRODUCT,
  available: true,
  timeslots: [],
  instantConfirmation: true,
  daysInAdvance: 0,
  minPax: 1,
  maxPax: 10,
  categories: ["adults"],
  requiredOptions: [],
  timeslotted: false,
};

function context(): ConformanceContext {
  const client = new ApiClient({
    baseUrl: BASE,
    apiKey: KEY,
    timeout: "5s",
    phase: "setup",
    onThrottle: "return",
    maxThrottleWaitSeconds: 1,
  });
  const raw = (request: RawRequest) => sendRaw(BASE, KEY, request);
  const config = loadConfig({ ATD_BASE_URL: BASE, ATD_API_KEYS: KEY });
  return { config, client, raw, productTypes: [TYPE_FOUND], probeDate: PROBE, hooks: false };
}

const judge = () => LINKS_JUDGES["1-links-self"]?.(context());

beforeEach(() => {
  k6State.reset();
  k6State.handler = service;
  withoutSelf = undefined;
  fullyBooked = false;
  cancelled = [];
});

describe("1-links-self", () => {
  it("should pass when every answer carries self, after reading every kind of answer and cancelling its booking", () => {
    expect(judge()).toEqual({ problem: undefined });
    const asked = k6State.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`);
    expect(new Set(asked)).toEqual(
      new Set([
        "GET /v2/products",
        `GET /v2/products/${PRODUCT}`,
        `GET /v2/products/${PRODUCT}/restrictions`,
        `GET /v2/products/${PRODUCT}/product-types`,
        `GET /v2/product-types/${TYPE}`,
        `GET /v2/product-types/${TYPE}/price-lists`,
        `GET /v2/product-types/${TYPE}/price-lists/${PROBE}`,
        "GET /v2/config",
        "POST /v2/bookings",
        `GET /v2/bookings/${BOOKING}`,
        "GET /v2/bookings",
        `PUT /v2/bookings/${BOOKING}/cancel`,
      ]),
    );
    expect(cancelled).toEqual([BOOKING]);
  });

  it("should fail a product-type detail without self, naming it alone with its evidence", () => {
    withoutSelf = new RegExp(`^/v2/product-types/${TYPE}$`);
    const verdict = judge() as { problem: string };
    expect(verdict.problem).toMatch(
      /^1 answer\(s\): the product-type detail: the answer: no self link \(rels: canonical\): GET \/v2\/product-types\/2{8}\S+ -> 200/,
    );
    expect(cancelled).toEqual([BOOKING]);
  });

  it("should name every answer that lacks self, the booking's and a refusal's included", () => {
    withoutSelf = /^\/v2\/(bookings\/[^/]+|config)$/;
    const problem = (judge() as { problem: string }).problem;
    expect(problem).toMatch(/^3 answer\(s\): /);
    expect(problem).toMatch(/the config: the answer: no self link/);
    expect(problem).toMatch(/the booking detail: the answer: no self link/);
    expect(problem).toMatch(/a 401 answer: the answer: no self link .*GET \/v2\/config -> 401/);
  });

  it("should hold the links of a detail's data and of list items to {rel, href, method}", () => {
    expect(answerLinksProblem({ data: [{ links: [{ rel: "self" }] }], links: links("/x") })).toMatch(
      /^item 0: link \{"rel":"self"\} is not \{rel, href, method\}/,
    );
    expect(answerLinksProblem({ data: { links: "none" }, links: links("/x") })).toMatch(/^its data: links is "none"/);
    // A nested record's links need no self (a voucher's link is its file).
    const file = { data: { links: [{ rel: "file", href: "/f", method: "GET" }] }, links: links("/x") };
    expect(answerLinksProblem(file)).toBeUndefined();
    expect(answerLinksProblem("<html>")).toBe("the body is not a JSON object");
  });

  it("should not judge the rule when no booking can be made and the rest carries self, but fail it when not", () => {
    fullyBooked = true;
    expect(judge()).toEqual({
      notJudged: expect.stringMatching(/^the catalogue's answers and a refusal carry self, but no booking/) as string,
    });
    withoutSelf = /^\/v2\/config$/;
    expect(judge()).toEqual({ problem: expect.stringMatching(/the config: the answer: no self link/) as string });
  });

  it("should leave 429s to the rate-limit rules", () => {
    k6State.handler = (method, url, body, params) =>
      new URL(url).pathname === `/v2/product-types/${TYPE}`
        ? { ...error(429, "GEN-TOO-MANY-REQUESTS", "/x"), body: "{}" }
        : service(method, url, body, params);
    expect(judge()).toEqual({ problem: undefined });
  });
});
