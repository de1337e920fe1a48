/**
 * The reference service does what docs/test-hooks.openapi.yaml says where a team had to guess before: the seats a
 * PUT sets against held ones and on closed dates, caps, refusals that change nothing, bounds, which catalogue changes
 * emit; and each of its hook variations takes the other choice the document leaves open.
 */
import { describe, expect, it } from "vitest";
import { ADVANCE_SECONDS_MAX, INVENTORY_RANGE_MAX_DAYS, TIME_SCALE_MAX } from "../../lib/contract/index.ts";
import type { StartedService } from "../../service/app.ts";
import {
  KEY,
  api,
  book,
  bookingBody,
  control,
  dateFromToday,
  pickType,
  setInventory,
  start,
  type Res,
} from "./helpers.ts";

const dataOf = (res: Res) => (res.body as { data: Record<string, unknown> }).data;
const errorOf = (res: Res) => (res.body as { error: { code: string; message: string } }).error;

async function clockOf(svc: StartedService): Promise<{ timeScale: number; nowMs: number }> {
  return dataOf(await control(svc, "/__control/clock")) as { timeScale: number; nowMs: number };
}

function inventoryPath(uuid: string, from: string, to: string): string {
  return `/__control/inventory/${uuid}?date_start=${from}&date_end=${to}`;
}

async function dayRead(svc: StartedService, uuid: string, date: string): Promise<Record<string, unknown>> {
  const res = await control(svc, inventoryPath(uuid, date, date));
  return (res.body as { data: { days: Record<string, unknown>[] } }).data.days[0] ?? {};
}

async function ledgerTypes(svc: StartedService, uuid: string): Promise<string[]> {
  const res = await control(svc, `/__control/events?resource=${uuid}`);
  return (res.body as { data: { type: string }[] }).data.map((e) => e.type);
}

describe("the hooks document's rules, as the reference service keeps them", () => {
  it("should count held seats in remaining: a new booking gets what they leave, the reservation still confirms", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false, instant: true });
    const date = dateFromToday(svc.state, 10);
    await setInventory(svc, t.uuid, date, { remaining: 1 });
    const uuid = await book(svc, t);
    await setInventory(svc, t.uuid, date, { remaining: 1 });
    expect(await dayRead(svc, t.uuid, date)).toMatchObject({ remaining: 0, supply: 1, held: 1 });
    expect((await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, t) })).status).toBe(422);
    expect((await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" })).status).toBe(200);
  });

  it("should read remaining 0 on a date no booking can be made for, whatever seats were set there", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false });
    const past = dateFromToday(svc.state, -2);
    await setInventory(svc, t.uuid, past, { remaining: 5 });
    expect(await dayRead(svc, t.uuid, past)).toMatchObject({ remaining: 0, supply: 5, open: false });
  });

  it("should read every date up to 400 days after date_start, and refuse a longer range or a missing date", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const from = dateFromToday(svc.state, 1);
    const widest = await control(
      svc,
      inventoryPath(t.uuid, from, dateFromToday(svc.state, 1 + INVENTORY_RANGE_MAX_DAYS)),
    );
    expect(widest.status).toBe(200);
    expect(dataOf(widest).days).toHaveLength(INVENTORY_RANGE_MAX_DAYS + 1);
    const longer = await control(
      svc,
      inventoryPath(t.uuid, from, dateFromToday(svc.state, 2 + INVENTORY_RANGE_MAX_DAYS)),
    );
    expect([longer.status, errorOf(longer).code]).toEqual([400, "invalid_params"]);
    const missing = await control(svc, `/__control/inventory/${t.uuid}?date_start=${from}`);
    expect([missing.status, errorOf(missing).message]).toEqual([400, "date_end is required."]);
  });

  it("should refuse a clock change beyond its bounds whole, and advance by fractions of a second", async () => {
    await using svc = await start();
    const clock = (body: unknown) => control(svc, "/__control/clock", { method: "POST", body });
    const before = await clockOf(svc);
    for (const body of [
      { timeScale: TIME_SCALE_MAX * 2 },
      { timeScale: 0 },
      { timeScale: null },
      { timeScale: 5, advanceSeconds: ADVANCE_SECONDS_MAX + 1 },
    ]) {
      expect((await clock(body)).status, JSON.stringify(body)).toBe(400);
    }
    const after = await clockOf(svc);
    expect(after.timeScale).toBe(before.timeScale);
    expect(after.nowMs - before.nowMs).toBeLessThan(60_000);
    const advanced = dataOf(await clock({ advanceSeconds: 3600.25 })) as { nowMs: number };
    expect(advanced.nowMs - after.nowMs).toBeGreaterThanOrEqual(3_600_250);
  });

  it("should emit a catalogue event only for what changes", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const change = (body: unknown) => control(svc, `/__control/product-types/${t.uuid}`, { method: "PUT", body });
    expect((await change({ available: true, title: t.title, description: t.description })).status).toBe(200);
    expect(await ledgerTypes(svc, t.uuid)).toEqual([]);
    await change({ title: "New title", available: false });
    expect((await ledgerTypes(svc, t.uuid)).sort()).toEqual([
      "product_type_content_updated",
      "product_type_not_available",
    ]);
    const p = t.product;
    await control(svc, `/__control/products/${p.uuid}`, { method: "PUT", body: { title: p.title, available: true } });
    expect(await ledgerTypes(svc, p.uuid)).toEqual([]);
  });

  it("should change nothing on a body it refuses", async () => {
    await using svc = await start();
    const partner = (body: unknown) => control(svc, `/__control/partners/${KEY}`, { method: "PUT", body });
    expect((await partner({ name: "Renamed", alternatives: "yes" })).status).toBe(400);
    expect(dataOf(await control(svc, `/__control/partners/${KEY}`)).name).not.toBe("Renamed");
    const t = pickType(svc, { timeslotted: false });
    await setInventory(svc, t.uuid, dateFromToday(svc.state, 10), { remaining: 50 });
    const uuid = await book(svc, t);
    const bookingChange = await control(svc, `/__control/bookings/${uuid}`, {
      method: "PUT",
      body: { partnerReference: "changed", customer: { firstName: 1 } },
    });
    expect(bookingChange.status).toBe(400);
    expect(dataOf(await control(svc, `/__control/bookings/${uuid}`)).partner_reference).toBe("ref-1");
  });

  it("should refuse a query value outside the document", async () => {
    await using svc = await start();
    for (const path of [
      "/__control/product-types?limit=0",
      "/__control/product-types?timeslotted=yes",
      "/__control/events?since=abc",
      "/__control/events?limit=0",
    ]) {
      const res = await control(svc, path);
      expect([res.status, errorOf(res).code], path).toEqual([400, "invalid_params"]);
    }
  });

  it("should ignore a body key the document does not name, at any depth", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false });
    const date = dateFromToday(svc.state, 10);
    const res = await control(svc, `/__control/inventory/${t.uuid}/${date}`, {
      method: "PUT",
      body: { remaining: 7, caps: { adults: 2, infants: 1 }, note: "x" },
    });
    expect(res.status).toBe(200);
    expect(dataOf(res).supply).toBe(7);
    expect(dataOf(res).caps).toEqual({ adults: 2 });
  });
});

