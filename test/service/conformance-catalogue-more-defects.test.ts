/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- response bodies are untyped JSON read by the assertions */
/**
 * The conformance defects of catalogue-more-rules.ts's rules through HTTP: each breaks its one rule of
 * lib/contract/conformance-rules.ts when switched on, and the service keeps the rule when it is off.
 */
import { describe, expect, it } from "vitest";
import { UUID_PATTERN } from "../../lib/contract/schema.ts";
import type { StartedService } from "../../service/app.ts";
import { api, control, dateFromToday, pickType, setInventory, start } from "./helpers.ts";

const UUID = new RegExp(UUID_PATTERN);
const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";

async function switchOn(svc: StartedService, defect: string): Promise<void> {
  const res = await control(svc, "/__control/defects", { method: "PUT", body: { [defect]: true } });
  expect(res.status, res.text).toBe(200);
}

/** The same request with the defect off and then on. */
async function offThenOn(svc: StartedService, defect: string, path: string) {
  const off = await api(svc, path);
  await switchOn(svc, defect);
  const on = await api(svc, path);
  return { off, on };
}

interface Link {
  rel: string;
  href: string;
}

/** The dates of a calendar answer's entries. */
function datesOf(body: unknown): string[] {
  return (body as { data: { date: string }[] }).data.map((e) => e.date);
}

/** The timeslot values of an answer's timeslots. */
function slotsOf(timeslots: unknown): string[] {
  return (timeslots as { timeslot: string }[]).map((s) => s.timeslot);
}

function productOf(svc: StartedService): string {
  return svc.state.catalogue.products[0]?.uuid ?? "";
}

