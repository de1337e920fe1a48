/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
/**
 * The query parameters and booking fields as docs/partner-api.openapi.yaml states them (issue 26): each bound, enum
 * and pattern is what the service enforces, an empty value is refused, a filter value no product has selects none,
 * and every four-digit year is a date.
 */
import { describe, expect, it } from "vitest";
import { ERROR_CODES, PAGINATION } from "../../lib/contract/index.ts";
import { BOOKING_REQUEST_LIMITS } from "../../lib/contract/reference-values.ts";
import { api, bookingBody, dateFromToday, pickType, setInventory, start, type Res } from "./helpers.ts";

const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000";

function expectRefused(res: Res, path: string): void {
  expect([res.status, res.body?.error?.code], `${path}: ${res.text.slice(0, 200)}`).toEqual([
    400,
    ERROR_CODES.invalidParams,
  ]);
}

describe("query parameters and booking fields as the document states them", () => {
  it("should refuse an empty value of every parameter instead of reading it as absent", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const d = dateFromToday(svc.state, 5);
    const paths = [
      ...["page", "per_page", "language", "sort", "type", "category", "country", "city"].map(
        (n) => `/v2/products?${n}=`,
      ),
      `/v2/products/${t.product.uuid}?fields=`,
      `/v2/products/${t.product.uuid}?language=`,
      `/v2/product-types/${t.uuid}?fields=`,
      `/v2/product-types/${t.uuid}/price-lists?date_start=${d}&date_end=${d}&page=`,
      `/v2/product-types/${t.uuid}/price-lists?date_start=&date_end=${d}`,
      ...["date_start", "date_end", "first_name", "last_name", "email", "phone", "partner_reference", "status"].map(
        (n) => `/v2/bookings?${n}=`,
      ),
    ];
    for (const path of paths) expectRefused(await api(svc, path), path);
  });

  it("should refuse a fields list with an empty or padded name, and a language not written as config lists it", async () => {
    await using svc = await start();
    const p = pickType(svc).product.uuid;
    for (const path of [
      `/v2/products/${p}?fields=,`,
      `/v2/products/${p}?fields=title,,highlights`,
      `/v2/products/${p}?fields=title,%20highlights`,
      `/v2/products/${p}?language=DE`,
      "/v2/products?language=De",
    ]) {
      expectRefused(await api(svc, path), path);
    }
    expect((await api(svc, `/v2/products/${p}?fields=title,highlights&language=de`)).status).toBe(200);
  });

  it("should serve pages up to the stated maximum and refuse the next", async () => {
    await using svc = await start();
    const last = await api(svc, `/v2/products?page=${PAGINATION.maxPage}`);
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual([]);
    expectRefused(await api(svc, `/v2/products?page=${PAGINATION.maxPage + 1}`), "page beyond the maximum");
  });

  it("should answer an empty list for a filter value no product has", async () => {
    await using svc = await start();
    for (const filter of [`type=${UNKNOWN_UUID}`, "type=nope", "category=nope", "country=ZZ", "city=atlantis"]) {
      const res = await api(svc, `/v2/products?${filter}`);
      expect([res.status, res.body.data, res.body.meta.pagination.total], filter).toEqual([200, [], 0]);
    }
    const known = pickType(svc).product;
    const country = await api(svc, `/v2/products?country=${known.city.country.toLowerCase()}&per_page=100`);
    const uuids = (country.body.data as { uuid: string }[]).map((p) => p.uuid);
    expect(uuids).toContain(known.uuid);
  });

  it("should read the dates of the years 0000 to 0099 as written, as any other date", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const single = await api(svc, `/v2/product-types/${t.uuid}/price-lists/0088-03-25`);
    expect([single.status, single.body.data?.date, single.body.data?.weekday]).toEqual([200, "0088-03-25", "Thursday"]);
    const calendar = `/v2/product-types/${t.uuid}/price-lists?date_start=0088-08-31&date_end=`;
    const sixMonths = await api(svc, `${calendar}0089-02-28`);
    expect(sixMonths.status, sixMonths.text.slice(0, 200)).toBe(200);
    expect(sixMonths.body.data[0].date).toBe("0088-08-31");
    expectRefused(await api(svc, `${calendar}0089-03-01`), "beyond six months");
    expect((await api(svc, "/v2/bookings?date_start=0000-01-01&date_end=0099-12-31")).status).toBe(200);
    expect((await api(svc, `/v2/product-types/${t.uuid}/price-lists/9999-12-31`)).status).toBe(200);
  });

  it("should take a customer without salutation and phone, and null for a key left out", async () => {
    await using svc = await start();
    const t = pickType(svc, { instant: true, timeslotted: false, children: false });
    await setInventory(svc, t.uuid, dateFromToday(svc.state, 12), { remaining: 10 });
    const body = bookingBody(svc, t, 12, {
      customer: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", phone: null },
      children: null,
      partnerReference: null,
    });
    const res = await api(svc, "/v2/bookings", { method: "POST", body });
    expect(res.status, res.text.slice(0, 200)).toBe(201);
    const long = "x".repeat(BOOKING_REQUEST_LIMITS.textMaxLength + 1);
    for (const customer of [
      { firstName: " ", lastName: "L", email: "a@b" },
      { firstName: "A", lastName: "L", email: "no-at-sign" },
      { firstName: "A", lastName: "L", email: `${long}@b` },
    ]) {
      const refused = await api(svc, "/v2/bookings", { method: "POST", body: { ...body, customer } });
      expectRefused(refused, JSON.stringify(customer));
    }
    const tooMany = { ...body, adults: BOOKING_REQUEST_LIMITS.quantityMax + 1 };
    expectRefused(await api(svc, "/v2/bookings", { method: "POST", body: tooMany }), "adults");
  });
});
