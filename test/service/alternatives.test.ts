/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import { expectedAlternatives, type InventorySnapshot } from "../../lib/contract/index.ts";
import { ALT_KEY, KEY, api, book, control, dateFromToday, pickType, setInventory, start } from "./helpers.ts";

type Svc = Awaited<ReturnType<typeof start>>;

/** Builds a hand-made inventory for days 10..20 and a reserved booking on day 10 whose slot is then sold out. */
async function failedConfirm(
  svc: Svc,
  timeslotted: boolean,
  key: string,
  layout: Record<number, number | Record<string, number>>,
) {
  const t = pickType(svc, { timeslotted, instant: true });
  await setInventory(svc, t.uuid, dateFromToday(svc.state, 10), { remaining: 5 });
  const uuid = await book(svc, t, 10, {}, key);
  for (let n = 0; n <= 10; n++) {
    const date = dateFromToday(svc.state, 10 + n);
    const spec = layout[n] ?? 0;
    if (typeof spec === "number") {
      await setInventory(svc, t.uuid, date, { remaining: spec });
    } else {
      for (const ts of t.timeslots) await setInventory(svc, t.uuid, date, { remaining: spec[ts] ?? 0, timeslot: ts });
    }
  }
  const res = await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT", key });
  const truth = await control(
    svc,
    `/__control/inventory/${t.uuid}?date_start=${dateFromToday(svc.state, 10)}&date_end=${dateFromToday(svc.state, 20)}`,
  );
  return { t, res, truth: truth.body.data as InventorySnapshot };
}

describe("422 alternatives (spec 7.2) from live inventory", () => {
  it("should list the other timeslots of the date for a timeslotted product, matching the oracle", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: true, instant: true });
    const [first, ...others] = t.timeslots;
    const layout = { 0: Object.fromEntries(others.map((ts, i) => [ts, i + 1])) };
    const { res, truth } = await failedConfirm(svc, true, ALT_KEY, layout);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("prices_mismatch");
    const alt = res.body.error.alternatives;
    expect(alt.requested).toEqual({ date: dateFromToday(svc.state, 10), timeslot: first });
    expect(alt.same_date_timeslots).toHaveLength(others.length);
    expect(alt).toEqual(expectedAlternatives({ enabled: true, booking: alt.requested, inventory: truth }));
  });

  it("should give the next bookable date within 7 days when the timeslotted date is sold out", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: true, instant: true });
    const { res, truth } = await failedConfirm(svc, true, ALT_KEY, { 7: { [t.timeslots[0] ?? ""]: 4 } });
    const alt = res.body.error.alternatives;
    expect(alt.same_date_timeslots).toEqual([]);
    expect(alt.nearby_dates).toHaveLength(1);
    expect(alt.nearby_dates[0].date).toBe(dateFromToday(svc.state, 17));
    expect(alt).toEqual(expectedAlternatives({ enabled: true, booking: alt.requested, inventory: truth }));
  });

  it("should give up to three bookable dates within three days for a non-timeslotted product", async () => {
    await using svc = await start();
    const { res, truth } = await failedConfirm(svc, false, ALT_KEY, { 1: 2, 3: 6, 4: 9 });
    const alt = res.body.error.alternatives;
    expect(alt.requested).toEqual({ date: dateFromToday(svc.state, 10) });
    expect(alt.nearby_dates).toEqual([
      { date: dateFromToday(svc.state, 11), qty: 2 },
      { date: dateFromToday(svc.state, 13), qty: 6 },
    ]);
    expect(alt).toEqual(expectedAlternatives({ enabled: true, booking: alt.requested, inventory: truth }));
  });

  it("should honour per-category caps in qty", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: false, instant: true });
    const uuid = await book(svc, t, 10, {}, ALT_KEY);
    await setInventory(svc, t.uuid, dateFromToday(svc.state, 10), { remaining: 0 });
    for (const n of [1, 2, 3]) await setInventory(svc, t.uuid, dateFromToday(svc.state, 10 + n), { remaining: 0 });
    await setInventory(svc, t.uuid, dateFromToday(svc.state, 12), {
      remaining: 9,
      caps: { adults: 2, children: 2, seniors: 2 },
    });
    const res = await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT", key: ALT_KEY });
    expect(res.body.error.alternatives.nearby_dates).toEqual([{ date: dateFromToday(svc.state, 12), qty: 2 }]);
  });

  it("should omit alternatives for a key without the feature, with the same code, message and http_code", async () => {
    await using svc = await start();
    const withAlt = await failedConfirm(svc, false, ALT_KEY, { 1: 2 });
    const without = await failedConfirm(svc, false, KEY, { 1: 2 });
    expect(without.res.status).toBe(422);
    expect(without.res.body.error).not.toHaveProperty("alternatives");
    const { alternatives, ...rest } = withAlt.res.body.error;
    expect(alternatives).toBeDefined();
    expect(rest).toEqual(without.res.body.error);
  });
});
