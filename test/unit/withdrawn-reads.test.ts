/**
 * A read of a product or product type listed a moment ago (checkResponse with withdrawnSinceListed): the contract's
 * answers for one withdrawn since (404 not_found, 410 gone) pass the status check, judged by the envelope's code, and
 * are not used; any other failure, or those statuses with another code, still fails it.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { checkResponse } from "../../lib/k6/checks.ts";
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
