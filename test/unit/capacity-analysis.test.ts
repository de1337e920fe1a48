import { describe, expect, it } from "vitest";
import {
  analyseCapacity,
  DEFAULT_CAPACITY_SETTINGS,
  findKnee,
  stepFigures,
  type CapacitySample,
  type StepFigures,
} from "../../lib/harness/capacity/capacity-analysis.ts";
import { capacityPlot } from "../../lib/harness/capacity/capacity-plot.ts";
import { capacitySeries } from "../../lib/harness/capacity/extension.ts";
import { fitUsl, uslThroughput } from "../../lib/harness/capacity/usl-fit.ts";
import {
  capacityPlan,
  capacityScenario,
  CAPACITY_STEP_RATES,
  expectedIterations,
  parseCapacityRates,
  profileNamed,
} from "../../lib/contract/profiles.ts";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";

const START = 1_700_000_000_000;

/**
 * A service that answers in `base` ms up to `capacity` requests/s and queues past it (latency climbs, throughput
 * caps). With `generator` the load generator is what caps the rate: past it k6 drops iterations while the service
 * still answers in `base` ms (few requests in flight).
 */
function simulate(
  capacity: number,
  base = 5,
  generator = false,
): { samples: CapacitySample[]; dropped: { t: number; value: number }[] } {
  const samples: CapacitySample[] = [];
  const dropped: { t: number; value: number }[] = [];
  for (const step of capacityPlan("4s")) {
    const served = Math.min(step.rate, capacity);
    const latency = generator
      ? base
      : step.rate <= capacity
        ? base * (1 + step.rate / capacity)
        : base * 2 + (step.rate / capacity - 1) * 2000;
    const from = START + step.holdFrom * 1000;
    const count = served * (step.holdTo - step.holdFrom);
    for (let i = 0; i < count; i++) {
      samples.push({
        t: from + (i / count) * (step.holdTo - step.holdFrom) * 1000,
        durationMs: latency * (0.8 + (i % 10) / 25),
        failed: false,
      });
    }
    if (step.rate > capacity)
      dropped.push({ t: from + 100, value: (step.rate - capacity) * (step.holdTo - step.holdFrom) });
  }
  return { samples, dropped };
}

function steps(capacity: number, generator = false): StepFigures[] {
  const { samples, dropped } = simulate(capacity, 5, generator);
  return stepFigures(capacityPlan("4s"), START, samples, dropped, DEFAULT_SLO, DEFAULT_CAPACITY_SETTINGS);
}

describe("capacity plan", () => {
  it("should step through every rate with a ramp and a hold of --duration, as the profile's stages", () => {
    const plan = capacityPlan("4s");
    expect(plan.map((s) => s.rate)).toEqual(CAPACITY_STEP_RATES);
    expect(plan[0]?.holdFrom).toBe(5);
    expect(plan[1]?.holdFrom).toBe(5 + 4 + 2);
    const profile = profileNamed("capacity").scenario("4s") as { stages: { target: number; duration: string }[] };
    expect(profile.stages).toHaveLength(2 * CAPACITY_STEP_RATES.length);
    expect(expectedIterations(profileNamed("capacity").scenario("4s"))).toBeGreaterThan(4 * 8000);
  });
});

describe("capacity rates", () => {
  it("should read a list of increasing rates", () => {
    expect(parseCapacityRates("500, 1000,2000")).toEqual([500, 1000, 2000]);
  });

  it("should read a range as steps the same factor apart, ends included", () => {
    const rates = parseCapacityRates("2000-3000/8");
    expect(rates).toHaveLength(8);
    expect(rates[0]).toBe(2000);
    expect(rates.at(-1)).toBe(3000);
    const factors = rates.slice(1).map((r, i) => r / (rates[i] ?? 1));
    expect(Math.max(...factors) - Math.min(...factors)).toBeLessThan(0.002);
  });

  it.each([
    ["1000,500", /must increase/],
    ["abc", /"abc" is not a positive rate/],
    ["3000-2000/4", /from a positive rate up to a higher one/],
    ["100-200/1", /at least 2 steps/],
    ["1-100000/50", /more than 40 steps/],
    ["10-12/8", /too narrow/],
  ])("should refuse %s with a message that says what to give", (text, why) => {
    expect(() => parseCapacityRates(text)).toThrow(why);
    expect(() => parseCapacityRates(text)).toThrow(/^Failed to read the capacity rates .* Please give /);
  });

  it("should build the plan and the k6 stages from the given rates", () => {
    const plan = capacityPlan("5s", [800, 900, 1000]);
    expect(plan.map((s) => [s.rate, s.holdFrom, s.holdTo])).toEqual([
      [800, 5, 10],
      [900, 12, 17],
      [1000, 19, 24],
    ]);
    const scenario = capacityScenario("5s", [800, 900, 1000]) as { startRate: number; stages: unknown[] };
    expect(scenario.startRate).toBe(800);
    expect(scenario.stages).toHaveLength(6);
  });
});

