/**
 * The alternatives scenario's plans: each iteration shapes dates of a product type no other iteration touches, so
 * concurrent iterations never judge each other's inventory (lib/k6/alternatives/plan.ts).
 */
import { describe, expect, it } from "vitest";
import { addDays } from "../../lib/contract/index.ts";
import type { ControlProductType } from "../../lib/contract/product-type-discovery.ts";
import { SHAPED_DAYS, planFor } from "../../lib/k6/alternatives/plan.ts";
import { BOOKER_LAST_DAY, conformanceLastDay } from "../../lib/contract/scenario-days.ts";

function type(i: number, timeslots: string[]): ControlProductType {
  return {
    uuid: `type-${String(i)}`,
    productUuid: `product-${String(i)}`,
    available: true,
    timeslots,
    instantConfirmation: i % 2 === 0,
    daysInAdvance: i % 3,
    minPax: 1,
    maxPax: 10,
    categories: ["adult", "child"],
    requiredOptions: [],
  };
}

const HOT_SET = [
  ...[0, 1, 2, 3].map((i) => type(i, ["09:30", "11:00", "14:30", "16:00"])),
  ...[4, 5, 6, 7].map((i) => type(i, [])),
];

describe("planFor", () => {
  it("should give every iteration dates of a product type that no other iteration shapes", () => {
    const today = "2026-11-28";
    const shaped = new Map<string, number>();
    let planned = 0;
    for (let n = 0; n < 400; n++) {
      const plan = planFor(n, HOT_SET, today);
      if (!plan) continue;
      planned += 1;
      for (let k = 0; k <= SHAPED_DAYS; k++) {
        const slot = `${plan.type.uuid} ${addDays(plan.date, k)}`;
        expect(shaped.get(slot), `iteration ${String(n)} shapes ${slot}`).toBeUndefined();
        shaped.set(slot, n);
      }
    }
    expect(planned).toBeGreaterThan(150);
  });

  it("should shape no day that conformance or partner-mix's bookers book on or change, whatever the lead time", () => {
    const today = "2026-11-28";
    const types = [0, 1, 5, 19, 20, 25, 40].flatMap((lead, i) => [
      { ...type(2 * i, ["09:30", "11:00", "14:30"]), daysInAdvance: lead },
      { ...type(2 * i + 1, []), daysInAdvance: lead },
    ]);
    for (let n = 0; n < 200; n++) {
      const plan = planFor(n, types, today);
      if (!plan) continue;
      const lead = plan.type.daysInAdvance;
      const lastWritten = addDays(today, Math.max(conformanceLastDay(lead), lead + BOOKER_LAST_DAY));
      const shaped = [plan.date, ...plan.shape.map((c) => c.date), ...plan.sellOut.map((c) => c.date)];
      for (const date of shaped) expect(date > lastWritten, `iteration ${String(n)} shapes ${date}`).toBe(true);
    }
  });

  it("should give each kind its share of the iterations", () => {
    const kinds = Array.from({ length: 30 }, (_, n) => planFor(n, HOT_SET, "2026-11-28")?.kind);
    expect(kinds.filter((k) => k === "same-date")).toHaveLength(10);
    expect(kinds.filter((k) => k === "next-date")).toHaveLength(10);
    expect(kinds.filter((k) => k === "flat")).toHaveLength(10);
  });
});
