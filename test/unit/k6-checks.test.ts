import { beforeEach, describe, expect, it, vi } from "vitest";
import { checkResponse, checkRateLimitHeaders, checkStatus } from "../../lib/k6/checks.ts";
import { ApiClient } from "../../lib/k6/client.ts";
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

const summary = { uuid: "u1", title: "t", links: [{ rel: "self", href: "/x", method: "GET" }] };
const list = (items: unknown[]) => ({
  data: items,
  meta: { pagination: { total: 1, count: 1, per_page: 10, current_page: 1, total_pages: 1 } },
  links: [{ rel: "self", href: "/x", method: "GET" }],
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
      "productTypes: status 200",
      "productTypes: list envelope with links",
      "productTypes: keys match the spec",
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
    expect(k6State.checks.at(-1)).toMatchObject({ name: "productTypes: keys match the spec", ok: false });
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

describe("shape sampling", () => {
  it("should check the shape of the first 20 answers of an endpoint, then one in ten", () => {
    k6State.handler = () => json(200, { data: { uuid: "c" }, links: summary.links });
    for (let i = 0; i < 60; i++) checkResponse(client.getConfig());
    const shapeChecks = k6State.checks.filter((c) => c.name === "config: detail envelope with links");
    expect(shapeChecks).toHaveLength(20 + 4);
    expect(k6State.checks.filter((c) => c.name === "config: status 200")).toHaveLength(60);
  });
});
