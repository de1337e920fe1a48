/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import { PRICE_LIST_ENTRY_KEYS, SINGLE_DATE_PRICE_KEYS, diffKeys } from "../../lib/contract/index.ts";
import { api, control, dateFromToday, pickType, setInventory, start } from "./helpers.ts";

describe("prices, config, restrictions, options, fields and language", () => {
  it("should compute the single-date result from live inventory, uncached, with timeslots and voucherValidity", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: true });
    const date = dateFromToday(svc.state, 9);
    await setInventory(svc, t.uuid, date, { remaining: 0 });
    await setInventory(svc, t.uuid, date, { remaining: 4, timeslot: t.timeslots[0] ?? "" });
    const res = await api(svc, `/v2/product-types/${t.uuid}/price-lists/${date}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(diffKeys(res.body.data, SINGLE_DATE_PRICE_KEYS)).toEqual({ missing: [], unexpected: [] });
    expect(res.body.data.available).toBe(true);
    expect(res.body.data.timeslots[0]).toEqual({ timeslot: t.timeslots[0], available: true, remaining: 4 });
    expect(res.body.data.voucherValidity.adults).toBeDefined();
    await setInventory(svc, t.uuid, date, { remaining: 0 });
    expect((await api(svc, `/v2/product-types/${t.uuid}/price-lists/${date}`)).body.data.available).toBe(false);
  });

  it("should return one calendar entry per date for up to six months", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const res = await api(
      svc,
      `/v2/product-types/${t.uuid}/price-lists?date_start=${dateFromToday(svc.state, 1)}&date_end=${dateFromToday(svc.state, 30)}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(30);
    for (const e of res.body.data) expect(diffKeys(e, PRICE_LIST_ENTRY_KEYS)).toEqual({ missing: [], unexpected: [] });
  });

  it("should honour fields and language on details", async () => {
    await using svc = await start();
    const p = svc.state.catalogue.products[0]?.uuid ?? "";
    const res = await api(svc, `/v2/products/${p}?fields=title,titleTranslated&language=de`);
    expect(Object.keys(res.body.data).sort()).toEqual(["links", "title", "titleTranslated", "uuid"]);
    expect(Object.keys(res.body.data.titleTranslated)).toEqual(["de"]);
  });

  it("should serve config and the partner's restrictions", async () => {
    await using svc = await start();
    const config = await api(svc, "/v2/config");
    expect(config.body.data).toMatchObject({
      languages: expect.any(Array),
      currencies: expect.any(Array),
      imageBaseUrl: expect.any(String),
    });
    const p = svc.state.catalogue.products[0]?.uuid ?? "";
    await control(svc, "/__control/partners/atd-partner-01", {
      method: "PUT",
      body: { restrictions: { [p]: { allowedCountries: ["TH"], excludedCountries: [] } } },
    });
    const r = await api(svc, `/v2/products/${p}/restrictions`);
    expect(r.body.data).toEqual({ productUuid: p, mode: "allow", allowedCountries: ["TH"], excludedCountries: [] });
    const other = await api(svc, `/v2/products/${p}/restrictions`, { key: "atd-partner-03" });
    expect(other.status).toBe(200);
  });

  it("should describe every path through OPTIONS with an Allow header", async () => {
    await using svc = await start();
    const res = await api(svc, "/v2/bookings", { method: "OPTIONS" });
    expect(res.status).toBe(200);
    expect(res.headers.get("allow")).toBe("GET, POST, OPTIONS");
    expect(res.body.data.methods.map((m: { method: string }) => m.method)).toEqual(["GET", "POST"]);
  });

  it("should filter, sort and paginate products; hide unavailable ones; answer 410 for a withdrawn type", async () => {
    await using svc = await start();
    const th = await api(svc, "/v2/products?country=TH&per_page=100");
    expect(th.body.data.length).toBeGreaterThan(0);
    const sorted = await api(svc, "/v2/products?sort=-base_price&per_page=100");
    const prices = sorted.body.data.map((p: { basePrice: string }) => Number(p.basePrice));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const t = pickType(svc);
    await control(svc, `/__control/product-types/${t.uuid}`, { method: "PUT", body: { available: false } });
    const gone = await api(svc, `/v2/product-types/${t.uuid}`);
    expect([gone.status, gone.body.error.code]).toEqual([410, "gone"]);
  });

  it("should expose Prometheus metrics and reset to the seed", async () => {
    await using svc = await start();
    await api(svc, "/v2/products");
    const res = await fetch(`${svc.controlUrl}/metrics`, { headers: { "X-Control-Token": svc.controlToken } });
    const text = await res.text();
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
    expect(text).toContain('http_requests_total{route="products",status="200"} 1');
    expect((await control(svc, "/__control/health", { token: "wrong" })).status).toBe(401);
    const reset = await control(svc, "/__control/reset", { method: "POST", body: { seed: 9 } });
    expect(reset.body.data.seed).toBe(9);
  });
});
