/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import {
  BOOKING_DETAIL_FORBIDDEN_KEYS,
  BOOKING_DETAIL_REQUIRED_KEYS,
  BOOKING_LIST_ITEM_KEYS,
  VOUCHER_FILE_KEYS,
  diffKeys,
} from "../../lib/contract/index.ts";
import {
  ALT_KEY,
  api,
  book,
  bookingBody,
  control,
  dateFromToday,
  pickType,
  setInventory,
  start,
  withSeats,
} from "./helpers.ts";

const DAY = 86_400;

describe("bookings: create, read, list", () => {
  it("should create a reserved booking with adults, options and partner_reference, and no v1 keys", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const res = await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, t) });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data.status).toBe("reserved");
    expect(data.adults).toBe(1);
    for (const k of BOOKING_DETAIL_REQUIRED_KEYS) expect(data).toHaveProperty(k);
    for (const k of BOOKING_DETAIL_FORBIDDEN_KEYS) expect(data).not.toHaveProperty(k);
    const read = await api(svc, `/v2/bookings/${data.uuid as string}`);
    expect(read.body.data).toEqual(data);
  });

  it("should hold capacity while reserved, visible in the single-date price", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false });
    const date = dateFromToday(svc.state, 10);
    await setInventory(svc, t.uuid, date, { remaining: 3 });
    await book(svc, t, 10, { adults: 2 });
    const gt = await control(svc, `/__control/inventory/${t.uuid}?date_start=${date}&date_end=${date}`);
    expect(gt.body.data.days[0]).toMatchObject({ remaining: 1, supply: 3, held: 2 });
    const over = await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, t, 10, { adults: 2 }) });
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe("invalid_data");
  });

  it("should list only the partner's bookings with every filter of spec 4.3", async () => {
    await using svc = await start();
    const t = await withSeats(svc, await withSeats(svc, pickType(svc, { instant: true })), 12);
    const a = await book(svc, t, 10, {
      partnerReference: "alpha",
      customer: { firstName: "Ann", lastName: "Lee", email: "ann@x.io", phone: "1" },
    });
    await book(svc, t, 12, { partnerReference: "beta" });
    await book(svc, t, 10, {}, ALT_KEY);
    const all = await api(svc, "/v2/bookings");
    expect(all.body.data).toHaveLength(2);
    for (const item of all.body.data)
      expect(diffKeys(item, BOOKING_LIST_ITEM_KEYS)).toEqual({ missing: [], unexpected: [] });
    const d10 = dateFromToday(svc.state, 10);
    for (const q of [
      "partner_reference=alpha",
      "first_name=ann",
      "last_name=Lee",
      "email=ann@x.io",
      "phone=1",
      `date_start=${d10}&date_end=${d10}`,
    ]) {
      const res = await api(svc, `/v2/bookings?${q}`);
      expect(
        res.body.data.map((b: { uuid: string }) => b.uuid),
        q,
      ).toEqual([a]);
    }
    expect((await api(svc, "/v2/bookings?status=reserved")).body.data).toHaveLength(2);
    expect((await api(svc, "/v2/bookings?status=approved")).body.data).toHaveLength(0);
    expect((await api(svc, "/v2/bookings?per_page=1&page=2")).body.meta.pagination).toMatchObject({
      total: 2,
      count: 1,
    });
    expect((await api(svc, `/v2/bookings/${a}`, { key: ALT_KEY })).status).toBe(404);
  });
});

