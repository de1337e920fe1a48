import { describe, expect, it } from "vitest";
import type { AlternativesObservation } from "../../lib/contract/index.ts";
import { judgeAccuracy, explainedByChurn, ACCURACY_CHECKS } from "../../lib/harness/alternatives/accuracy.ts";
import { DEFAULT_CHURN, parseChurnConfig } from "../../lib/harness/churn/config.ts";
import type { ChurnLogEntry } from "../../lib/harness/churn/log.ts";
import { churnSchedule } from "../../lib/harness/churn/schedule.ts";
import type { ControlProductType } from "../../lib/contract/product-type-discovery.ts";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";

const type = (uuid: string, timeslots: string[]): ControlProductType => ({
  uuid,
  productUuid: `p-${uuid}`,
  available: true,
  timeslots,
  instantConfirmation: true,
  daysInAdvance: 1,
  minPax: 1,
  maxPax: 8,
  categories: ["adults"],
  requiredOptions: [],
});
const TARGETS = [type("a", ["09:00", "11:00", "14:00"]), type("b", [])];

describe("churn schedule", () => {
  it("should give the same changes for the same seed and different ones for another seed", () => {
    const one = churnSchedule(7, DEFAULT_CHURN, TARGETS, "2030-01-01", { count: 50 });
    expect(churnSchedule(7, DEFAULT_CHURN, TARGETS, "2030-01-01", { count: 50 })).toEqual(one);
    expect(churnSchedule(8, DEFAULT_CHURN, TARGETS, "2030-01-01", { count: 50 })).not.toEqual(one);
  });

  it("should keep the configured rate, order and date range, and undo every change but content updates", () => {
    const changes = churnSchedule(1, DEFAULT_CHURN, TARGETS, "2030-01-01", { untilMs: 60_000 });
    expect(changes.length).toBeGreaterThan(100);
    expect(changes.length).toBeLessThanOrEqual(120);
    for (const [i, c] of changes.entries()) {
      if (i > 0) expect(c.atMs).toBeGreaterThanOrEqual(changes[i - 1]?.atMs ?? 0);
      expect(c.restoreAtMs === undefined).toBe(c.kind === "content");
      // Lead time 1 plus days 27 to 77: past every day conformance books on (lib/contract/scenario-days.ts).
      if (c.date) expect(c.date >= "2030-01-29" && c.date <= "2030-03-20", c.date).toBe(true);
      if (c.productTypeUuid === "b") expect(c.timeslot).toBeUndefined();
    }
    expect(new Set(changes.map((c) => c.kind))).toEqual(new Set(Object.keys(DEFAULT_CHURN.mix)));
  });

  it("should leave out kinds weighted 0", () => {
    const config = parseChurnConfig({ mix: { unavailable: 0, content: 0 } });
    const kinds = new Set(churnSchedule(3, config, TARGETS, "2030-01-01", { count: 200 }).map((c) => c.kind));
    expect(kinds.has("unavailable") || kinds.has("content")).toBe(false);
  });

  it("should refuse an unknown key or a bad value with a message that says what to change", () => {
    expect(() => parseChurnConfig({ speed: 3 })).toThrow(/Failed to read the churn configuration: unknown key speed/);
    expect(() => parseChurnConfig({ mix: { flood: 1 } })).toThrow(/mix.flood is not one of/);
    expect(() => parseChurnConfig({ holdSeconds: { min: 5, max: 1 } })).toThrow(/holdSeconds.max is below/);
  });
});

const OBS: AlternativesObservation = {
  productTypeUuid: "a",
  date: "2030-02-01",
  timeslot: "09:00",
  kind: "422",
  shapedAt: 1000,
  confirmAt: 1100,
  truthAt: 1200,
  carried: true,
  suggested: ["2030-02-01@11:00", "2030-02-01@14:00"],
  expected: ["2030-02-01@11:00"],
  qtyMismatches: [],
  qtyCompared: 1,
};
const entry = (over: Partial<ChurnLogEntry>): ChurnLogEntry => ({
  seq: 0,
  phase: "apply",
  kind: "sell-out-timeslot",
  productTypeUuid: "a",
  date: "2030-02-01",
  at: 1150,
  doneAt: 1160,
  status: 200,
  ...over,
});

describe("alternatives accuracy beside churn", () => {
  it("should count a discrepancy as an error when no churn change overlaps it", () => {
    const judged = judgeAccuracy([OBS], [entry({ at: 5000, doneAt: 5010 })], DEFAULT_SLO.alternatives);
    expect(judged.figures.precision).toBe(0.5);
    expect(judged.checks.find((c) => c.name === ACCURACY_CHECKS.precision)?.verdict).toBe("fail");
    expect(judged.thresholds.find((t) => t.metric === "alternatives_precision")?.verdict).toBe("fail");
  });

  it("should set a discrepancy apart when churn touched the type and window while it was observed", () => {
    const judged = judgeAccuracy([OBS], [entry({})], DEFAULT_SLO.alternatives);
    expect(judged.checks.every((c) => c.verdict === "pass")).toBe(true);
    expect(judged.figures.explainedByChurn).toMatchObject({ observations: 1, falsePositives: 1 });
    expect(judged.figures.raw).toEqual({ precision: 0.5, recall: 1 });
  });

  it("should not let churn on another type, or on a date out of reach, explain anything", () => {
    expect(explainedByChurn(OBS, [entry({ productTypeUuid: "b" })])).toBe(false);
    expect(explainedByChurn(OBS, [entry({ date: "2030-03-01" })])).toBe(false);
    expect(explainedByChurn(OBS, [entry({ date: undefined, kind: "unavailable" })])).toBe(true);
  });

  it("should count understated and overstated qty apart", () => {
    const judged = judgeAccuracy(
      [
        {
          ...OBS,
          suggested: ["x", "y"],
          expected: ["x", "y"],
          qtyMismatches: [
            ["x", 1, 4],
            ["y", 5, 2],
          ],
          qtyCompared: 2,
        },
      ],
      [],
      DEFAULT_SLO.alternatives,
    );
    expect(judged.figures).toMatchObject({ qtyExactness: 0, qtyUnderstated: 1, qtyOverstated: 1 });
  });
});
