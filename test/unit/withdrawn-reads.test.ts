/**
 * A read of a product or product type listed a moment ago (checkResponse with withdrawnSinceListed): the contract's
 * answers for one withdrawn since (404 not_found, 410 gone) pass the status check, judged by the envelope's code, and
 * are not used; any other failure, or those statuses with another code, still fails it. The traffic's reads
 * (readListed) confirm each such answer against the list it came from: still listed and still gone fails.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { checkResponse } from "../../lib/k6/checks.ts";
import { ApiClient } from "../../lib/k6/client.ts";
import { onProductsPage, readListed } from "../../lib/k6/traffic/listed-read.ts";
import { k6State } from "../shims/k6-state.ts";

const client = new ApiClient({
  baseUrl: "http://127.0.0.1:9",
  apiKey: "key-1",
  timeout: "5s",
  phase: "load",
  onThrottle: "wait",
  maxThrottleWaitSeconds: 60,
});

const LISTED = { withdrawnSinceListed: true };
const RATE = { "X-RateLimit-Limit": "400", "X-RateLimit-Remaining": "9" };

function failure(status: number, code: string) {
  return {
    status,
    headers: { "Content-Type": "application/json", ...RATE },
    body: JSON.stringify({
      error: { code, message: "Product p1 is no longer available.", http_code: status },
      links: [{ rel: "self", href: "/v2/products/p1", method: "GET" }],
      timestamp: "2030-01-01T00:00:00Z",
    }),
  };
}

const statusCheck = () => k6State.checks.find((c) => c.name === "product: status 200");

beforeEach(() => {
  k6State.reset();
});

describe("a read of a resource listed a moment ago", () => {
  it.each([
    [404, "not_found"],
    [410, "gone"],
  ])("should pass the status check on %i %s and not use the answer", (status, code) => {
    k6State.handler = () => failure(status, code);
    expect(checkResponse(client.getProduct("p1"), 200, LISTED)).toBe(false);
    expect(statusCheck()?.ok).toBe(true);
    // The failure's own rules are still judged on it.
    expect(k6State.checks.find((c) => c.name.startsWith("gaps-error-envelope"))?.ok).toBe(true);
  });

  it.each([
    [404, "gone"],
    [410, "not_found"],
    [500, "internal_error"],
    [400, "invalid_params"],
  ])("should fail the status check on %i %s, saying what was allowed", (status, code) => {
    k6State.handler = () => failure(status, code);
    expect(checkResponse(client.getProduct("p1"), 200, LISTED)).toBe(false);
    expect(statusCheck()?.ok).toBe(false);
  });

  it("should fail a 404 not_found where the caller does not say the resource was listed", () => {
    k6State.handler = () => failure(404, "not_found");
    expect(checkResponse(client.getProduct("p1"))).toBe(false);
    expect(statusCheck()?.ok).toBe(false);
  });
});

describe("readListed: a withdrawn answer confirmed against its list", () => {
  const page = (uuids: string[]) => ({
    status: 200,
    headers: { "Content-Type": "application/json", ...RATE },
    body: JSON.stringify({
      data: uuids.map((uuid) => ({ uuid })),
      meta: { pagination: { total: uuids.length, count: uuids.length, per_page: 10, current_page: 1, total_pages: 1 } },
      links: [{ rel: "self", href: "/v2/products", method: "GET" }],
    }),
  });
  const ok = {
    status: 200,
    headers: { "Content-Type": "application/json", ...RATE },
    body: JSON.stringify({ data: { uuid: "p1" }, links: [{ rel: "self", href: "/v2/products/p1", method: "GET" }] }),
  };

  /** The service: the detail's answers in turn, and the products page's. */
  function serve(details: ReturnType<typeof failure>[], listed: string[]) {
    let reads = 0;
    k6State.handler = (_method, url) =>
      url.includes("/v2/products?") ? page(listed) : (details[Math.min(reads++, details.length - 1)] ?? ok);
  }
  const read = () => readListed(() => client.getProduct("p1"), onProductsPage(client, 1, 10, "p1"));

  it("should take a 410 gone for a product its list no longer names, reading nothing more", () => {
    serve([failure(410, "gone")], ["p2"]);
    expect(read()).toBeUndefined();
    expect(k6State.checks.filter((c) => c.name === "product: status 200").map((c) => c.ok)).toEqual([true]);
    expect(k6State.requests.map((r) => new URL(r.url).pathname)).toEqual(["/v2/products/p1", "/v2/products"]);
  });

  it("should take one put back in between: still listed, and 200 when read again", () => {
    serve([failure(404, "not_found"), ok], ["p1"]);
    expect(read()).toBeUndefined();
    expect(k6State.checks.filter((c) => c.name === "product: status 200").every((c) => c.ok)).toBe(true);
  });

  it("should fail the status check on one still listed and still gone when read again", () => {
    serve([failure(404, "not_found"), failure(404, "not_found")], ["p1"]);
    expect(read()).toBeUndefined();
    expect(k6State.checks.filter((c) => c.name === "product: status 200").map((c) => c.ok)).toEqual([true, false]);
  });

  it("should answer a 200 at once, confirming nothing", () => {
    serve([ok], ["p1"]);
    expect(read()?.status).toBe(200);
    expect(k6State.requests).toHaveLength(1);
  });
});
