import { describe, expect, it } from "vitest";
import {
  expectedAlternatives,
  slotQty,
  type DayInventory,
  type InventorySnapshot,
} from "../../lib/contract/alternatives.ts";

const D0 = "2030-03-10";
const day = (n: number) => new Date(Date.UTC(2030, 2, 10 + n)).toISOString().slice(0, 10);

function timeslotted(days: Record<number, Record<string, number>>, horizon = 10): InventorySnapshot {
  const list: DayInventory[] = [];
  for (let n = 0; n <= horizon; n++) {
    const slots = days[n] ?? {};
    list.push({
      date: day(n),
      remaining: 0,
      timeslots: ["09:00", "11:00", "14:00"].map((timeslot) => ({ timeslot, remaining: slots[timeslot] ?? 0 })),
    });
  }
  return { timeslotted: true, categories: ["adults", "children"], days: list };
}

function flat(remaining: Record<number, number>, horizon = 6): InventorySnapshot {
  const list: DayInventory[] = [];
  for (let n = 0; n <= horizon; n++) list.push({ date: day(n), remaining: remaining[n] ?? 0 });
  return { timeslotted: false, categories: ["adults"], days: list };
}

describe("alternatives oracle (spec 7.2)", () => {
  it("should omit alternatives when the feature is off for the key (rule 1)", () => {
    expect(expectedAlternatives({ enabled: false, booking: { date: D0 }, inventory: flat({ 1: 5 }) })).toBeUndefined();
  });

  it("should omit alternatives when no product type is attached (rule 2)", () => {
    expect(expectedAlternatives({ enabled: true, booking: { date: D0 }, inventory: undefined })).toBeUndefined();
  });

  it("should always give both arrays and echo the date, without timeslot for non-timeslotted (rules 3-4)", () => {
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0 }, inventory: flat({}) });
    expect(alt).toEqual({ requested: { date: D0 }, same_date_timeslots: [], nearby_dates: [] });
    expect(alt?.requested).not.toHaveProperty("timeslot");
  });

  it("should list every other timeslot of the date with capacity (rule 5)", () => {
    const inv = timeslotted({ 0: { "09:00": 0, "11:00": 4, "14:00": 2 }, 1: { "09:00": 9 } });
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0, timeslot: "09:00" }, inventory: inv });
    expect(alt).toEqual({
      requested: { date: D0, timeslot: "09:00" },
      same_date_timeslots: [
        { timeslot: "11:00", qty: 4 },
        { timeslot: "14:00", qty: 2 },
      ],
      nearby_dates: [],
    });
  });

  it.each([
    [1, day(1)],
    [7, day(7)],
  ])("should give the next bookable date on day %i for a sold-out timeslotted date (rule 6)", (n, date) => {
    const inv = timeslotted({ [n]: { "11:00": 3, "14:00": 5 } });
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0, timeslot: "09:00" }, inventory: inv });
    expect(alt?.same_date_timeslots).toEqual([]);
    expect(alt?.nearby_dates).toEqual([
      {
        date,
        qty: 5,
        timeslots: [
          { timeslot: "11:00", qty: 3 },
          { timeslot: "14:00", qty: 5 },
        ],
      },
    ]);
  });

  it("should give no nearby date when the next bookable one is on day 8 (rule 6 look-ahead)", () => {
    const inv = timeslotted({ 8: { "11:00": 3 } });
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0, timeslot: "09:00" }, inventory: inv });
    expect(alt).toEqual({ requested: { date: D0, timeslot: "09:00" }, same_date_timeslots: [], nearby_dates: [] });
  });

  it.each([
    [{}, []],
    [{ 2: 4 }, [{ date: day(2), qty: 4 }]],
    [
      { 1: 1, 3: 2 },
      [
        { date: day(1), qty: 1 },
        { date: day(3), qty: 2 },
      ],
    ],
    [
      { 1: 1, 2: 2, 3: 3, 4: 4 },
      [
        { date: day(1), qty: 1 },
        { date: day(2), qty: 2 },
        { date: day(3), qty: 3 },
      ],
    ],
  ])("should list bookable dates within three days for non-timeslotted %j (rule 7)", (remaining, expected) => {
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0 }, inventory: flat(remaining) });
    expect(alt?.same_date_timeslots).toEqual([]);
    expect(alt?.nearby_dates).toEqual(expected);
  });

  it("should take qty as the most any single category could book, honouring caps (rule 8)", () => {
    expect(slotQty({ remaining: 10, caps: { adults: 3, children: 6 } }, ["adults", "children"])).toBe(6);
    expect(slotQty({ remaining: 4, caps: { adults: 3, children: 6 } }, ["adults", "children"])).toBe(4);
    expect(slotQty({ remaining: 10, caps: { adults: 2 } }, ["adults"])).toBe(2);
    expect(slotQty({ remaining: 10, caps: { adults: 2 } }, ["adults", "seniors"])).toBe(10);
    expect(slotQty({ remaining: 10, caps: { adults: 0 } }, ["adults"])).toBe(0);
    const inv: InventorySnapshot = {
      timeslotted: false,
      categories: ["adults"],
      days: [
        { date: D0, remaining: 0 },
        { date: day(1), remaining: 8, caps: { adults: 0 } },
        { date: day(2), remaining: 8, caps: { adults: 5 } },
      ],
    };
    expect(expectedAlternatives({ enabled: true, booking: { date: D0 }, inventory: inv })?.nearby_dates).toEqual([
      { date: day(2), qty: 5 },
    ]);
  });

  it("should never list the requested timeslot itself, even when it still has capacity (rule 5)", () => {
    const inv = timeslotted({ 0: { "09:00": 6, "11:00": 0, "14:00": 0 }, 2: { "09:00": 1 } });
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0, timeslot: "09:00" }, inventory: inv });
    expect(alt?.same_date_timeslots).toEqual([]);
    expect(alt?.nearby_dates).toEqual([{ date: day(2), qty: 1, timeslots: [{ timeslot: "09:00", qty: 1 }] }]);
  });

  it("should leave out other timeslots whose caps allow no category at all (rules 5 and 8)", () => {
    const inv = timeslotted({ 0: { "11:00": 5, "14:00": 5 } });
    const first = inv.days[0]?.timeslots?.[1];
    if (first) first.caps = { adults: 0, children: 0 };
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0, timeslot: "09:00" }, inventory: inv });
    expect(alt?.same_date_timeslots).toEqual([{ timeslot: "14:00", qty: 5 }]);
  });

  it("should give one nearby date only, the first bookable one, skipping sold-out days in between (rule 6)", () => {
    const inv = timeslotted({ 3: { "14:00": 2 }, 4: { "09:00": 9 } });
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0, timeslot: "11:00" }, inventory: inv });
    expect(alt?.nearby_dates).toEqual([{ date: day(3), qty: 2, timeslots: [{ timeslot: "14:00", qty: 2 }] }]);
  });

  it("should take a nearby date's qty as the largest of its timeslots after caps (rules 6 and 8)", () => {
    const inv = timeslotted({ 1: { "09:00": 8, "11:00": 4 } });
    const capped = inv.days[1]?.timeslots?.[0];
    if (capped) capped.caps = { adults: 3, children: 2 };
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0, timeslot: "14:00" }, inventory: inv });
    expect(alt?.nearby_dates).toEqual([
      {
        date: day(1),
        qty: 4,
        timeslots: [
          { timeslot: "09:00", qty: 3 },
          { timeslot: "11:00", qty: 4 },
        ],
      },
    ]);
  });

  it("should count days missing from the snapshot as sold out (rule 6)", () => {
    const inv = timeslotted({ 5: { "09:00": 2 } });
    const withoutGap: InventorySnapshot = { ...inv, days: inv.days.filter((d) => d.date !== day(2)) };
    const alt = expectedAlternatives({
      enabled: true,
      booking: { date: D0, timeslot: "09:00" },
      inventory: withoutGap,
    });
    expect(alt?.nearby_dates.map((n) => n.date)).toEqual([day(5)]);
  });

  it("should echo only the date when a timeslotted booking names no timeslot (rule 4)", () => {
    const inv = timeslotted({ 0: { "11:00": 2 } });
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0 }, inventory: inv });
    expect(alt?.requested).toEqual({ date: D0 });
    expect(alt?.same_date_timeslots).toEqual([{ timeslot: "11:00", qty: 2 }]);
  });

  it("should never suggest the requested date nor a date after day 3 for non-timeslotted (rule 7)", () => {
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0 }, inventory: flat({ 0: 9, 4: 9, 5: 9 }) });
    expect(alt).toEqual({ requested: { date: D0 }, same_date_timeslots: [], nearby_dates: [] });
  });

  it("should give non-timeslotted nearby dates no timeslots key (rules 4 and 7)", () => {
    const alt = expectedAlternatives({ enabled: true, booking: { date: D0 }, inventory: flat({ 1: 3 }) });
    expect(alt?.nearby_dates[0]).not.toHaveProperty("timeslots");
    expect(alt?.requested).not.toHaveProperty("timeslot");
  });

  it("should honour per-category caps on non-timeslotted days within three days (rules 7 and 8)", () => {
    const inv: InventorySnapshot = {
      timeslotted: false,
      categories: ["adults", "children", "seniors"],
      days: [
        { date: D0, remaining: 0 },
        { date: day(1), remaining: 6, caps: { adults: 1, children: 2, seniors: 0 } },
        { date: day(2), remaining: 6, caps: { adults: 0, children: 0, seniors: 0 } },
        { date: day(3), remaining: 2, caps: { adults: 9 } },
      ],
    };
    expect(expectedAlternatives({ enabled: true, booking: { date: D0 }, inventory: inv })?.nearby_dates).toEqual([
      { date: day(1), qty: 2 },
      { date: day(3), qty: 2 },
    ]);
  });

  it("should floor fractional capacity and treat negative capacity as sold out (rule 8)", () => {
    expect(slotQty({ remaining: 2.9 }, ["adults"])).toBe(2);
    expect(slotQty({ remaining: -3 }, ["adults"])).toBe(0);
    expect(slotQty({ remaining: 5, caps: { adults: -1 } }, ["adults"])).toBe(0);
  });

  it("should scan the look-ahead it is given, so a wider window is a visible difference", () => {
    const inv = timeslotted({ 9: { "09:00": 2 } });
    const booking = { date: D0, timeslot: "11:00" };
    expect(expectedAlternatives({ enabled: true, booking, inventory: inv })?.nearby_dates).toEqual([]);
    const wide = { timeslottedDays: 10, nonTimeslottedDays: 6, nonTimeslottedMaxDates: 5 };
    expect(expectedAlternatives({ enabled: true, booking, inventory: inv }, wide)?.nearby_dates).toHaveLength(1);
  });
});
