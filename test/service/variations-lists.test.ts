/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
/**
 * The variations of the lists, the rate limit and translated text (service/variations/): each takes the other legal
 * choice of its freedom (lib/contract/freedoms/), as a partner sees it through HTTP, and the service makes the
 * reference's choice when it is off.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedService } from "../../service/app.ts";
import type { VariationName } from "../../service/variations/index.ts";
import { api, book, control, dateFromToday, pickType, start, withSeats } from "./helpers.ts";

const uuids = (body: unknown): string[] => (body as { data: { uuid: string }[] }).data.map((i) => i.uuid);

describe("the variations of lists, Retry-After and translations", () => {
  let plain: StartedService;
  let varied: StartedService;
  const all: VariationName[] = [
    "lists-reverse-order",
    "lists-default-page-size",
    "lists-withdrawn-product-gone",
    "translations-unmarked",
  ];

  beforeAll(async () => {
    [plain, varied] = await Promise.all([start(), start({ variations: all })]);
  });
  afterAll(async () => {
    await Promise.all([plain.stop(), varied.stop()]);
  });

  it("should list them under GET /__control/variations, enabled as started", async () => {
    const res = await control(varied, "/__control/variations");
    const enabled = (res.body.data as { name: string; enabled: boolean }[]).filter((v) => v.enabled).map((v) => v.name);
    expect(enabled.sort()).toEqual([...all].sort());
  });

  it("should list products without sort, a product's types, bookings and vouchers in reverse (lists-reverse-order)", async () => {
    const [a, b] = await Promise.all([plain, varied].map((s) => api(s, "/v2/products?per_page=100")));
    expect(uuids(b?.body)).toEqual([...uuids(a?.body)].reverse());
    // With sort the order is the sort's, the same on both.
    const [sa, sb] = await Promise.all([plain, varied].map((s) => api(s, "/v2/products?per_page=100&sort=title")));
    expect(uuids(sb?.body)).toEqual(uuids(sa?.body));
    const product = plain.state.catalogue.products.find((p) => p.productTypes.length > 1);
    const [ta, tb] = await Promise.all(
      [plain, varied].map((s) => api(s, `/v2/products/${product?.uuid ?? ""}/product-types`)),
    );
    expect(uuids(tb?.body)).toEqual([...uuids(ta?.body)].reverse());
    const type = await withSeats(varied, pickType(varied, { instant: true }));
    const first = await book(varied, type);
    const second = await book(varied, type);
    const bookings = await api(varied, `/v2/bookings?per_page=100`);
    expect(uuids(bookings.body).slice(0, 2)).toEqual([second, first]);
  });

  it("should keep the price calendar's dates ascending under lists-reverse-order (a rule)", async () => {
    const type = pickType(varied);
    const [from, to] = [dateFromToday(varied.state, 20), dateFromToday(varied.state, 30)];
    const res = await api(varied, `/v2/product-types/${type.uuid}/price-lists?date_start=${from}&date_end=${to}`);
    const dates = (res.body.data as { date: string }[]).map((e) => e.date);
    expect(dates).toEqual([...dates].sort());
    expect(dates[0]).toBe(from);
  });

  it("should answer 25 a page without per_page, the calendar paged too (lists-default-page-size)", async () => {
    const [a, b] = await Promise.all([plain, varied].map((s) => api(s, "/v2/products")));
    expect(a?.body.meta.pagination.per_page).toBe(10);
    expect(b?.body.meta.pagination.per_page).toBe(25);
    expect(b?.body.data).toHaveLength(25);
    const type = pickType(varied);
    const [from, to] = [dateFromToday(varied.state, 20), dateFromToday(varied.state, 79)];
    const path = `/v2/product-types/${type.uuid}/price-lists?date_start=${from}&date_end=${to}`;
    const [ca, cb] = await Promise.all([plain, varied].map((s) => api(s, path)));
    expect(ca?.body.data).toHaveLength(60);
    expect(cb?.body.meta.pagination).toMatchObject({ total: 60, count: 25, per_page: 25, total_pages: 3 });
    // per_page asked for is served as asked.
    expect((await api(varied, "/v2/products?per_page=7")).body.data).toHaveLength(7);
  });

  it("should answer 410 gone for a withdrawn product's detail, types and restrictions (lists-withdrawn-product-gone)", async () => {
    for (const svc of [plain, varied]) {
      const product = svc.state.catalogue.products[3];
      const withdrawn = await control(svc, `/__control/products/${product?.uuid ?? ""}`, {
        method: "PUT",
        body: { available: false },
      });
      expect(withdrawn.status, withdrawn.text).toBe(200);
      const paths = ["", "/product-types", "/restrictions"].map((p) => `/v2/products/${product?.uuid ?? ""}${p}`);
      const answers = await Promise.all(paths.map((p) => api(svc, p)));
      const expected = svc === varied ? [410, "gone"] : [404, "not_found"];
      for (const answer of answers) expect([answer.status, answer.body.error.code], answer.text).toEqual(expected);
      // Its product types are gone either way (a rule).
      const type = product?.productTypes[0];
      expect((await api(svc, `/v2/product-types/${type?.uuid ?? ""}`)).status).toBe(410);
      await control(svc, `/__control/products/${product?.uuid ?? ""}`, { method: "PUT", body: { available: true } });
    }
  });

  it("should translate without naming the language, in Latin script, English as it is (translations-unmarked)", async () => {
    const product = plain.state.catalogue.products[0];
    const read = (svc: StartedService, language: string) =>
      api(svc, `/v2/products/${product?.uuid ?? ""}?language=${language}`);
    const [marked, unmarked, english] = await Promise.all([read(plain, "zh"), read(varied, "zh"), read(varied, "en")]);
    expect(marked.body.data.titleTranslated.zh).toBe(`[zh] ${product?.title ?? ""}`);
    const text = unmarked.body.data.titleTranslated.zh as string;
    expect(text).not.toContain("zh");
    expect(text).toMatch(/^[\x20-\x7e]+$/);
    expect(text).not.toBe(product?.title);
    expect(text).toHaveLength(product?.title.length ?? 0);
    expect(english.body.data.titleTranslated.en).toBe(product?.title);
    const other = await read(varied, "de");
    expect(other.body.data.titleTranslated.de).not.toBe(text);
    const list = await api(varied, "/v2/products?per_page=100&language=zh");
    const item = (list.body.data as { uuid: string; titleTranslated: { zh: string } }[]).find(
      (i) => i.uuid === product?.uuid,
    );
    expect(item?.titleTranslated.zh).toBe(text);
  });
});

describe("the variation rate-limit-retry-after-floor", () => {
  it("should round the seconds left down where the reference rounds them up", async () => {
    const options = { rateLimit: 1, rateWindowSeconds: 10 };
    const [ceil, floor] = await Promise.all([
      start(options),
      start({ ...options, variations: ["rate-limit-retry-after-floor"] }),
    ]);
    try {
      const retryAfter = async (svc: StartedService): Promise<string | null> => {
        await api(svc, "/v2/products?per_page=1");
        // About 9.8 s of the 10 s window are left: 10 rounded up, 9 rounded down.
        await sleep(200);
        const refused = await api(svc, "/v2/products?per_page=1");
        expect(refused.status).toBe(429);
        return refused.headers.get("retry-after");
      };
      expect(await retryAfter(ceil)).toBe("10");
      expect(await retryAfter(floor)).toBe("9");
    } finally {
      await Promise.all([ceil.stop(), floor.stop()]);
    }
  });
});
