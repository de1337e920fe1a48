/**
 * Every year a YYYY-MM-DD can write, 0000 to 9999, in each place that turns one into a calendar day: Date.UTC reads
 * the years 0 to 99 as 1900 to 1999, which made the service refuse 0088-03-25 as "not a date" (issue 26).
 */
import { describe, expect, it } from "vitest";
import { expectedAlternatives } from "../../lib/contract/alternatives.ts";
import { addDays, utcMs } from "../../lib/contract/dates.ts";
import { weekdayOf } from "../../lib/k6/answer-rules.ts";
import { addMonths as addMonthsText } from "../../lib/k6/conformance/catalogue-rules.ts";
import { DAY_MS, addMonths, formatDay, parseDay, weekday } from "../../lib/reference/dates.ts";

/** Dates at the edges of the two-digit years, with the weekday of the proleptic Gregorian calendar. */
const DATES: readonly [date: string, weekday: string][] = [
  ["0000-01-01", "Saturday"],
  ["0000-02-29", "Tuesday"],
  ["0001-01-01", "Monday"],
  ["0088-03-25", "Thursday"],
  ["0099-12-31", "Thursday"],
  ["0100-01-01", "Friday"],
  ["1999-12-31", "Friday"],
  ["9999-12-31", "Friday"],
];

describe("calendar days in every four-digit year", () => {
  it("should give Date.UTC's instant for years 0 to 99 as written, not 1900 to 1999", () => {
    expect(new Date(utcMs(88, 2, 25)).toISOString()).toBe("0088-03-25T00:00:00.000Z");
    expect(new Date(utcMs(0, 0, 1)).toISOString()).toBe("0000-01-01T00:00:00.000Z");
    expect(utcMs(2030, 0, 1)).toBe(Date.UTC(2030, 0, 1));
    expect(new Date(utcMs(99, 11, 32)).toISOString()).toBe("0100-01-01T00:00:00.000Z");
  });

  it("should read every one of them in the service, and write it back unchanged", () => {
    for (const [date, name] of DATES) {
      const day = parseDay(date);
      expect(day, date).toBeDefined();
      expect(formatDay(day ?? 0), date).toBe(date);
      expect(weekday(day ?? 0), date).toBe(name);
    }
    // An ISO string is read in its own year: the day number the service must give.
    expect(parseDay("0088-03-25")).toBe(Date.parse("0088-03-25T00:00:00Z") / DAY_MS);
  });

  it("should still refuse days the calendar has not, in the two-digit years too", () => {
    for (const date of ["0001-02-29", "0099-04-31", "0000-13-01", "0088-00-10", "9999-12-32"]) {
      expect(parseDay(date), date).toBeUndefined();
      expect(weekdayOf(date), date).toBeUndefined();
    }
    // 0000 is a leap year (divisible by 400), 0100 is not.
    expect(parseDay("0000-02-29")).toBeDefined();
    expect(parseDay("0100-02-29")).toBeUndefined();
  });

  it("should count six months from a day of the years 0 to 99 within those years", () => {
    const start = parseDay("0088-08-31") ?? 0;
    expect(formatDay(addMonths(start, 6))).toBe("0089-02-28");
    expect(formatDay(addMonths(parseDay("0099-07-15") ?? 0, 6))).toBe("0100-01-15");
    expect(addMonthsText("0088-08-31", 6)).toBe("0089-02-28");
    expect(addMonthsText("0000-08-31", 6)).toBe("0001-02-28");
    expect(addMonthsText("9999-06-30", 6)).toBe("9999-12-30");
  });

  it("should name the weekday of those dates in the harness as the service does", () => {
    for (const [date, name] of DATES) expect(weekdayOf(date), date).toBe(name);
  });

  it("should step days across the years 0 to 99 in the contract's date arithmetic", () => {
    expect(addDays("0088-03-25", 7)).toBe("0088-04-01");
    expect(addDays("0099-12-31", 1)).toBe("0100-01-01");
    expect(addDays("9999-12-30", 1)).toBe("9999-12-31");
    const alternatives = expectedAlternatives({
      enabled: true,
      booking: { date: "0088-03-25" },
      inventory: {
        timeslotted: false,
        categories: ["adults"],
        days: [
          { date: "0088-03-25", remaining: 0 },
          { date: "0088-03-26", remaining: 2 },
        ],
      },
    });
    expect(alternatives?.nearby_dates).toEqual([{ date: "0088-03-26", qty: 2 }]);
  });
});
