/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import { api, book, control, dateFromToday, pickType, setInventory, start } from "./helpers.ts";

describe("concurrency correctness", () => {
  it("should confirm exactly one of many reservations racing for the last seat", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false, instant: true });
    const date = dateFromToday(svc.state, 10);
    await setInventory(svc, t.uuid, date, { remaining: 20 });
    const uuids = await Promise.all(Array.from({ length: 20 }, () => book(svc, t)));
    await setInventory(svc, t.uuid, date, { remaining: 1 });
    const results = await Promise.all(uuids.map((u) => api(svc, `/v2/bookings/${u}/confirm`, { method: "PUT" })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 422)).toHaveLength(19);
    const gt = await control(svc, `/__control/inventory/${t.uuid}?date_start=${date}&date_end=${date}`);
    expect(gt.body.data.days[0].supply).toBe(0);
  });

  it("should let only one of concurrent confirms of one booking succeed", async () => {
    await using svc = await start();
    const uuid = await book(svc, pickType(svc, { instant: true }));
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
  });

  it("should end a confirm-vs-cancel race in one legal state", async () => {
    await using svc = await start();
    const uuid = await book(svc, pickType(svc, { instant: true }));
    const [c, x] = await Promise.all([
      api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" }),
      api(svc, `/v2/bookings/${uuid}/cancel`, { method: "PUT" }),
    ]);
    expect([c.status, x.status].every((s) => s === 200 || s === 409)).toBe(true);
    const read = await api(svc, `/v2/bookings/${uuid}`);
    expect(["approved", "reserved"]).toContain(read.body.data.status);
  });

  it("should never oversell: concurrent new bookings never take more than the remaining seats", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false });
    const date = dateFromToday(svc.state, 11);
    await setInventory(svc, t.uuid, date, { remaining: 7 });
    const body = (await import("./helpers.ts")).bookingBody(svc, t, 11);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => api(svc, "/v2/bookings", { method: "POST", body })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(7);
    const gt = await control(svc, `/__control/inventory/${t.uuid}?date_start=${date}&date_end=${date}`);
    expect(gt.body.data.days[0]).toMatchObject({ remaining: 0, held: 7 });
  });

  it("should oversell under a confirm race when the booking-oversell-race defect is on", async () => {
    await using svc = await start({ defects: ["booking-oversell-race"] });
    const t = pickType(svc, { timeslotted: false, instant: true });
    const date = dateFromToday(svc.state, 10);
    await setInventory(svc, t.uuid, date, { remaining: 5 });
    const uuids = await Promise.all(Array.from({ length: 5 }, () => book(svc, t)));
    await setInventory(svc, t.uuid, date, { remaining: 1 });
    const results = await Promise.all(uuids.map((u) => api(svc, `/v2/bookings/${u}/confirm`, { method: "PUT" })));
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(1);
  });
});
