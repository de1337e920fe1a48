import { describe, expect, it } from "vitest";
import { benchOutcome, GOAL, QUIET_OTHER_CORES, type CapacityRunResult } from "../../bench/capacity.ts";
import {
  analyseCapacity,
  DEFAULT_CAPACITY_SETTINGS,
  stepFigures,
  type CapacitySample,
  type StepFigures,
} from "../../lib/harness/capacity/capacity-analysis.ts";
import { capacityPlan, CAPACITY_STEP_RATES, parseCapacityRates } from "../../lib/contract/profiles.ts";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";

const START = 1_700_000_000_000;
const HOLD = "4s";

/**
 * How a step went: "ok" within SLO; "service" the service saturated (a third of the iterations dropped, 400 ms
 * answers, so hundreds of requests in flight); "generator" k6 fell behind (a third dropped, 5 ms answers, few in
 * flight); "slow" every request answered, each in 400 ms (over the single-date price's p95 of 300 ms, no drops).
 */
type Step = "ok" | "service" | "generator" | "slow";

function stepsOf(outcome: (rate: number) => Step, rates: readonly number[] = CAPACITY_STEP_RATES): StepFigures[] {
  const plan = capacityPlan(HOLD, rates);
  const samples: CapacitySample[] = [];
  const dropped: { t: number; value: number }[] = [];
  for (const step of plan) {
    const kind = outcome(step.rate);
    const hold = step.holdTo - step.holdFrom;
    const share = kind === "service" || kind === "generator" ? 2 / 3 : 1;
    const latency = kind === "ok" || kind === "generator" ? 5 : 400;
    const from = START + step.holdFrom * 1000;
    const count = Math.round(step.rate * share * hold);
    for (let i = 0; i < count; i++) {
      samples.push({ t: from + (i / count) * hold * 1000, durationMs: latency * (0.9 + (i % 5) / 20), failed: false });
    }
    if (share < 1) dropped.push({ t: from + 100, value: step.rate * hold - count });
  }
  return stepFigures(plan, START, samples, dropped, DEFAULT_SLO, DEFAULT_CAPACITY_SETTINGS);
}

const analyse = (steps: StepFigures[]) => analyseCapacity(steps, DEFAULT_CAPACITY_SETTINGS);

function runOf(steps: StepFigures[]): CapacityRunResult {
  const a = analyse(steps);
  return {
    steps,
    figures: {
      kneeOfferedPerSecond: a.knee?.offeredPerSecond,
      kneeThroughputPerSecond: a.knee?.throughputPerSecond,
      kneeP95Ms: a.knee?.p95Ms,
      kneeBoundBy: a.kneeBoundBy,
      refineRates: a.refineRates,
    },
  };
}

describe("capacity refine range", () => {
  it("should propose no finer range when k6 fell behind on every step above the knee", () => {
    // The run that offered 5,000-6,500/s to a 0.15-core service: k6, not the service, failed above 5,000/s.
    const analysis = analyse(stepsOf((r) => (r <= 5000 ? "ok" : "generator")));
    expect(analysis.knee?.offeredPerSecond).toBe(5000);
    expect(analysis.kneeBoundBy).toBe("generator");
    expect(analysis.steps.filter((s) => s.offeredPerSecond > 5000).every((s) => s.generatorBound)).toBe(true);
    expect(analysis.refineRates).toBeUndefined();
  });

  it("should range past a step k6 stalled on up to the first step the service failed", () => {
    const analysis = analyse(stepsOf((r) => (r <= 500 ? "ok" : r === 1000 ? "generator" : "service")));
    expect(analysis.kneeBoundBy).toBe("generator");
    expect(analysis.steps.find((s) => s.offeredPerSecond === 1500)?.generatorBound).toBe(false);
    expect(analysis.refineRates).toBe("500-1500/8");
  });

  it("should range from the knee to the first step the service failed, as --capacity-rates reads it", () => {
    const analysis = analyse(stepsOf((r) => (r <= 1500 ? "ok" : "service")));
    expect(analysis.kneeBoundBy).toBe("service");
    expect(analysis.refineRates).toBe("1500-2000/8");
    const rates = parseCapacityRates(analysis.refineRates ?? "");
    expect([rates[0], rates.at(-1), rates.length]).toEqual([1500, 2000, 8]);
  });

  it("should propose no finer range when no step passed or every step passed", () => {
    expect(analyse(stepsOf(() => "slow")).refineRates).toBeUndefined();
    expect(analyse(stepsOf(() => "ok")).refineRates).toBeUndefined();
  });
});

