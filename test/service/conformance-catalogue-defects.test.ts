/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- response bodies are untyped JSON read by the assertions */
/**
 * The catalogue's conformance defects (issues 20 and 26) through HTTP: each breaks its one rule of
 * lib/contract/conformance-rules.ts when switched on, and the service keeps the rule when it is off.
 */
import { describe, expect, it } from "vitest";
import { PRODUCT_DETAIL_KEYS, diffKeys } from "../../lib/contract/index.ts";
import type { StartedService } from "../../service/app.ts";
import { api, control, dateFromToday, pickType, setInventory, start } from "./helpers.ts";

async function switchOn(svc: StartedService, defect: string): Promise<void> {
  const res = await control(svc, "/__control/defects", { method: "PUT", body: { [defect]: true } });
  expect(res.status, res.text).toBe(200);
}

/** The same request with the defect off and then on. */
async function offThenOn(svc: StartedService, defect: string, path: string, init: { method?: string } = {}) {
  const off = await api(svc, path, init);
  await switchOn(svc, defect);
  const on = await api(svc, path, init);
  return { off, on };
}

function productOf(svc: StartedService): string {
  return svc.state.catalogue.products[0]?.uuid ?? "";
}

describe("conformance defects of the catalogue", () => {
  it("should drop self from the detail answers' links under conformance-links-no-self (1-links-self)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(svc, "conformance-links-no-self", `/v2/products/${productOf(svc)}`);
    expect((off.body.links as { rel: string }[]).map((l) => l.rel)).toEqual(["self"]);
    expect(on.status).toBe(200);
    expect((on.body.links as { rel: string }[]).map((l) => l.rel)).toEqual(["canonical"]);
    // Only the answer's own links: the data's links and the error envelope's keep self.
    expect(on.body.data.links[0].rel).toBe("self");
    const refused = await api(svc, "/v2/config", { key: null });
    expect(refused.body.links[0].rel).toBe("self");
  });

  it("should answer OPTIONS without Allow under conformance-options-no-allow (1-options)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(svc, "conformance-options-no-allow", "/v2/bookings", { method: "OPTIONS" });
    expect(off.headers.get("allow")).toBe("GET, POST, OPTIONS");
    expect(on.status).toBe(200);
    expect(on.headers.get("allow")).toBeNull();
    // The self-description itself is unchanged.
    expect(on.body).toEqual(off.body);
  });

  it("should put url into the product detail under conformance-product-detail-has-url (2.2-product-detail-keys)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(svc, "conformance-product-detail-has-url", `/v2/products/${productOf(svc)}`);
    expect(diffKeys(off.body.data, PRODUCT_DETAIL_KEYS)).toEqual({ missing: [], unexpected: [] });
    expect(diffKeys(on.body.data, PRODUCT_DETAIL_KEYS)).toEqual({ missing: [], unexpected: ["url"] });
    // A sparse detail keeps to the fields asked for, so the fields rule still holds.
    const sparse = await api(svc, `/v2/products/${productOf(svc)}?fields=title`);
    expect(Object.keys(sparse.body.data).sort()).toEqual(["links", "title", "uuid"]);
  });

  it("should send prices as numbers under conformance-price-as-number (gaps-formats-money)", async () => {
    await using svc = await start();
    const t = pickType(svc, { children: true });
    const date = dateFromToday(svc.state, 21);
    const single = `/v2/product-types/${t.uuid}/price-lists/${date}`;
    const calendar = `/v2/product-types/${t.uuid}/price-lists?date_start=${date}&date_end=${date}`;
    const off = await api(svc, single);
    expect(off.body.data.prices.adults).toMatch(/^\d+\.\d{2}$/);
    expect(off.body.data.prices.children).toMatch(/^\d+\.\d{2}$/);
    await switchOn(svc, "conformance-price-as-number");
    const on = await api(svc, single);
    expect(on.body.data.prices).toEqual({
      adults: Number(off.body.data.prices.adults),
      children: Number(off.body.data.prices.children),
      ...(t.allowSeniors ? { seniors: Number(off.body.data.prices.seniors) } : {}),
    });
    expect((await api(svc, calendar)).body.data[0].prices.adults).toBeTypeOf("number");
    // The product's basePrice and the currency stay as they were.
    const product = await api(svc, `/v2/products/${t.product.uuid}`);
    expect(product.body.data.basePrice).toMatch(/^\d+\.\d{2}$/);
    expect(on.body.data.currency).toBe(off.body.data.currency);
  });

  it("should write the product's updatedAt with an offset under conformance-timestamp-offset (gaps-formats-timestamps)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(svc, "conformance-timestamp-offset", `/v2/products/${productOf(svc)}`);
    expect(off.body.data.updatedAt).toMatch(/Z$/);
    expect(on.body.data.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/);
    // The same instant, only not written in UTC.
    expect(Date.parse(on.body.data.updatedAt)).toBe(Date.parse(off.body.data.updatedAt));
    expect((await api(svc, "/v2/config", { key: null })).body.timestamp).toMatch(/Z$/);
  });

  it("should shift the calendar's weekdays by a day under conformance-weekday-mismatch (2.5-weekday-matches-date)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    // 2030-01-07 is a Monday.
    const path = `/v2/product-types/${t.uuid}/price-lists?date_start=2030-01-07&date_end=2030-01-08`;
    const { off, on } = await offThenOn(svc, "conformance-weekday-mismatch", path);
    expect((off.body.data as { weekday: string }[]).map((e) => e.weekday)).toEqual(["Monday", "Tuesday"]);
    expect((on.body.data as { weekday: string }[]).map((e) => e.weekday)).toEqual(["Tuesday", "Wednesday"]);
    // The single-date result (spec 2.6) keeps its weekday.
    expect((await api(svc, `/v2/product-types/${t.uuid}/price-lists/2030-01-07`)).body.data.weekday).toBe("Monday");
  });

  it("should list no timeslots on available calendar dates under conformance-available-without-timeslots (2.5-available-consistent)", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: true });
    const open = dateFromToday(svc.state, 21);
    const soldOut = dateFromToday(svc.state, 22);
    await setInventory(svc, t.uuid, open, { remaining: 20 });
    await setInventory(svc, t.uuid, soldOut, { remaining: 0 });
    const path = `/v2/product-types/${t.uuid}/price-lists?date_start=${open}&date_end=${soldOut}`;
    const { off, on } = await offThenOn(svc, "conformance-available-without-timeslots", path);
    expect(off.body.data[0].available).toBe(true);
    expect(off.body.data[0].timeslots).toHaveLength(t.timeslots.length);
    expect(on.body.data[0].available).toBe(true);
    expect(on.body.data[0].timeslots).toEqual([]);
    // A sold-out date stays consistent (not available, its timeslots listed as not available).
    expect(on.body.data[1]).toEqual(off.body.data[1]);
    expect(on.body.data[1].available).toBe(false);
    // The single-date result still lists the timeslots.
    const single = await api(svc, `/v2/product-types/${t.uuid}/price-lists/${open}`);
    expect(single.body.data.timeslots).toHaveLength(t.timeslots.length);
  });

  it("should make the single-date result cacheable under conformance-single-date-cacheable (2.6-no-cache)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const path = `/v2/product-types/${t.uuid}/price-lists/${dateFromToday(svc.state, 21)}`;
    const { off, on } = await offThenOn(svc, "conformance-single-date-cacheable", path);
    expect(off.headers.get("cache-control")).toBe("no-store");
    expect(off.headers.get("expires")).toBeNull();
    expect(on.status).toBe(200);
    expect(on.headers.get("cache-control")).toBe("public, max-age=300");
    expect(Date.parse(on.headers.get("expires") ?? "")).toBeGreaterThan(Date.now());
    expect(on.body).toEqual(off.body);
  });

  it("should return every key despite fields under conformance-fields-ignored (4.0-fields-honoured)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const product = `/v2/products/${t.product.uuid}?fields=title`;
    const type = `/v2/product-types/${t.uuid}?fields=title`;
    const offProduct = await api(svc, product);
    const offType = await api(svc, type);
    expect(Object.keys(offProduct.body.data).sort()).toEqual(["links", "title", "uuid"]);
    expect(Object.keys(offType.body.data).sort()).toEqual(["links", "title", "uuid"]);
    await switchOn(svc, "conformance-fields-ignored");
    expect(diffKeys((await api(svc, product)).body.data, PRODUCT_DETAIL_KEYS)).toEqual({ missing: [], unexpected: [] });
    expect(Object.keys((await api(svc, type)).body.data).length).toBeGreaterThan(3);
    // An unknown field is still refused.
    expect((await api(svc, `/v2/products/${t.product.uuid}?fields=nope`)).status).toBe(400);
  });

  it("should give English texts for a supported language under conformance-language-ignored (4.0-language-honoured)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(
      svc,
      "conformance-language-ignored",
      `/v2/products/${productOf(svc)}?language=de`,
    );
    expect(Object.keys(off.body.data.titleTranslated)).toEqual(["de"]);
    expect(on.status).toBe(200);
    expect(Object.keys(on.body.data.titleTranslated)).toEqual(["en"]);
    // An unsupported language is still refused.
    expect((await api(svc, `/v2/products/${productOf(svc)}?language=zz`)).status).toBe(400);
  });

  it("should answer an unsupported language in English under conformance-unknown-language-accepted (4.0-unknown-values-refused)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const { off, on } = await offThenOn(
      svc,
      "conformance-unknown-language-accepted",
      `/v2/products/${t.product.uuid}?language=zz`,
    );
    expect(off.status).toBe(400);
    expect(off.body.error.code).toBe("invalid_params");
    expect(on.status).toBe(200);
    expect(Object.keys(on.body.data.titleTranslated)).toEqual(["en"]);
    expect((await api(svc, `/v2/product-types/${t.uuid}?language=zz`)).status).toBe(200);
    // A supported language is still honoured, and an unknown field still refused.
    expect(
      Object.keys((await api(svc, `/v2/products/${t.product.uuid}?language=ja`)).body.data.titleTranslated),
    ).toEqual(["ja"]);
    expect((await api(svc, `/v2/products/${t.product.uuid}?fields=nope`)).status).toBe(400);
  });

  it("should answer a calendar without its dates under conformance-price-list-range-optional (4.2-date-range-required)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const date = dateFromToday(svc.state, 21);
    const base = `/v2/product-types/${t.uuid}/price-lists`;
    for (const query of [`?date_start=${date}`, `?date_end=${date}`, ""]) {
      const res = await api(svc, `${base}${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe("invalid_params");
    }
    await switchOn(svc, "conformance-price-list-range-optional");
    const noEnd = await api(svc, `${base}?date_start=${date}`);
    expect(noEnd.status).toBe(200);
    expect(noEnd.body.data).toHaveLength(31);
    expect(noEnd.body.data[0].date).toBe(date);
    const noStart = await api(svc, `${base}?date_end=${date}`);
    expect(noStart.status).toBe(200);
    expect(noStart.body.data[0].date).toBe(dateFromToday(svc.state, 0));
    // Over six months is still refused.
    expect((await api(svc, `${base}?date_start=2030-01-01&date_end=2030-07-02`)).status).toBe(400);
  });

  it("should accept a calendar over six months under conformance-price-list-beyond-six-months (4.2-six-months)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const base = `/v2/product-types/${t.uuid}/price-lists`;
    const sixMonths = await api(svc, `${base}?date_start=2030-01-01&date_end=2030-07-01`);
    expect(sixMonths.status).toBe(200);
    const { off, on } = await offThenOn(
      svc,
      "conformance-price-list-beyond-six-months",
      `${base}?date_start=2030-01-01&date_end=2030-07-02`,
    );
    expect(off.status).toBe(400);
    expect(on.status).toBe(200);
    expect(on.body.data).toHaveLength(183);
    // The dates are still required.
    expect((await api(svc, `${base}?date_start=2030-01-01`)).status).toBe(400);
  });

  it("should serve a single-date result computed up to five seconds earlier under conformance-single-date-stale (2.6-real-time)", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false });
    const date = dateFromToday(svc.state, 21);
    const path = `/v2/product-types/${t.uuid}/price-lists/${date}`;
    await setInventory(svc, t.uuid, date, { remaining: 10 });
    expect((await api(svc, path)).body.data.available).toBe(true);
    await setInventory(svc, t.uuid, date, { remaining: 0 });
    // Off: the next read follows the inventory at once.
    expect((await api(svc, path)).body.data.available).toBe(false);
    await setInventory(svc, t.uuid, date, { remaining: 10 });
    await switchOn(svc, "conformance-single-date-stale");
    const first = await api(svc, path);
    expect(first.body.data.available).toBe(true);
    await setInventory(svc, t.uuid, date, { remaining: 0 });
    const stale = await api(svc, path);
    expect(stale.body).toEqual(first.body);
    // Its headers still say it must not be kept: only 2.6-real-time can tell.
    expect(stale.headers.get("cache-control")).toBe("no-store");
    // The calendar is not cached.
    const calendar = await api(svc, `/v2/product-types/${t.uuid}/price-lists?date_start=${date}&date_end=${date}`);
    expect(calendar.body.data[0].available).toBe(false);
  });

  it("should start every products page after the first one early under conformance-product-pages-overlap (4.3-pagination-consistent)", async () => {
    await using svc = await start({ products: 25 });
    const pages = async () => {
      const seen: string[][] = [];
      for (const page of [1, 2, 3]) {
        const res = await api(svc, `/v2/products?per_page=10&page=${page}`);
        expect(res.body.meta.pagination).toMatchObject({ total: 25, count: page === 3 ? 5 : 10, current_page: page });
        seen.push((res.body.data as { uuid: string }[]).map((p) => p.uuid));
      }
      return seen;
    };
    const all = svc.state.catalogue.products.map((p) => p.uuid);
    expect((await pages()).flat()).toEqual(all);
    await switchOn(svc, "conformance-product-pages-overlap");
    const [first, second, third] = (await pages()) as [string[], string[], string[]];
    expect(first).toEqual(all.slice(0, 10));
    expect(second[0]).toBe(first[9]);
    expect(third).toEqual(all.slice(19, 24));
    expect([...first, ...second, ...third]).not.toContain(all[24]);
  });

  it("should answer the product-type detail without self under conformance-type-detail-no-self (1-links-self)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const { off, on } = await offThenOn(svc, "conformance-type-detail-no-self", `/v2/product-types/${t.uuid}`);
    expect((off.body.links as { rel: string }[]).map((l) => l.rel)).toEqual(["self"]);
    expect(on.status).toBe(200);
    expect((on.body.links as { rel: string }[]).map((l) => l.rel)).toEqual(["canonical"]);
    expect(on.body.data).toEqual(off.body.data);
    // Every other answer keeps its self link.
    const product = await api(svc, `/v2/products/${t.product.uuid}`);
    expect((product.body.links as { rel: string }[]).map((l) => l.rel)).toEqual(["self"]);
  });
});