describe("booking state machine", () => {
  it("should go reserved -> approved on confirm of an instant type, with a downloadable voucher", async () => {
    await using svc = await start();
    const uuid = await book(svc, await withSeats(svc, pickType(svc, { instant: true })));
    const res = await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("approved");
    const vouchers = await api(svc, `/v2/bookings/${uuid}/vouchers`);
    expect(vouchers.body.data).toHaveLength(1);
    expect(diffKeys(vouchers.body.data[0], VOUCHER_FILE_KEYS)).toEqual({ missing: [], unexpected: [] });
    const href = vouchers.body.data[0].links[0].href as string;
    expect((await api(svc, href, { key: null })).status).toBe(401);
    expect((await api(svc, href, { key: ALT_KEY })).status).toBe(404);
    const file = await api(svc, href);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.text.startsWith("%PDF")).toBe(true);
    const after = await api(svc, `/v2/bookings/${uuid}/vouchers`);
    expect(after.body.data[0].downloadedAt).toEqual(expect.any(String));
  });

  it("should go reserved -> waiting -> approved (or rejected) by the supplier through the clock", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: false }));
    const ok = await book(svc, t);
    const no = await book(svc, t, 10, { partnerReference: "reject-me" });
    for (const uuid of [ok, no]) {
      const res = await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" });
      expect(res.body.data.status).toBe("waiting");
    }
    expect((await api(svc, `/v2/bookings/${ok}/vouchers`)).body.data).toHaveLength(0);
    await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 61 } });
    expect((await api(svc, `/v2/bookings/${ok}`)).body.data.status).toBe("approved");
    expect((await api(svc, `/v2/bookings/${no}`)).body.data.status).toBe("rejected");
    expect((await api(svc, `/v2/bookings/${ok}/vouchers`)).body.data).toHaveLength(1);
  });

  it("should cancel reserved and approved bookings through a pending request, releasing capacity", async () => {
    await using svc = await start();
    const t = pickType(svc, { instant: true, timeslotted: false });
    const date = dateFromToday(svc.state, 10);
    await setInventory(svc, t.uuid, date, { remaining: 5 });
    const reserved = await book(svc, t, 10, { adults: 2 });
    const approved = await book(svc, t, 10, { adults: 2 });
    await api(svc, `/v2/bookings/${approved}/confirm`, { method: "PUT" });
    for (const uuid of [reserved, approved]) {
      const res = await api(svc, `/v2/bookings/${uuid}/cancel`, { method: "PUT" });
      expect(res.status).toBe(200);
      expect(res.body.data.cancellationRequestStatus).toBe("pending");
      const again = await api(svc, `/v2/bookings/${uuid}/cancel`, { method: "PUT" });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("invalid_action");
    }
    await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 31 } });
    for (const uuid of [reserved, approved]) {
      expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.status).toBe("cancelled");
    }
    const gt = await control(svc, `/__control/inventory/${t.uuid}?date_start=${date}&date_end=${date}`);
    expect(gt.body.data.days[0]).toMatchObject({ remaining: 5, supply: 5, held: 0 });
  });

  it("should expire a reserved booking after 5 days through the clock and release its seats", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false });
    const date = dateFromToday(svc.state, 10);
    await setInventory(svc, t.uuid, date, { remaining: 2 });
    const uuid = await book(svc, t, 10, { adults: 2 });
    await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 5 * DAY - 60 } });
    expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.status).toBe("reserved");
    await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 120 } });
    expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.status).toBe("expired");
    const gt = await control(svc, `/__control/inventory/${t.uuid}?date_start=${date}&date_end=${date}`);
    expect(gt.body.data.days[0]).toMatchObject({ remaining: 2, held: 0 });
  });

  it("should refuse every transition not allowed from the current status with 409 and change nothing", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: false }));
    const waiting = await book(svc, t);
    await api(svc, `/v2/bookings/${waiting}/confirm`, { method: "PUT" });
    const expired = await book(svc, t);
    const approved = await book(svc, await withSeats(svc, pickType(svc, { instant: true })));
    await api(svc, `/v2/bookings/${approved}/confirm`, { method: "PUT" });
    const refused: [string, string, string][] = [
      [waiting, "confirm", "waiting"],
      [waiting, "cancel", "waiting"],
      [approved, "confirm", "approved"],
    ];
    for (const [uuid, action, status] of refused) {
      const res = await api(svc, `/v2/bookings/${uuid}/${action}`, { method: "PUT" });
      expect(res.status, `${action} on ${status}`).toBe(409);
      expect(res.body.error.code).toBe("invalid_action");
      expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.status).toBe(status);
    }
    await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 6 * DAY } });
    for (const action of ["confirm", "cancel"]) {
      const res = await api(svc, `/v2/bookings/${expired}/${action}`, { method: "PUT" });
      expect(res.status).toBe(409);
    }
    const cancelled = await book(svc, await withSeats(svc, pickType(svc, { instant: true }), 20), 20);
    await api(svc, `/v2/bookings/${cancelled}/cancel`, { method: "PUT" });
    await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 60 } });
    expect((await api(svc, `/v2/bookings/${cancelled}`)).body.data.status).toBe("cancelled");
    for (const action of ["confirm", "cancel"]) {
      expect((await api(svc, `/v2/bookings/${cancelled}/${action}`, { method: "PUT" })).status).toBe(409);
    }
    expect((await api(svc, `/v2/bookings/${cancelled}/approve`, { method: "PUT" })).status).toBe(404);
  });

  it("should answer 422 prices_mismatch when the supplier sold the seats, and stay reserved", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { timeslotted: false }));
    const uuid = await book(svc, t);
    await setInventory(svc, t.uuid, dateFromToday(svc.state, 10), { remaining: 0 });
    const res = await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" });
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({
      code: "prices_mismatch",
      message: expect.any(String),
      http_code: 422,
    });
    expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.status).toBe("reserved");
  });
});
