import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  BOOKING_DETAIL_REQUIRED_KEYS,
  PRODUCT_TYPE_DETAIL_KEYS,
  PRODUCT_TYPE_SUMMARY_KEYS,
} from "../../lib/contract/index.ts";
import { CHEAP_RULES } from "../../lib/k6/cheap-rules.ts";
import { checkResponse, checkRateLimitHeaders, checkShape, checkStatus } from "../../lib/k6/checks.ts";
import { ApiClient, header } from "../../lib/k6/client.ts";
import { k6State } from "../shims/k6-state.ts";

const client = new ApiClient({
  baseUrl: "http://127.0.0.1:9",
  apiKey: "key-1",
  timeout: "5s",
  phase: "load",
  onThrottle: "wait",
  maxThrottleWaitSeconds: 60,
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

const TYPE_UUID = "0b6c3f5e-8d5a-4a51-9f39-6a0b8f1d2c11";
const summary = { uuid: TYPE_UUID, title: "t", links: [{ rel: "self", href: "/v2/product-types/x", method: "GET" }] };
const list = (items: unknown[]) => ({
  data: items,
  meta: { pagination: { total: 1, count: 1, per_page: 10, current_page: 1, total_pages: 1 } },
  links: [{ rel: "self", href: "/v2/products/x/product-types", method: "GET" }],
});

beforeEach(() => {
  k6State.reset();
});

describe("ApiClient", () => {
  it("should tag setup requests with the phase only, keeping them out of per-endpoint figures", () => {
    const setup = new ApiClient({ ...client.options, phase: "setup" });
    setup.listProducts();
    expect(k6State.requests[0]?.params.tags).toEqual({ phase: "setup", name: "/v2/products" });
  });

  it("should tag requests with the endpoint name and path template, never the raw URL", () => {
    k6State.handler = () => json(200, list([summary]));
    client.listProductTypes("0b4a1c1e-0000-4000-8000-000000000001");
    const sent = k6State.requests[0];
    expect(sent?.url).toBe("http://127.0.0.1:9/v2/products/0b4a1c1e-0000-4000-8000-000000000001/product-types");
    expect(sent?.params.tags).toEqual({ endpoint: "productTypes", name: "/v2/products/{uuid}/product-types" });
    expect(sent?.params.headers?.["X-Authorization"]).toBe("key-1");
  });

  it("should fill path parameters in template order, encoded, with the query after", () => {
    client.getPriceForDate("t/1", "2030-01-02");
    client.getProduct("p 1", { language: "de" });
    client.getPriceList("t1", "2030-01-01", "2030-01-14");
    client.call("vouchers", { bookingUuid: "b1" });
    expect(k6State.requests.map((r) => r.url)).toEqual([
      "http://127.0.0.1:9/v2/product-types/t%2F1/price-lists/2030-01-02",
      "http://127.0.0.1:9/v2/products/p%201?language=de",
      "http://127.0.0.1:9/v2/product-types/t1/price-lists?date_start=2030-01-01&date_end=2030-01-14",
      "http://127.0.0.1:9/v2/bookings/b1/vouchers",
    ]);
    expect(() => client.call("booking", {})).toThrow(/parameter "uuid" is missing/);
  });

  it("should send the same params to an endpoint every time, accept gzip, and a JSON content type only with a body", () => {
    client.getConfig();
    client.getConfig();
    client.createBooking({ productTypeUuid: "t1", date: "2030-01-02", adults: 1 } as never);
    const [first, second, create] = k6State.requests;
    expect(second?.params).toEqual(first?.params);
    expect(first?.params).toEqual({
      headers: { "X-Authorization": "key-1", Accept: "application/json", "Accept-Encoding": "gzip" },
      timeout: "5s",
      tags: { endpoint: "config", name: "/v2/config" },
    });
    expect(create?.params.headers?.["Content-Type"]).toBe("application/json");
    expect(create?.body).toContain('"productTypeUuid":"t1"');
  });

  it("should read a header under Go's spelling or as sent, and keep headers lower-cased", () => {
    k6State.handler = () =>
      json(200, list([summary]), { "X-Ratelimit-Limit": "400", "x-ratelimit-remaining": "9", "Retry-After": "3" });
    const res = client.listProductTypes("u");
    expect(res.header("X-RateLimit-Limit")).toBe("400");
    expect(header(res, "X-RateLimit-Remaining")).toBe("9");
    expect(res.header("X-RateLimit-Reset")).toBeUndefined();
    expect(res.headers["retry-after"]).toBe("3");
    expect(header({ headers: { "retry-after": "3" } }, "Retry-After")).toBe("3");
  });

  it("should pick a list item by index modulo the list's length without the whole data", () => {
    const items = [0, 1, 2].map((i) => ({ ...summary, uuid: `u${i}` }));
    k6State.handler = () => json(200, list(items));
    const res = client.listProductTypes("u");
    expect([0, 1, 4, 8].map((i) => res.itemAt(i)?.uuid)).toEqual(["u0", "u1", "u1", "u2"]);
    expect(res.data?.[2]?.uuid).toBe("u2");
    expect(res.itemAt(5)?.uuid).toBe("u2");
  });

  it("should give the field of the items whose flag is true, read from the body or from the parsed data", () => {
    const days = [true, false, true].map((available, i) => ({ date: `2030-01-0${i + 1}`, available }));
    k6State.handler = () => json(200, list(days));
    expect(client.getPriceList("t", "2030-01-01", "2030-01-03").valuesWhere("available", "date")).toEqual([
      "2030-01-01",
      "2030-01-03",
    ]);
    const parsed = client.getPriceList("t", "2030-01-01", "2030-01-03");
    expect(parsed.data).toHaveLength(3);
    expect(parsed.valuesWhere("available", "date")).toEqual(["2030-01-01", "2030-01-03"]);
    k6State.handler = () => ({ status: 200, headers: { "Content-Type": "text/html" }, body: "<p>" });
    expect(client.getPriceList("t", "2030-01-01", "2030-01-03").valuesWhere("available", "date")).toEqual([]);
  });

  it("should pick nothing from an empty list, a body without a data array, or an answer that is not JSON", () => {
    const answers = [
      json(200, list([])),
      json(200, { data: { uuid: "u1" }, links: [] }),
      json(200, { data: ["u1"], links: [] }),
      { status: 200, headers: { "Content-Type": "text/html" }, body: JSON.stringify(list([summary])) },
      { status: 0, headers: {}, body: "" },
    ];
    for (const answer of answers) {
      k6State.handler = () => answer;
      expect(client.listProductTypes("u").itemAt(0)).toBeUndefined();
    }
  });

  it("should wait Retry-After once on 429 and count the throttle apart from errors", () => {
    let calls = 0;
    k6State.handler = () => {
      calls += 1;
      return calls === 1 ? json(429, { error: {} }, { "Retry-After": "7" }) : json(200, list([summary]));
    };
    const res = client.listProducts();
    expect(res.status).toBe(200);
    expect(res.throttledSeconds).toBe(7);
    expect(k6State.sleeps).toEqual([7]);
    expect(k6State.metrics.filter((m) => m.metric === "atd_throttles")).toHaveLength(1);
  });
});

describe("checks", () => {
  it("should pass a list whose items have exactly the spec's keys", () => {
    k6State.handler = () => json(200, list([summary]), { "X-RateLimit-Limit": "400", "X-RateLimit-Remaining": "9" });
    const res = client.listProductTypes("u");
    expect(checkResponse(res)).toBe(true);
    expect(k6State.checks.map((c) => c.name)).toEqual([
      "productTypes: rate-limit headers",
      "rate-limit: X-RateLimit-Remaining below the limit on a 200",
      "productTypes: status 200",
      "productTypes: list envelope with links",
      "2.3-product-type-summary-keys: productTypes keys match the spec",
      CHEAP_RULES.linksSelf,
      CHEAP_RULES.uuids,
      CHEAP_RULES.timestamps,
      CHEAP_RULES.versionPrefix,
      CHEAP_RULES.listsEnvelope,
    ]);
  });

  it("should fail a list item with a missing and an unexpected key, naming both", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    k6State.handler = () =>
      json(200, list([{ uuid: "u1", name: "t", links: [] }]), {
        "X-RateLimit-Limit": "400",
        "X-RateLimit-Remaining": "9",
      });
    const res = client.listProductTypes("u");
    expect(checkResponse(res)).toBe(true);
    expect(
      k6State.checks.find((c) => c.name === "2.3-product-type-summary-keys: productTypes keys match the spec")?.ok,
    ).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("item 0: missing title; unexpected name"));
    warn.mockRestore();
  });

  it("should fail the rate-limit headers check when X-RateLimit-Remaining is missing", () => {
    k6State.handler = () => json(200, list([]), { "X-RateLimit-Limit": "400" });
    expect(checkRateLimitHeaders(client.listProducts())).toBe(false);
    k6State.handler = () => json(200, list([]), { "X-RateLimit-Limit": "400", "X-RateLimit-Remaining": "399" });
    expect(checkRateLimitHeaders(client.listProducts())).toBe(true);
  });

  it("should not ask rate-limit headers of endpoints outside the shared allowance", () => {
    k6State.handler = () => json(200, { data: {}, links: [] });
    expect(checkRateLimitHeaders(client.getConfig())).toBe(true);
    expect(k6State.checks).toHaveLength(0);
  });

  it("should describe a connection failure as such", () => {
    k6State.handler = () => ({ status: 0, headers: {}, body: "" });
    expect(checkStatus(client.listProducts(), 200)).toBe(false);
  });
});

