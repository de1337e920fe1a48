/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
/**
 * The conformance defects of catalogue-more-rules.ts's rules through HTTP: each breaks its one rule of
 * lib/contract/conformance-rules.ts when switched on, and the service keeps the rule when it is off.
 */
import { describe, expect, it } from "vitest";
import { UUID_PATTERN } from "../../lib/contract/schema.ts";
import type { StartedService } from "../../service/app.ts";
import { api, control, dateFromToday, pickType, start } from "./helpers.ts";

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
});
