/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import { parseServiceArgs } from "../../service/options.ts";
import { ALT_KEY, api, book, bookingBody, control, dateFromToday, pickType, setInventory, start } from "./helpers.ts";

describe("--hold-seconds: reservations whose hold lapses", () => {
  it("should keep the seats held for the booking's whole life by default", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false });
    const date = dateFromToday(svc.state, 10);
    await setInventory(svc, t.uuid, date, { remaining: 1 });
    const uuid = await book(svc, t, 10);
    await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 61 } });
    const other = await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, t, 10), key: ALT_KEY });
    expect(other.status).toBe(422);
    expect((await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" })).status).toBe(200);
  });

  it("should give the seats back after the hold and refuse the confirm with 422 once another booking took them", async () => {
    await using svc = await start({ holdSeconds: 60 });
    const t = pickType(svc, { timeslotted: false, instant: true });
    const date = dateFromToday(svc.state, 10);
    await setInventory(svc, t.uuid, date, { remaining: 1 });
    const first = await book(svc, t, 10);
    await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 61 } });
    const read = await api(svc, `/v2/bookings/${first}`);
    expect(read.body.data.status).toBe("reserved");
    const second = await book(svc, t, 10, {}, ALT_KEY);
    const refused = await api(svc, `/v2/bookings/${first}/confirm`, { method: "PUT" });
    expect(refused.status).toBe(422);
    expect((await api(svc, `/v2/bookings/${second}/confirm`, { method: "PUT", key: ALT_KEY })).status).toBe(200);
  });

  it("should confirm a lapsed reservation while seats are still free", async () => {
    await using svc = await start({ holdSeconds: 60 });
    const t = pickType(svc, { timeslotted: false, instant: true });
    const date = dateFromToday(svc.state, 10);
    await setInventory(svc, t.uuid, date, { remaining: 2 });
    const first = await book(svc, t, 10);
    await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 61 } });
    expect((await api(svc, `/v2/bookings/${first}/confirm`, { method: "PUT" })).status).toBe(200);
  });

  it("should refuse a hold longer than the booking's life with a clear message", () => {
    expect(() => parseServiceArgs(["--hold-seconds", "999999"], {})).toThrow(/--hold-seconds must be an integer/);
  });
});
