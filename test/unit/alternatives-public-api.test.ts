import { describe, expect, it } from "vitest";
import { expectedAlternatives } from "../../lib/contract/index.ts";
import type { K6Config } from "../../lib/k6/config.ts";
import {
  notProvokableReason,
  shownSlots,
  snapshotFromCalendar,
  unexplainedQty,
} from "../../lib/k6/alternatives/public-api.ts";

describe("alternatives through the public API: what the calendar shows", () => {
  it("should read each timeslot's availability and its seat count only where the answer gives one", () => {
    const shown = shownSlots(
      {
        date: "2027-01-10",
        available: true,
        timeslots: [
          { timeslot: "09:00", available: true, remaining: 4 },
          { timeslot: "11:00", available: false },
          { timeslot: "13:00", available: true },
        ],
      },
      true,
    );
    expect([...shown]).toEqual([
      ["2027-01-10@09:00", { bookable: true, count: 4 }],
      ["2027-01-10@11:00", { bookable: false }],
      ["2027-01-10@13:00", { bookable: true }],
    ]);
    expect([...shownSlots({ date: "2027-01-10", available: false }, false)]).toEqual([
      ["2027-01-10", { bookable: false }],
    ]);
  });

  it("should give the oracle the requested slot sold out and the others as shown, so rule 5 lists them", () => {
    const shown = new Map([
      ["2027-01-10@09:00", { bookable: true, count: 2 }],
      ["2027-01-10@11:00", { bookable: true, count: 5 }],
      ["2027-01-10@13:00", { bookable: false }],
    ]);
    const window = { date: "2027-01-10", timeslot: "09:00", timeslots: ["09:00", "11:00", "13:00"], days: 7 };
    const inventory = snapshotFromCalendar(shown, window);
    const alternatives = expectedAlternatives({
      enabled: true,
      booking: { date: "2027-01-10", timeslot: "09:00" },
      inventory,
    });
    expect(alternatives?.same_date_timeslots).toEqual([{ timeslot: "11:00", qty: 5 }]);
    expect(inventory.days).toHaveLength(8);
  });

  it("should say why no confirm can be provoked without a stated hold, keys with the feature or a key of its own", () => {
    const config = { reservationHoldSeconds: 2, alternativesKeys: [0], harnessKey: "own" } as K6Config;
    expect(notProvokableReason(config)).toBeUndefined();
    expect(notProvokableReason({ ...config, reservationHoldSeconds: undefined })).toMatch(/--reservation-hold/);
    expect(notProvokableReason({ ...config, alternativesKeys: undefined })).toMatch(/--alternatives-keys/);
    expect(notProvokableReason({ ...config, harnessKey: undefined })).toMatch(/key of its own/);
  });
});

describe("alternatives through the public API: which qty is a fault", () => {
  const read = (entries: [string, number | undefined][]) =>
    new Map(
      entries.map(([slot, count]) => [slot, count === undefined ? { bookable: true } : { bookable: true, count }]),
    );

  it("should not blame a qty that a read just before the confirm showed, when a seat came back right after it", () => {
    const before = read([["2026-12-16@13:00", 18]]);
    const after = read([["2026-12-16@13:00", 19]]);
    expect(unexplainedQty([["2026-12-16@13:00", 18, 19]], after, [before])).toEqual([]);
  });

  it("should blame a qty that none of the reads around the confirm showed", () => {
    const before = read([["2026-12-16@13:00", 18]]);
    const after = read([["2026-12-16@13:00", 19]]);
    expect(unexplainedQty([["2026-12-16@13:00", 9, 19]], after, [before])).toEqual([["2026-12-16@13:00", 9, 19]]);
  });

  it("should not judge the qty of a slot whose seat count the after read does not show", () => {
    const shown = read([["2026-12-17", undefined]]);
    expect(unexplainedQty([["2026-12-17", 3, 1]], shown, [read([["2026-12-17", 2]])])).toEqual([]);
  });
});
