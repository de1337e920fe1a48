/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- response bodies are untyped JSON read by the assertions */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { RateLimiter } from "../../service/ratelimit.ts";
import { api, control, start } from "./helpers.ts";

function burst(limiter: RateLimiter, at: number, n: number): number {
  let ok = 0;
  for (let i = 0; i < n; i++) if (limiter.consume("k", at).allowed) ok++;
  return ok;
}

describe("rate-limit algorithms", () => {
  it("should let a fixed window allow a double burst across the boundary", () => {
    const l = new RateLimiter({ limit: 10, windowSeconds: 10, algorithm: "fixed-window" });
    expect(burst(l, 0, 10)).toBe(10);
    expect(burst(l, 9_999, 5)).toBe(0);
    expect(burst(l, 10_000, 15)).toBe(10);
  });

  it("should let a sliding window refuse the boundary burst until old requests age out", () => {
    const l = new RateLimiter({ limit: 10, windowSeconds: 10, algorithm: "sliding-window" });
    expect(burst(l, 0, 5)).toBe(5);
    expect(burst(l, 9_000, 5)).toBe(5);
    expect(burst(l, 10_000, 10)).toBe(5);
    const refused = l.consume("k", 10_001);
    expect(refused.allowed).toBe(false);
    expect(refused.resetMs).toBe(19_000);
  });

  it("should let a token bucket refill evenly and start full", () => {
    const l = new RateLimiter({ limit: 10, windowSeconds: 10, algorithm: "token-bucket" });
    expect(burst(l, 0, 12)).toBe(10);
    expect(burst(l, 500, 2)).toBe(0);
    expect(burst(l, 1_000, 2)).toBe(1);
    expect(burst(l, 5_000, 10)).toBe(4);
    expect(l.consume("k", 5_000).resetMs).toBe(6_000);
  });

  it("should switch algorithm through the control API and keep refused requests free", async () => {
    await using svc = await start({ rateLimit: 3, rateWindowSeconds: 1 });
    const res = await control(svc, "/__control/rate-limit", { method: "PUT", body: { algorithm: "token-bucket" } });
    expect(res.body.data).toEqual({ limit: 3, windowSeconds: 1, algorithm: "token-bucket" });
    for (let i = 0; i < 3; i++) expect((await api(svc, "/v2/products")).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await api(svc, "/v2/products")).status).toBe(429);
    await sleep(400);
    expect((await api(svc, "/v2/products")).status).toBe(200);
  });
});

describe("rate-limit defects", () => {
  it("should give each endpoint its own allowance with rate-limit-per-endpoint", async () => {
    await using svc = await start({ rateLimit: 2, defects: ["rate-limit-per-endpoint"] });
    const p = svc.state.catalogue.products[0]?.uuid ?? "";
    for (let i = 0; i < 2; i++) expect((await api(svc, "/v2/products")).status).toBe(200);
    expect((await api(svc, "/v2/products")).status).toBe(429);
    expect((await api(svc, `/v2/products/${p}`)).status).toBe(200);
  });

  it("should break the 429 headers and body as each header defect says", async () => {
    await using svc = await start({ rateLimit: 1 });
    await api(svc, "/v2/products");
    const set = (d: Record<string, boolean>) => control(svc, "/__control/defects", { method: "PUT", body: d });
    await set({ "rate-limit-missing-retry-after": true });
    expect((await api(svc, "/v2/products")).headers.get("retry-after")).toBeNull();
    await set({ "rate-limit-missing-retry-after": false, "rate-limit-retry-after-ms": true });
    expect(Number((await api(svc, "/v2/products")).headers.get("retry-after"))).toBeGreaterThanOrEqual(1000);
    await set({ "rate-limit-retry-after-ms": false, "rate-limit-reset-ms": true });
    expect(Number((await api(svc, "/v2/products")).headers.get("x-ratelimit-reset"))).toBeGreaterThan(1e12);
    await set({ "rate-limit-reset-ms": false, "rate-limit-reset-relative": true });
    expect(Number((await api(svc, "/v2/products")).headers.get("x-ratelimit-reset"))).toBeLessThanOrEqual(60);
    await set({ "rate-limit-reset-relative": false, "rate-limit-wrong-error-code": true });
    expect((await api(svc, "/v2/products")).body.error.code).toBe("RATE_LIMITED");
    await set({ "rate-limit-wrong-error-code": false, "rate-limit-html-429": true });
    expect((await api(svc, "/v2/products")).headers.get("content-type")).toMatch(/^text\/html/);
    const listed = await control(svc, "/__control/defects");
    expect(listed.body.data.find((d: { name: string }) => d.name === "rate-limit-html-429").enabled).toBe(true);
  });

  it("should exceed the limit under concurrency with rate-limit-counter-race", async () => {
    await using svc = await start({ rateLimit: 5, defects: ["rate-limit-counter-race"] });
    const results = await Promise.all(Array.from({ length: 20 }, () => api(svc, "/v2/products")));
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(5);
  });

  it("should hold the limit exactly under concurrency without defects", async () => {
    await using svc = await start({ rateLimit: 5 });
    const results = await Promise.all(Array.from({ length: 20 }, () => api(svc, "/v2/products")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
  });
});
