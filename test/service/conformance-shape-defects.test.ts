/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- response bodies are untyped JSON read by the assertions */
/**
 * The conformance defects of the key-set rules (lib/k6/conformance/shape-rules.ts, spec 2.1 and 2.3-2.9) through
 * HTTP: each adds one key the resource's key set does not have (a key of another resource, a v1 name, a key of the
 * data model), so its one rule of lib/contract/conformance-rules.ts breaks, and the service keeps the key set when it
 * is off. The keys the other rules read stay as they were.
 */
import { describe, expect, it } from "vitest";
import {
  BOOKING_DETAIL_FORBIDDEN_KEYS,
  BOOKING_LIST_ITEM_KEYS,
  PRICE_LIST_ENTRY_KEYS,
  PRODUCT_LIST_ITEM_KEYS,
  PRODUCT_TYPE_DETAIL_FORBIDDEN_KEYS,
  PRODUCT_TYPE_DETAIL_KEYS,
  PRODUCT_TYPE_SUMMARY_KEYS,
  SINGLE_DATE_PRICE_KEYS,
  VOUCHER_FILE_KEYS,
  diffKeys,
  type KeySet,
} from "../../lib/contract/index.ts";
import type { StartedService } from "../../service/app.ts";
import type { DefectName } from "../../service/defects/index.ts";
import { api, book, control, dateFromToday, pickType, start, withSeats } from "./helpers.ts";

async function setDefect(svc: StartedService, name: DefectName, on: boolean): Promise<void> {
  const res = await control(svc, "/__control/defects", { method: "PUT", body: { [name]: on } });
  expect(res.status, res.text).toBe(200);
}

/** The same request with the defect off and then on. */
async function offThenOn(svc: StartedService, defect: DefectName, path: string) {
  const off = await api(svc, path);
  await setDefect(svc, defect, true);
  const on = await api(svc, path);
  expect(off.status, off.text).toBe(200);
  expect(on.status, on.text).toBe(200);
  return { off, on };
}

/** How each item of a list differs from a key set, one diff per item. */
function itemDiffs(data: unknown, keys: KeySet) {
  return (data as object[]).map((item) => diffKeys(item, keys));
}

const EXACT = { missing: [], unexpected: [] };

/** A list answer's items and a detail answer's record, typed for the assertions. */
const itemsOf = (body: unknown) => (body as { data: Record<string, unknown>[] }).data;
const dataOf = (body: unknown) => (body as { data: Record<string, unknown> }).data;

/** An approved booking of an instant-confirmation type (one voucher issued), with partner reference ref-1. */
async function approvedBooking(svc: StartedService): Promise<string> {
  const uuid = await book(svc, await withSeats(svc, pickType(svc, { instant: true })));
  const confirmed = await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" });
  expect(confirmed.body.data.status).toBe("approved");
  return uuid;
}

