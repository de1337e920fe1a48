/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import { ALT_KEY, KEY, api, control, start } from "./helpers.ts";

function paths(svc: Awaited<ReturnType<typeof start>>): string[] {
  const p = svc.state.catalogue.products[0];
  const t = p?.productTypes[0];
  const day = new Date((svc.state.today() + 5) * 86_400_000).toISOString().slice(0, 10);
  return [
    "/v2/products",
    `/v2/products/${p?.uuid ?? ""}`,
    `/v2/products/${p?.uuid ?? ""}/product-types`,
    `/v2/product-types/${t?.uuid ?? ""}`,
    `/v2/product-types/${t?.uuid ?? ""}/price-lists?date_start=${day}&date_end=${day}`,
    `/v2/product-types/${t?.uuid ?? ""}/price-lists/${day}`,
  ];
}

describe("rate limit (fixed window, spec 7.1 and 8)", () => {
  it("should count one shared allowance over the six listed endpoints and answer 429 per spec 7.1", async () => {
    await using svc = await start({ rateLimit: 12, rateWindowSeconds: 30 });
    const list = paths(svc);
    const remaining: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await api(svc, list[i % 6] ?? "/v2/products");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("12");
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
    }
    expect(remaining).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    for (const path of list) {
      const res = await api(svc, path);
      expect(res.status).toBe(429);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 30).toBe(true);
      const reset = Number(res.headers.get("x-ratelimit-reset"));
      const dateSec = Math.floor(Date.parse(res.headers.get("date") ?? "") / 1000);
      expect(Math.abs(reset - dateSec - retryAfter)).toBeLessThanOrEqual(1);
      expect(res.body.error).toEqual({ code: "GEN-TOO-MANY-REQUESTS", http_code: 429, message: expect.any(String) });
    }
    const other = await api(svc, "/v2/products", { key: ALT_KEY });
    expect(other.status).toBe(200);
    const config = await api(svc, "/v2/config", { key: KEY });
    expect(config.status).toBe(200);
    expect(config.headers.get("x-ratelimit-remaining")).toBeNull();
    const health = await control(svc, "/__control/health");
    expect(health.status).toBe(200);
  });
});