describe("bench:capacity outcome", () => {
  const coarseOk = runOf(stepsOf((r) => (r <= 1000 ? "ok" : "service")));
  const fineRates = parseCapacityRates("1000-1500/8");

  it("should give the fine knee over wrk's peak when the service bounds the knee", () => {
    const fine = runOf(stepsOf((r) => (r <= 1250 ? "ok" : "service"), fineRates));
    expect(fine.figures.kneeBoundBy).toBe("service");
    const knee = fine.figures.kneeThroughputPerSecond ?? 0;
    const outcome = benchOutcome(0.15, { rps: 1400 }, coarseOk, fine);
    expect(outcome).toEqual({
      kind: "figure",
      kneeOverPeak: Number((knee / 1400).toFixed(2)),
      meetsGoal: knee / 1400 >= GOAL,
    });
    expect(outcome.kind === "figure" && outcome.meetsGoal).toBe(true);
    expect(benchOutcome(0.15, { rps: 2500 }, coarseOk, fine)).toMatchObject({ kind: "figure", meetsGoal: false });
  });

  it("should say the generator is the bound, and name a smaller budget, when the coarse knee is k6's", () => {
    const coarse = runOf(stepsOf((r) => (r <= 5000 ? "ok" : "generator")));
    const outcome = benchOutcome(0.15, { rps: 6200 }, coarse, undefined);
    expect(outcome.kind).toBe("no-figure");
    if (outcome.kind !== "no-figure") return;
    expect(outcome.why).toMatch(/5,000\/s.*load generator's/);
    // Half of the 6,500/s k6 could not drive, against a peak of 6,200/s on 0.15 cores: 0.15 * 3,250 / 6,200.
    expect(outcome.please).toContain("BENCH_SERVICE_CPUS=0.07");
  });

  it("should say the generator is the bound when k6 fell behind on every step of the fine run", () => {
    const coarse = runOf(stepsOf((r) => (r <= 5000 ? "ok" : "service")));
    const fine = runOf(stepsOf(() => "generator", parseCapacityRates("5000-6500/8")));
    expect(fine.figures.kneeOfferedPerSecond).toBeUndefined();
    const outcome = benchOutcome(0.15, { rps: 6200 }, coarse, fine);
    expect(outcome).toMatchObject({ kind: "no-figure" });
    if (outcome.kind !== "no-figure") return;
    expect(outcome.why).toMatch(/no step of the fine run met the SLO, and at 5,000\/s k6 fell behind/);
    expect(outcome.please).toContain("BENCH_SERVICE_CPUS=0.06");
  });

  it("should say the host's load changed when the fine run failed on the service where the coarse run passed", () => {
    const fine = runOf(stepsOf(() => "slow", fineRates));
    const outcome = benchOutcome(0.15, { rps: 1400 }, coarseOk, fine);
    expect(outcome).toMatchObject({ kind: "no-figure" });
    if (outcome.kind !== "no-figure") return;
    expect(outcome.why).toMatch(/coarse run passed at 1,000\/s: the host's load changed/);
  });

  it("should say the service is over the SLO at the lowest rate when no step passed", () => {
    const outcome = benchOutcome(0.15, { rps: 300 }, runOf(stepsOf(() => "slow")), undefined);
    expect(outcome).toMatchObject({ kind: "no-figure" });
    if (outcome.kind !== "no-figure") return;
    expect(outcome.why).toMatch(/at 100\/s: p95 .* ms >= 300 ms.*over the SLO at the lowest rate/);
    expect(outcome.please).toMatch(/larger budget/);
  });

  it("should refuse a knee above wrk's peak on the same budget", () => {
    const outcome = benchOutcome(0.15, { rps: 700 }, coarseOk, undefined);
    expect(outcome).toMatchObject({ kind: "no-figure" });
    if (outcome.kind !== "no-figure") return;
    expect(outcome.why).toMatch(/above wrk's peak on the same budget \(700\/s\)/);
    expect(benchOutcome(0.15, { rps: 900 }, coarseOk, undefined).kind).toBe("figure");
  });

  it("should name the other processes' CPU when the host was not quiet", () => {
    const fine = runOf(stepsOf(() => "generator", fineRates));
    const busy = { otherCores: 1.42, during: "the fine run", cores: 2 };
    const outcome = benchOutcome(0.15, { rps: 1400 }, coarseOk, fine, busy);
    expect(outcome).toMatchObject({ kind: "no-figure" });
    if (outcome.kind !== "no-figure") return;
    expect(outcome.why).toMatch(
      /k6 fell behind.*other processes used 1\.42 of this host's 2 cores during the fine run/,
    );
    expect(outcome.please).toMatch(/nothing else runs on this host/);
    const quiet = { ...busy, otherCores: QUIET_OTHER_CORES };
    expect(benchOutcome(0.15, { rps: 1400 }, coarseOk, fine, quiet)).toMatchObject({
      please: expect.stringMatching(/BENCH_SERVICE_CPUS=/) as unknown,
    });
    const figure = runOf(stepsOf((r) => (r <= 1250 ? "ok" : "service"), fineRates));
    expect(benchOutcome(0.15, { rps: 1400 }, coarseOk, figure, busy)).toMatchObject({
      kind: "figure",
      busyHost: expect.stringContaining("1.42") as unknown,
    });
    expect(benchOutcome(0.15, { rps: 1400 }, coarseOk, figure, quiet)).not.toHaveProperty("busyHost");
  });

  it("should give no figure when every step of the fine run passed (the knee only a lower bound)", () => {
    const fine = runOf(stepsOf(() => "ok", fineRates));
    expect(fine.figures.kneeBoundBy).toBe("plan");
    const outcome = benchOutcome(0.3, { rps: 1400 }, coarseOk, fine);
    expect(outcome).toMatchObject({ kind: "no-figure" });
    if (outcome.kind !== "no-figure") return;
    expect(outcome.why).toMatch(/every step of the fine run up to 1,500\/s met the SLO .* only a lower bound/);
  });

  it("should say the plan is too low when every coarse step passed", () => {
    const outcome = benchOutcome(0.15, { rps: 9000 }, runOf(stepsOf(() => "ok")), undefined);
    expect(outcome).toMatchObject({ kind: "no-figure" });
    if (outcome.kind !== "no-figure") return;
    expect(outcome.why).toMatch(/every step up to 8,000\/s met the SLO/);
  });
});