describe("conformance defects of the key-set rules (spec 2)", () => {
  it("should put the detail's description into each product list item under conformance-product-list-has-description (2.1-product-list-keys)", async () => {
    await using svc = await start();
    const path = "/v2/products?per_page=5";
    const { off, on } = await offThenOn(svc, "conformance-product-list-has-description", path);
    expect(itemDiffs(off.body.data, PRODUCT_LIST_ITEM_KEYS)).toEqual(Array(5).fill(EXACT));
    expect(itemDiffs(on.body.data, PRODUCT_LIST_ITEM_KEYS)).toEqual(
      Array(5).fill({ missing: [], unexpected: ["description"] }),
    );
    const first = itemsOf(on.body)[0] ?? {};
    expect(first.description).toBe(dataOf((await api(svc, `/v2/products/${String(first.uuid)}`)).body).description);
    // The other keys are the correct ones, and off again the list is correct again (no item was cached with it).
    for (const [i, item] of itemsOf(on.body).entries()) {
      const { description: _leaked, ...rest } = item;
      expect(rest).toEqual(off.body.data[i]);
    }
    await setDefect(svc, "conformance-product-list-has-description", false);
    expect((await api(svc, path)).body).toEqual(off.body);
  });

  it("should put the product's uuid into each product type summary under conformance-type-summary-has-product-uuid (2.3-product-type-summary-keys)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const path = `/v2/products/${t.product.uuid}/product-types`;
    const { off, on } = await offThenOn(svc, "conformance-type-summary-has-product-uuid", path);
    const summaries = itemsOf(off.body);
    expect(summaries.length).toBeGreaterThan(0);
    expect(itemDiffs(summaries, PRODUCT_TYPE_SUMMARY_KEYS)).toEqual(summaries.map(() => EXACT));
    expect(itemDiffs(on.body.data, PRODUCT_TYPE_SUMMARY_KEYS)).toEqual(
      summaries.map(() => ({ missing: [], unexpected: ["productUuid"] })),
    );
    expect(itemsOf(on.body).map((s) => s.productUuid)).toEqual(summaries.map(() => t.product.uuid));
    // uuid, title and links as they were (4.1-product-types-of-product compares them with the detail).
    expect(itemsOf(on.body).map(({ productUuid: _leaked, ...rest }) => rest)).toEqual(summaries);
    expect(on.body.meta).toEqual(off.body.meta);
  });

  it("should keep v1's minAdults and maxAdults in the product type detail under conformance-type-detail-has-min-adults (2.4-product-type-detail-keys)", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const { off, on } = await offThenOn(svc, "conformance-type-detail-has-min-adults", `/v2/product-types/${t.uuid}`);
    expect(diffKeys(off.body.data, PRODUCT_TYPE_DETAIL_KEYS)).toEqual(EXACT);
    expect(diffKeys(on.body.data, PRODUCT_TYPE_DETAIL_KEYS)).toEqual({
      missing: [],
      unexpected: [...PRODUCT_TYPE_DETAIL_FORBIDDEN_KEYS],
    });
    expect(on.body.data).toMatchObject({
      minAdults: t.minPax,
      maxAdults: t.maxPax,
      minPax: t.minPax,
      maxPax: t.maxPax,
    });
    // A sparse detail keeps to the fields asked for, so the fields rule still holds.
    const sparse = await api(svc, `/v2/product-types/${t.uuid}?fields=title`);
    expect(Object.keys(sparse.body.data).sort()).toEqual(["links", "title", "uuid"]);
  });

  it("should put voucherValidity into the calendar's entries under conformance-calendar-has-voucher-validity (2.5-price-list-entry-keys)", async () => {
    await using svc = await start();
    const t = pickType(svc, { children: true });
    const date = dateFromToday(svc.state, 21);
    const calendar = `/v2/product-types/${t.uuid}/price-lists?date_start=${date}&date_end=${dateFromToday(svc.state, 23)}`;
    const single = `/v2/product-types/${t.uuid}/price-lists/${date}`;
    const singleOff = await api(svc, single);
    const { off, on } = await offThenOn(svc, "conformance-calendar-has-voucher-validity", calendar);
    expect(itemDiffs(off.body.data, PRICE_LIST_ENTRY_KEYS)).toEqual(Array(3).fill(EXACT));
    expect(itemDiffs(on.body.data, PRICE_LIST_ENTRY_KEYS)).toEqual(
      Array(3).fill({ missing: [], unexpected: ["voucherValidity"] }),
    );
    // The single-date result's voucherValidity, the calendar's other keys unchanged; the single-date result too.
    expect(on.body.data[0].voucherValidity).toEqual(singleOff.body.data.voucherValidity);
    expect(on.body.data[0].voucherValidity).toHaveProperty("children");
    for (const [i, entry] of (on.body.data as Record<string, unknown>[]).entries()) {
      const { voucherValidity: _leaked, ...rest } = entry;
      expect(rest).toEqual(off.body.data[i]);
    }
    expect(diffKeys((await api(svc, single)).body.data, SINGLE_DATE_PRICE_KEYS)).toEqual(EXACT);
  });

  it("should put the day's free seats into the single-date result under conformance-single-date-has-remaining (2.6-single-date-keys)", async () => {
    await using svc = await start();
    for (const timeslotted of [true, false]) {
      const t = await withSeats(svc, pickType(svc, { timeslotted }), 21);
      const date = dateFromToday(svc.state, 21);
      const single = `/v2/product-types/${t.uuid}/price-lists/${date}`;
      const off = await api(svc, single);
      expect(diffKeys(off.body.data, SINGLE_DATE_PRICE_KEYS)).toEqual(EXACT);
      await setDefect(svc, "conformance-single-date-has-remaining", true);
      const on = await api(svc, single);
      expect(diffKeys(on.body.data, SINGLE_DATE_PRICE_KEYS)).toEqual({ missing: [], unexpected: ["remaining"] });
      // withSeats gave every slot of the day 50 seats.
      expect(on.body.data.remaining).toBe(50 * Math.max(1, t.timeslots.length));
      const { remaining: _leaked, ...rest } = dataOf(on.body);
      expect(rest).toEqual(off.body.data);
      // The calendar's entries keep their key set.
      const calendar = await api(svc, `/v2/product-types/${t.uuid}/price-lists?date_start=${date}&date_end=${date}`);
      expect(itemDiffs(calendar.body.data, PRICE_LIST_ENTRY_KEYS)).toEqual([EXACT]);
      await setDefect(svc, "conformance-single-date-has-remaining", false);
    }
  });

  it("should put partner_reference into each booking list item under conformance-booking-list-has-partner-reference (2.7-booking-list-keys)", async () => {
    await using svc = await start();
    const uuid = await approvedBooking(svc);
    const { off, on } = await offThenOn(
      svc,
      "conformance-booking-list-has-partner-reference",
      "/v2/bookings?partner_reference=ref-1",
    );
    expect(itemDiffs(off.body.data, BOOKING_LIST_ITEM_KEYS)).toEqual([EXACT]);
    expect(itemDiffs(on.body.data, BOOKING_LIST_ITEM_KEYS)).toEqual([
      { missing: [], unexpected: ["partner_reference"] },
    ]);
    expect(on.body.data[0]).toEqual({ ...off.body.data[0], partner_reference: "ref-1" });
    expect(on.body.data[0].uuid).toBe(uuid);
  });

  it("should keep v1's guests in the booking detail under conformance-booking-detail-has-guests (2.8-booking-detail-keys)", async () => {
    await using svc = await start();
    const uuid = await approvedBooking(svc);
    const { off, on } = await offThenOn(svc, "conformance-booking-detail-has-guests", `/v2/bookings/${uuid}`);
    const forbiddenIn = (data: object) =>
      Object.keys(data).filter((k) => (BOOKING_DETAIL_FORBIDDEN_KEYS as readonly string[]).includes(k));
    expect(forbiddenIn(off.body.data)).toEqual([]);
    expect(forbiddenIn(on.body.data)).toEqual(["guests"]);
    expect(on.body.data).toEqual({ ...dataOf(off.body), guests: dataOf(off.body).adults });
    // The read path only: the cancel answer (like create and confirm) has no guests.
    const cancelled = await api(svc, `/v2/bookings/${uuid}/cancel`, { method: "PUT" });
    expect(cancelled.status).toBe(200);
    expect(forbiddenIn(cancelled.body.data)).toEqual([]);
  });

  it("should put the booking's uuid into each voucher file under conformance-voucher-has-booking-uuid (2.9-voucher-keys)", async () => {
    await using svc = await start();
    const uuid = await approvedBooking(svc);
    const { off, on } = await offThenOn(svc, "conformance-voucher-has-booking-uuid", `/v2/bookings/${uuid}/vouchers`);
    expect(itemDiffs(off.body.data, VOUCHER_FILE_KEYS)).toEqual([EXACT]);
    expect(itemDiffs(on.body.data, VOUCHER_FILE_KEYS)).toEqual([{ missing: [], unexpected: ["bookingUuid"] }]);
    expect(on.body.data[0]).toEqual({ ...off.body.data[0], bookingUuid: uuid });
    expect(on.body.links).toEqual(off.body.links);
  });
});