describe("capacity knee", () => {
  it("should find the highest step within SLO as the knee, with the safe rate its configured share", () => {
    const analysis = analyseCapacity(steps(2200), DEFAULT_CAPACITY_SETTINGS);
    expect(analysis.knee?.offeredPerSecond).toBe(2000);
    expect(analysis.knee?.throughputPerSecond).toBeCloseTo(2000, 0);
    expect(analysis.safeOperatingRate).toBeCloseTo(0.7 * 2000, 0);
    expect(analysis.steps.find((s) => s.offeredPerSecond === 2500)?.breaches.join(" ")).toMatch(
      /p95|dropped|throughput/,
    );
  });

  it("should take the highest passing step even when a lower one failed on noise", () => {
    const noisy = steps(2200).map((s) => (s.offeredPerSecond === 1000 ? { ...s, withinSlo: false } : s));
    expect(findKnee(noisy)?.offeredPerSecond).toBe(2000);
  });

  it("should say the service bounds the knee when it queued past it, and propose a finer range", () => {
    const analysis = analyseCapacity(steps(2200), DEFAULT_CAPACITY_SETTINGS);
    expect(analysis.steps.find((s) => s.offeredPerSecond === 2500)?.generatorBound).toBe(false);
    expect(analysis.kneeBoundBy).toBe("service");
    expect(analysis.refineRates).toBe("2000-2500/8");
  });

  it("should say the generator bounds the knee when k6 dropped iterations with its VUs idle", () => {
    const analysis = analyseCapacity(steps(2200, true), DEFAULT_CAPACITY_SETTINGS);
    const above = analysis.steps.find((s) => s.offeredPerSecond === 2500);
    expect(above?.withinSlo).toBe(false);
    expect(above?.p95Ms).toBeLessThan(10);
    expect(above?.generatorBound).toBe(true);
    expect(analysis.kneeBoundBy).toBe("generator");
    const gauge = capacitySeries(analysis).find((s) => s.name === "capacity_knee_generator_bound");
    expect(gauge?.samples[0]?.value).toBe(1);
  });

  it("should say the plan bounds the knee when every step met the SLO", () => {
    const analysis = analyseCapacity(steps(100_000), DEFAULT_CAPACITY_SETTINGS);
    expect(analysis.knee?.offeredPerSecond).toBe(CAPACITY_STEP_RATES.at(-1));
    expect(analysis.kneeBoundBy).toBe("plan");
    expect(analysis.refineRates).toBeUndefined();
  });

  it("should find no knee when the lowest step already breaks the SLO", () => {
    const analysis = analyseCapacity(steps(50), DEFAULT_CAPACITY_SETTINGS);
    expect(analysis.knee).toBeUndefined();
    expect(analysis.kneeBoundBy).toBe("none");
  });

  it("should mark a step with errors above the SLO's error rate as outside it", () => {
    const { samples, dropped } = simulate(100_000);
    const withErrors = samples.map((s, i) => ({ ...s, failed: s.t > START + 40_000 && i % 20 === 0 }));
    const figures = stepFigures(capacityPlan("4s"), START, withErrors, dropped, DEFAULT_SLO, DEFAULT_CAPACITY_SETTINGS);
    const first = figures.find((s) => s.errorRate > 0);
    expect(first?.withinSlo).toBe(false);
    expect(first?.breaches.join(" ")).toMatch(/error rate \d+\.\d+% > 1%/);
  });

  it("should draw both panels with the knee and export the knee gauge", () => {
    const analysis = analyseCapacity(steps(2200), DEFAULT_CAPACITY_SETTINGS);
    const svg = capacityPlot(analysis, 300);
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain("Achieved throughput");
    expect(svg).toContain("p95 latency");
    expect(svg).toContain("knee 2000/s offered");
    const knee = capacitySeries(analysis).find((s) => s.name === "capacity_knee_requests_per_second");
    expect(knee?.samples[0]?.value).toBeCloseTo(2000, 0);
  });
});

describe("USL fit", () => {
  it("should recover contention and coherency from points on a known curve", () => {
    const truth = { lambda: 900, sigma: 0.05, kappa: 0.0004 };
    const points = [1, 2, 4, 8, 16, 32, 48, 64, 96].map((n) => ({ n, x: uslThroughput(truth, n) }));
    const fit = fitUsl(points);
    expect(fit?.sigma).toBeCloseTo(0.05, 2);
    expect(fit?.kappa).toBeCloseTo(0.0004, 5);
    expect(fit?.lambda).toBeCloseTo(900, -1);
    expect(fit?.rSquared).toBeGreaterThan(0.999);
    expect(fit?.peakConcurrency).toBeCloseTo(Math.sqrt(0.95 / 0.0004), 0);
  });

  it("should fit noisy points with a lower but honest R^2", () => {
    const truth = { lambda: 500, sigma: 0.1, kappa: 0.001 };
    const points = [1, 3, 6, 10, 15, 20, 30, 45, 60].map((n, i) => ({
      n,
      x: uslThroughput(truth, n) * (i % 2 ? 1.08 : 0.93),
    }));
    const fit = fitUsl(points);
    expect(fit?.rSquared).toBeGreaterThan(0.8);
    expect(fit?.rSquared).toBeLessThan(0.999);
    expect(fit?.sigma).toBeGreaterThan(0);
  });

  it("should give no fit with fewer than three usable points", () => {
    expect(
      fitUsl([
        { n: 1, x: 100 },
        { n: 0, x: 0 },
        { n: 2, x: 190 },
      ]),
    ).toBeUndefined();
  });
});