describe("the reference service's hook variations", () => {
  it("should refuse a body key the document does not name, at any depth, and change nothing (hooks-unknown-keys-refused)", async () => {
    await using svc = await start({ variations: ["hooks-unknown-keys-refused"] });
    const t = pickType(svc, { timeslotted: false });
    const date = dateFromToday(svc.state, 10);
    await setInventory(svc, t.uuid, date, { remaining: 5 });
    for (const body of [
      { remaining: 7, note: "x" },
      { remaining: 7, caps: { infants: 1 } },
    ]) {
      const res = await control(svc, `/__control/inventory/${t.uuid}/${date}`, { method: "PUT", body });
      expect([res.status, errorOf(res).code], JSON.stringify(body)).toEqual([400, "invalid_params"]);
    }
    expect(await dayRead(svc, t.uuid, date)).toMatchObject({ supply: 5 });
    // Keys the document names pass, at every depth (restrictions by product uuid, defect names).
    const partner = await control(svc, `/__control/partners/${KEY}`, {
      method: "PUT",
      body: { alternatives: true, restrictions: { [t.product.uuid]: { allowedCountries: ["TH"] } } },
    });
    expect(partner.status).toBe(200);
  });

  it("should leave the optional fields out of the required hooks' answers (hooks-optional-fields-left-out)", async () => {
    await using svc = await start({ variations: ["hooks-optional-fields-left-out"] });
    const t = pickType(svc, { timeslotted: true });
    const date = dateFromToday(svc.state, 10);
    const set = await control(svc, `/__control/inventory/${t.uuid}/${date}`, { method: "PUT", body: { remaining: 3 } });
    const day = dataOf(set) as { timeslots: Record<string, unknown>[] };
    expect(Object.keys(day).sort()).toEqual(["date", "remaining", "timeslots"]);
    expect(Object.keys(day.timeslots[0] ?? {}).sort()).toEqual(["remaining", "timeslot"]);
    expect(Object.keys(dataOf(await control(svc, "/__control/clock"))).sort()).toEqual(["now", "nowMs", "timeScale"]);
    expect(Object.keys(dataOf(await control(svc, "/__control/health"))).sort()).toEqual(["now", "status"]);
    // An optional hook keeps its answer whole.
    expect(dataOf(await control(svc, `/__control/partners/${KEY}`))).toHaveProperty("webhookEnabled");
  });

  it("should keep the time scale across a reset (hooks-reset-keeps-time-scale), and restore it without", async () => {
    for (const [variations, scale] of [
      [["hooks-reset-keeps-time-scale" as const], 7],
      [[], 1],
    ] as const) {
      await using svc = await start({ variations: [...variations] });
      await control(svc, "/__control/clock", { method: "POST", body: { timeScale: 7, advanceSeconds: 86_400 } });
      await control(svc, "/__control/reset", { method: "POST", body: {} });
      const clock = await clockOf(svc);
      expect(clock.timeScale, variations.join()).toBe(scale);
      expect(Math.abs(clock.nowMs - Date.now()), variations.join()).toBeLessThan(60_000);
    }
  });

  it("should refuse an unknown key with 404 and create nothing (hooks-partner-unknown-key-refused), and create it without", async () => {
    for (const [variations, status] of [
      [["hooks-partner-unknown-key-refused" as const], 404],
      [[], 201],
    ] as const) {
      await using svc = await start({ variations: [...variations] });
      const res = await control(svc, "/__control/partners/a-new-key", { method: "PUT", body: { alternatives: true } });
      expect(res.status, variations.join()).toBe(status);
      expect((await control(svc, "/__control/partners/a-new-key")).status).toBe(status === 201 ? 200 : 404);
      expect((await control(svc, `/__control/partners/${KEY}`, { method: "PUT", body: {} })).status).toBe(200);
    }
  });
});