describe("key sets", () => {
  const rateLimited = { "X-RateLimit-Limit": "400", "X-RateLimit-Remaining": "9" };
  const detail = (data: Record<string, unknown>) => ({ data, links: summary.links });
  const withKeys = (keys: readonly string[], extra: Record<string, unknown> = {}) => ({
    ...Object.fromEntries(keys.map((k) => [k, k === "links" ? summary.links : k === "uuid" ? TYPE_UUID : 1])),
    ...extra,
  });
  const problems = (warn: { mock: { calls: unknown[][] } }) => warn.mock.calls.map((c) => String(c[0]));

  it("should fail a list item with as many keys as the spec but one renamed, naming both", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const renamed = { uuid: "u2", name: "t", links: summary.links };
    k6State.handler = () => json(200, list([summary, renamed]), rateLimited);
    expect(checkShape(client.listProductTypes("u"))).toBe(true);
    expect(k6State.checks.at(-1)).toMatchObject({
      name: "2.3-product-type-summary-keys: productTypes keys match the spec",
      ok: false,
    });
    expect(problems(warn).join("\n")).toContain("item 1: missing title; unexpected name");
    warn.mockRestore();
  });

  it("should fail an item whose links are not a list of links", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    k6State.handler = () => json(200, list([{ ...summary, links: [{ rel: "self" }] }]), rateLimited);
    checkShape(client.listProductTypes("u"));
    expect(k6State.checks.at(-1)).toMatchObject({
      name: "2.3-product-type-summary-keys: productTypes keys match the spec",
      ok: false,
    });
    expect(problems(warn).join("\n")).toContain("item 0: links is not an array of links");
    warn.mockRestore();
  });

  it("should fail a forbidden key of an exact set, naming it", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    k6State.handler = () => json(200, detail(withKeys(PRODUCT_TYPE_DETAIL_KEYS, { minAdults: 1 })), rateLimited);
    checkShape(client.getProductType("t1"));
    expect(k6State.checks.at(-1)).toMatchObject({
      name: "2.4-product-type-detail-keys: productType keys match the spec",
      ok: false,
    });
    expect(problems(warn).join("\n")).toContain("data: forbidden minAdults");
    expect(problems(warn).join("\n")).not.toContain("unexpected minAdults");
    warn.mockRestore();
  });

  it("should hold a minimum key set: extra keys pass, a missing or forbidden one fails", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const booking = withKeys(BOOKING_DETAIL_REQUIRED_KEYS, { notes: "extra" });
    const missing = Object.fromEntries(Object.entries(booking).filter(([k]) => k !== "status"));
    for (const data of [booking, missing, { ...booking, guests: [] }]) {
      k6State.handler = () => json(200, detail(data));
      checkShape(client.getBooking("b1"));
    }
    expect(
      k6State.checks.filter((c) => c.name === "2.8-booking-detail-keys: booking keys match the spec").map((c) => c.ok),
    ).toEqual([true, false, false]);
    expect(problems(warn).join("\n")).toMatch(/data: missing status/);
    expect(problems(warn).join("\n")).toMatch(/data: forbidden guests/);
    warn.mockRestore();
  });

  it("should pass an exact set whatever the order of the keys", () => {
    const reversed = Object.fromEntries(Object.entries(withKeys(PRODUCT_TYPE_SUMMARY_KEYS)).reverse());
    k6State.handler = () => json(200, list([reversed]), rateLimited);
    expect(checkResponse(client.listProductTypes("u"))).toBe(true);
    expect(k6State.checks.every((c) => c.ok)).toBe(true);
  });

  it("should fail the envelope, and not judge keys, when the body is not the endpoint's envelope", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    k6State.handler = () => json(200, { data: [summary] }, rateLimited);
    expect(checkResponse(client.listProductTypes("u"))).toBe(false);
    expect(k6State.checks.map((c) => [c.name, c.ok])).toEqual([
      ["productTypes: rate-limit headers", true],
      ["rate-limit: X-RateLimit-Limit constant per key", true],
      ["rate-limit: X-RateLimit-Remaining below the limit on a 200", true],
      ["rate-limit: X-RateLimit-Remaining never rises within a window", true],
      ["productTypes: status 200", true],
      ["productTypes: list envelope with links", false],
    ]);
    warn.mockRestore();
  });

  it("should skip the shape of an answer with the wrong status, name the expected statuses and judge the failure", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    k6State.handler = () => json(409, { error: { code: "BOOKING-CONFLICT", message: "m", http_code: 409 } });
    expect(checkResponse(client.getBooking("b1"), [200, 201])).toBe(false);
    expect(k6State.checks.map((c) => [c.name, c.ok])).toEqual([
      ["booking: status 200/201", false],
      [CHEAP_RULES.errorEnvelope, false],
      [CHEAP_RULES.linksSelf, false],
    ]);
    expect(problems(warn).join("\n")).toContain("status 409 (BOOKING-CONFLICT: m), expected 200 or 201");
    warn.mockRestore();
  });
});

describe("shape sampling", () => {
  it("should check the shape of the first 20 answers of an endpoint, then one in ten", () => {
    k6State.handler = () => json(200, { data: { uuid: "c" }, links: summary.links });
    for (let i = 0; i < 60; i++) checkResponse(client.getConfig());
    const shapeChecks = k6State.checks.filter((c) => c.name === "config: detail envelope with links");
    expect(shapeChecks).toHaveLength(20 + 4);
    expect(k6State.checks.filter((c) => c.name === "config: status 200")).toHaveLength(60);
  });
});