describe("conformance defects of catalogue-more-rules.ts", () => {
  it("should write the product detail's typeUuid as a slug under conformance-type-uuid-not-uuid (gaps-formats-uuids)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(svc, "conformance-type-uuid-not-uuid", `/v2/products/${productOf(svc)}`);
    expect(off.body.data.typeUuid).toMatch(UUID);
    expect(on.status).toBe(200);
    expect(on.body.data.typeUuid).toMatch(/^kind-\d+$/);
    expect(on.body.data.uuid).toBe(off.body.data.uuid);
    // The list items keep theirs.
    expect((await api(svc, "/v2/products?per_page=2")).body.data[0].typeUuid).toMatch(UUID);
  });

  it("should write the product detail's validity as DD/MM/YYYY under conformance-date-slashes (gaps-formats-dates)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(svc, "conformance-date-slashes", `/v2/products/${productOf(svc)}`);
    expect(off.body.data.validFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const [y, m, d] = (off.body.data.validThrough as string).split("-");
    expect(on.body.data.validThrough).toBe(`${d}/${m}/${y}`);
    expect(on.body.data.validFrom).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    // The calendar's dates stay YYYY-MM-DD.
    const t = pickType(svc);
    const date = dateFromToday(svc.state, 21);
    const calendar = await api(svc, `/v2/product-types/${t.uuid}/price-lists?date_start=${date}&date_end=${date}`);
    expect(calendar.body.data[0].date).toBe(date);
  });

  it("should write the calendar's timeslots as HH:MM:SS under conformance-timeslot-seconds (gaps-formats-timeslots)", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: true });
    const date = dateFromToday(svc.state, 21);
    const path = `/v2/product-types/${t.uuid}/price-lists?date_start=${date}&date_end=${date}`;
    const { off, on } = await offThenOn(svc, "conformance-timeslot-seconds", path);
    expect(slotsOf(off.body.data[0].timeslots)).toEqual(t.timeslots);
    expect(slotsOf(on.body.data[0].timeslots)).toEqual(t.timeslots.map((s) => `${s}:00`));
    // Availability is unchanged, and the single-date result keeps HH:MM (what a booking is made with).
    expect(on.body.data[0].available).toBe(off.body.data[0].available);
    const single = await api(svc, `/v2/product-types/${t.uuid}/price-lists/${date}`);
    expect(slotsOf(single.body.data.timeslots)).toEqual(t.timeslots);
  });

  it("should answer an unknown booking's vouchers with an empty list under conformance-unknown-booking-vouchers-empty (gaps-error-404)", async () => {
    await using svc = await start();
    const path = `/v2/bookings/${NO_SUCH_UUID}/vouchers`;
    const { off, on } = await offThenOn(svc, "conformance-unknown-booking-vouchers-empty", path);
    expect(off.status).toBe(404);
    expect(off.body.error.code).toBe("not_found");
    expect(on.status).toBe(200);
    expect(on.body.data).toEqual([]);
    // The booking itself and the other detail paths still answer 404.
    const booking = await api(svc, `/v2/bookings/${NO_SUCH_UUID}`);
    expect(booking.status).toBe(404);
    expect(booking.body.error.code).toBe("not_found");
    expect((await api(svc, `/v2/products/${NO_SUCH_UUID}`)).status).toBe(404);
  });

  it("should write the products list's page numbers as strings under conformance-pagination-as-strings (gaps-lists-envelope)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(svc, "conformance-pagination-as-strings", "/v2/products?per_page=2");
    expect(off.body.meta.pagination).toMatchObject({ current_page: 1, per_page: 2, count: 2 });
    expect(on.body.meta.pagination).toEqual({
      ...off.body.meta.pagination,
      current_page: "1",
      total_pages: String(off.body.meta.pagination.total_pages),
    });
    expect(on.body.data).toEqual(off.body.data);
    // The other lists keep numbers.
    const types = await api(svc, `/v2/products/${productOf(svc)}/product-types`);
    expect(types.body.meta.pagination.current_page).toBe(1);
  });

  it("should serve page=0 as page 1 under conformance-page-zero-accepted (gaps-pagination-params)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(svc, "conformance-page-zero-accepted", "/v2/products?page=0");
    expect(off.status).toBe(400);
    expect(off.body.error.code).toBe("invalid_params");
    expect(on.status).toBe(200);
    expect(on.body.meta.pagination.current_page).toBe(1);
    // per_page is still bounded, and the default page size kept.
    expect((await api(svc, "/v2/products?per_page=101")).status).toBe(400);
    expect((await api(svc, "/v2/products")).body.meta.pagination.per_page).toBe(10);
  });

  it("should point the product detail's restrictions link at /v1 under conformance-link-to-v1 (9-version-prefix)", async () => {
    await using svc = await start();
    const uuid = productOf(svc);
    const { off, on } = await offThenOn(svc, "conformance-link-to-v1", `/v2/products/${uuid}`);
    const dataLinks = (body: unknown) => (body as { data: { links: Link[] } }).data.links;
    const restrictions = (body: unknown) => dataLinks(body).find((l) => l.rel === "restrictions")?.href;
    expect(restrictions(off.body)).toBe(`/v2/products/${uuid}/restrictions`);
    expect(restrictions(on.body)).toBe(`/v1/products/${uuid}/restrictions`);
    // The answer's own links and the other data links stay under /v2.
    expect(on.body.links).toEqual(off.body.links);
    expect(dataLinks(on.body).filter((l) => l.rel !== "restrictions")).toEqual(
      dataLinks(off.body).filter((l) => l.rel !== "restrictions"),
    );
  });

  it("should serve a DD-MM-YYYY calendar under conformance-date-day-first-accepted (4.2-date-format)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const base = `/v2/product-types/${t.uuid}/price-lists`;
    const { off, on } = await offThenOn(
      svc,
      "conformance-date-day-first-accepted",
      `${base}?date_start=07-01-2030&date_end=2030-01-08`,
    );
    expect(off.status).toBe(400);
    expect(off.body.error.code).toBe("invalid_params");
    expect(on.status).toBe(200);
    expect(datesOf(on.body)).toEqual(["2030-01-07", "2030-01-08"]);
    // Dates that are no dates, and the single-date path, are still refused.
    expect((await api(svc, `${base}?date_start=2030-13-01&date_end=2030-01-08`)).status).toBe(400);
    expect((await api(svc, `${base}/2030-02-30`)).status).toBe(400);
    expect((await api(svc, `${base}/20300107`)).status).toBe(400);
  });

  it("should leave out the calendar's last date under conformance-calendar-drops-last-day (2.5-one-entry-per-date)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const path = `/v2/product-types/${t.uuid}/price-lists?date_start=2030-01-07&date_end=2030-01-09`;
    const { off, on } = await offThenOn(svc, "conformance-calendar-drops-last-day", path);
    expect(datesOf(off.body)).toEqual(["2030-01-07", "2030-01-08", "2030-01-09"]);
    expect(datesOf(on.body)).toEqual(["2030-01-07", "2030-01-08"]);
    expect(on.body.meta.pagination.total).toBe(2);
    // A calendar of one day keeps its day.
    const one = await api(svc, `/v2/product-types/${t.uuid}/price-lists?date_start=2030-01-07&date_end=2030-01-07`);
    expect(datesOf(one.body)).toEqual(["2030-01-07"]);
  });

  it("should give one voucherValidity for everyone under conformance-voucher-validity-flat (2.6-voucher-validity-by-age)", async () => {
    await using svc = await start();
    const t = pickType(svc, { children: true });
    const path = `/v2/product-types/${t.uuid}/price-lists/${dateFromToday(svc.state, 21)}`;
    const { off, on } = await offThenOn(svc, "conformance-voucher-validity-flat", path);
    expect(Object.keys(off.body.data.voucherValidity)).toEqual(expect.arrayContaining(["adults", "children"]));
    expect(on.body.data.voucherValidity).toEqual(off.body.data.voucherValidity.adults);
    expect(Object.keys(on.body.data).sort()).toEqual(Object.keys(off.body.data).sort());
  });

  it("should say total 0 on a product's type list under conformance-product-types-total-zero (1-product-has-types)", async () => {
    await using svc = await start();
    const path = `/v2/products/${productOf(svc)}/product-types`;
    const { off, on } = await offThenOn(svc, "conformance-product-types-total-zero", path);
    expect(off.body.meta.pagination.total).toBeGreaterThanOrEqual(1);
    expect(on.body.meta.pagination.total).toBe(0);
    expect(on.body.data).toEqual(off.body.data);
  });

  it("should prefix the product type detail's title under conformance-type-title-differs (4.1-product-types-of-product)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const { off, on } = await offThenOn(svc, "conformance-type-title-differs", `/v2/product-types/${t.uuid}`);
    expect(off.body.data.title).toBe(t.title);
    expect(on.body.data.title).toBe(`${t.product.title}: ${t.title}`);
    // The list keeps the type's own title.
    const list = await api(svc, `/v2/products/${t.product.uuid}/product-types?per_page=100`);
    const summaries = list.body.data as { uuid: string; title: string }[];
    expect(summaries.find((s) => s.uuid === t.uuid)?.title).toBe(t.title);
  });

  it("should answer an unknown product's restrictions under conformance-restrictions-unknown-product-empty (4.1-restrictions-answer)", async () => {
    await using svc = await start();
    const path = `/v2/products/${NO_SUCH_UUID}/restrictions`;
    const { off, on } = await offThenOn(svc, "conformance-restrictions-unknown-product-empty", path);
    expect(off.status).toBe(404);
    expect(off.body.error.code).toBe("not_found");
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ productUuid: NO_SUCH_UUID, allowedCountries: [], excludedCountries: [] });
    // A real product's restrictions and the unknown product itself are as before.
    expect((await api(svc, `/v2/products/${productOf(svc)}/restrictions`)).status).toBe(200);
    expect((await api(svc, `/v2/products/${NO_SUCH_UUID}`)).status).toBe(404);
  });

  it("should leave the locations out of the config under conformance-config-without-locations (4.4-config-items)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(svc, "conformance-config-without-locations", "/v2/config");
    expect(off.body.data.locations.length).toBeGreaterThan(0);
    expect(on.status).toBe(200);
    expect(on.body.data.locations).toBeUndefined();
    const { locations: _left, ...rest } = off.body.data as Record<string, unknown>;
    expect(on.body.data).toEqual(rest);
  });

  it("should write the restrictions' keys in snake_case under conformance-restrictions-snake-case (2-keys-camel-case)", async () => {
    await using svc = await start();
    const path = `/v2/products/${productOf(svc)}/restrictions`;
    const { off, on } = await offThenOn(svc, "conformance-restrictions-snake-case", path);
    expect(Object.keys(off.body.data).sort()).toEqual(["allowedCountries", "excludedCountries", "mode", "productUuid"]);
    expect(Object.keys(on.body.data).sort()).toEqual([
      "allowed_countries",
      "excluded_countries",
      "mode",
      "product_uuid",
    ]);
    expect(on.body.data.product_uuid).toBe(off.body.data.productUuid);
    // The product detail keeps camelCase.
    expect(Object.keys((await api(svc, `/v2/products/${productOf(svc)}`)).body.data)).toContain("typeUuid");
  });

  it("should describe list parameters in camelCase under conformance-query-camel-case (2-query-snake-case)", async () => {
    await using svc = await start();
    const parameters = (body: unknown) =>
      (body as { data: { methods: { method: string; parameters: string[] }[] } }).data.methods.find(
        (m) => m.method === "GET",
      )?.parameters;
    const off = await api(svc, "/v2/bookings", { method: "OPTIONS" });
    await switchOn(svc, "conformance-query-camel-case");
    const on = await api(svc, "/v2/bookings", { method: "OPTIONS" });
    expect(parameters(off.body)).toContain("per_page");
    expect(parameters(on.body)).toContain("perPage");
    expect(parameters(on.body)).toContain("firstName");
    expect(on.headers.get("allow")).toBe(off.headers.get("allow"));
    // The list itself still takes the snake_case names.
    expect((await api(svc, "/v2/bookings?per_page=1&first_name=Nobody")).status).toBe(200);
  });

  it("should list products in English whatever the language under conformance-products-language-ignored (4.1-products-language)", async () => {
    await using svc = await start();
    const { off, on } = await offThenOn(
      svc,
      "conformance-products-language-ignored",
      "/v2/products?per_page=2&language=de",
    );
    expect(Object.keys(off.body.data[0].titleTranslated)).toEqual(["de"]);
    expect(on.status).toBe(200);
    expect(Object.keys(on.body.data[0].titleTranslated)).toEqual(["en"]);
    // An unsupported language is still refused, and the detail still translated.
    expect((await api(svc, "/v2/products?language=zz")).status).toBe(400);
    const detail = await api(svc, `/v2/products/${productOf(svc)}?language=de`);
    expect(Object.keys(detail.body.data.titleTranslated)).toEqual(["de"]);
  });

  it("should show the seeded seats on the single-date result under conformance-single-date-ignores-supplier (2.6-real-time)", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false });
    const date = dateFromToday(svc.state, 26);
    const single = `/v2/product-types/${t.uuid}/price-lists/${date}`;
    expect((await api(svc, single)).body.data.available).toBe(true);
    await setInventory(svc, t.uuid, date, { remaining: 0 });
    expect((await api(svc, single)).body.data.available).toBe(false);
    await switchOn(svc, "conformance-single-date-ignores-supplier");
    expect((await api(svc, single)).body.data.available).toBe(true);
    // The calendar still shows what the supplier set.
    const calendar = await api(svc, `/v2/product-types/${t.uuid}/price-lists?date_start=${date}&date_end=${date}`);
    expect(calendar.body.data[0].available).toBe(false);
  });

  it("should serve a withdrawn type's calendar under conformance-withdrawn-type-calendar-served (gaps-error-410-gone)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const date = dateFromToday(svc.state, 21);
    const calendar = `/v2/product-types/${t.uuid}/price-lists?date_start=${date}&date_end=${date}`;
    const withdrawn = await control(svc, `/__control/product-types/${t.uuid}`, {
      method: "PUT",
      body: { available: false },
    });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    const { off, on } = await offThenOn(svc, "conformance-withdrawn-type-calendar-served", calendar);
    expect(off.status).toBe(410);
    expect(off.body.error.code).toBe("gone");
    expect(on.status).toBe(200);
    expect(on.body.data[0].available).toBe(false);
    // The detail and the single-date result still answer 410.
    expect((await api(svc, `/v2/product-types/${t.uuid}`)).status).toBe(410);
    expect((await api(svc, `/v2/product-types/${t.uuid}/price-lists/${date}`)).status).toBe(410);
  });

  it("should say available whenever timeslots are listed under conformance-single-date-available-by-timeslots (2.6-timeslots-mark-availability)", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: true });
    const date = dateFromToday(svc.state, 23);
    await setInventory(svc, t.uuid, date, { remaining: 0 });
    const single = `/v2/product-types/${t.uuid}/price-lists/${date}`;
    const { off, on } = await offThenOn(svc, "conformance-single-date-available-by-timeslots", single);
    expect(off.body.data.available).toBe(false);
    expect(on.body.data.available).toBe(true);
    expect(on.body.data.timeslots).toEqual(off.body.data.timeslots);
    // The calendar keeps the rule, and an open date stays available.
    const calendar = await api(svc, `/v2/product-types/${t.uuid}/price-lists?date_start=${date}&date_end=${date}`);
    expect(calendar.body.data[0].available).toBe(false);
    const open = await api(svc, `/v2/product-types/${t.uuid}/price-lists/${dateFromToday(svc.state, 21)}`);
    expect(open.body.data.available).toBe(true);
  });
});
