/**
 * Cuts a capacity run's samples into its steps (the hold of each, from the capacity plan) and judges each against
 * the SLO table: per step the offered and achieved rate, latency percentiles, errors and dropped iterations; the knee
 * (the highest step within SLO); concurrency by Little's law (N = X * R) for the USL fit; the safe operating rate;
 * and what bounds the knee: the service, the load generator (k6 fell behind with VUs to spare), or the plan's top rate.
 */
import { quantileSorted } from "simple-statistics";
import { CAPACITY_PRE_ALLOCATED_VUS, type CapacityStep } from "../../contract/profiles.ts";
import type { SloTable } from "../../contract/slo.ts";
import { fitUsl, type UslFit } from "./usl-fit.ts";

export interface CapacitySample {
  /** Epoch milliseconds. */
  t: number;
  durationMs: number;
  failed: boolean;
}

export interface StepFigures {
  index: number;
  offeredPerSecond: number;
  holdSeconds: number;
  requests: number;
  /** Answered without error, per second of the hold. */
  throughputPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  meanMs: number;
  errorRate: number;
  droppedIterations: number;
  /** Little's law: requests in flight on average, throughput x mean response time. */
  concurrency: number;
  withinSlo: boolean;
  /** Why the step is outside the SLO (empty when within). */
  breaches: string[];
  /**
   * k6 dropped iterations while most of its ready VUs were idle: an arrival-rate executor drops an iteration only
   * when no VU is free, so with few requests in flight (Little's law) the VUs were not waiting on the service; k6
   * itself could not start iterations on time (CPU). The step says little about the service.
   */
  generatorBound: boolean;
}

export interface CapacitySettings {
  /** Share of the knee's throughput recommended as the operating rate (headroom for spikes and noise). */
  safeShare: number;
  /** A step whose achieved throughput is below this share of the offered rate is saturated. */
  minThroughputShare: number;
  /** The VUs the capacity scenario has ready from the start (preAllocatedVUs, lib/contract/profiles.ts). */
  generatorVus: number;
  /**
   * Dropped iterations with fewer requests in flight than this share of generatorVus: the generator fell behind.
   * Only ready VUs count: between them and maxVUs k6 starts VUs on demand, and drops while it does, which a
   * saturated service (many requests in flight) also causes.
   */
  generatorIdleShare: number;
}

export const DEFAULT_CAPACITY_SETTINGS: CapacitySettings = {
  safeShare: 0.7,
  minThroughputShare: 0.9,
  generatorVus: CAPACITY_PRE_ALLOCATED_VUS,
  generatorIdleShare: 0.5,
};

/**
 * What the knee tells: "service" (the next step broke the SLO with k6 keeping up), "generator" (the next step broke
 * because k6 fell behind: the knee is only a lower bound of the service's), "plan" (every step passed: the capacity is
 * above the top rate), "none" (no step passed).
 */
export type KneeBound = "service" | "generator" | "plan" | "none";

export interface CapacityAnalysis {
  steps: StepFigures[];
  knee: StepFigures | undefined;
  /** Requests per second: safeShare of the knee's throughput. */
  safeOperatingRate: number | undefined;
  usl: UslFit | undefined;
  kneeBoundBy: KneeBound;
  /**
   * --capacity-rates for a second run that pins the knee down: from the knee to the first step above it that the
   * service failed, 8 steps (each ~5-10% above the last for typical gaps); undefined when no step above failed on the
   * service (every step passed, or k6 fell behind on each).
   */
  refineRates: string | undefined;
}

/** The latency SLO of the endpoint the capacity scenario calls. */
export function capacityLatencySlo(slo: SloTable): { p95: number; p99: number } {
  return slo.latency.endpoints.priceListDate ?? slo.latency.default;
}

function quantile(sorted: readonly number[], p: number): number {
  return sorted.length ? quantileSorted(sorted, p) : 0;
}

export function stepFigures(
  plan: readonly CapacityStep[],
  startMs: number,
  samples: readonly CapacitySample[],
  dropped: readonly { t: number; value: number }[],
  slo: SloTable,
  settings: CapacitySettings,
): StepFigures[] {
  const latency = capacityLatencySlo(slo);
  return plan.map((step) => {
    const from = startMs + step.holdFrom * 1000;
    const to = startMs + step.holdTo * 1000;
    const inStep = samples.filter((s) => s.t >= from && s.t < to);
    const ok = inStep.filter((s) => !s.failed);
    const durations = inStep.map((s) => s.durationMs).sort((a, b) => a - b);
    const holdSeconds = step.holdTo - step.holdFrom;
    const throughput = ok.length / holdSeconds;
    const meanMs = durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : 0;
    const droppedIterations = dropped.filter((d) => d.t >= from && d.t < to).reduce((a, d) => a + d.value, 0);
    const errorRate = inStep.length ? (inStep.length - ok.length) / inStep.length : 0;
    const figures = {
      index: step.index,
      offeredPerSecond: step.rate,
      holdSeconds,
      requests: inStep.length,
      throughputPerSecond: throughput,
      p50Ms: quantile(durations, 0.5),
      p95Ms: quantile(durations, 0.95),
      p99Ms: quantile(durations, 0.99),
      meanMs,
      errorRate,
      droppedIterations,
      concurrency: throughput * (meanMs / 1000),
    };
    const breaches: string[] = [];
    if (inStep.length === 0) breaches.push("no requests in the step");
    if (figures.p95Ms >= latency.p95) breaches.push(`p95 ${figures.p95Ms.toFixed(1)} ms >= ${String(latency.p95)} ms`);
    if (figures.p99Ms >= latency.p99) breaches.push(`p99 ${figures.p99Ms.toFixed(1)} ms >= ${String(latency.p99)} ms`);
    if (errorRate > slo.errorRate)
      breaches.push(`error rate ${(errorRate * 100).toFixed(2)}% > ${String(slo.errorRate * 100)}%`);
    const plannedIterations = step.rate * holdSeconds;
    if (droppedIterations > slo.droppedIterationRate * plannedIterations) {
      breaches.push(`${String(droppedIterations)} dropped iterations`);
    }
    if (throughput < settings.minThroughputShare * step.rate) {
      breaches.push(`throughput ${throughput.toFixed(0)}/s < ${String(settings.minThroughputShare * 100)}% of offered`);
    }
    const droppedTooMany = droppedIterations > slo.droppedIterationRate * plannedIterations;
    const generatorBound = droppedTooMany && figures.concurrency < settings.generatorIdleShare * settings.generatorVus;
    return { ...figures, withinSlo: breaches.length === 0, breaches, generatorBound };
  });
}

/** The highest step within SLO (steps past a failed one can pass again on a noisy host; the highest is the knee). */
export function findKnee(steps: readonly StepFigures[]): StepFigures | undefined {
  return steps
    .filter((s) => s.withinSlo)
    .reduce<StepFigures | undefined>(
      (best, s) => (!best || s.offeredPerSecond > best.offeredPerSecond ? s : best),
      undefined,
    );
}

function kneeBound(steps: readonly StepFigures[], knee: StepFigures | undefined): KneeBound {
  if (!knee) return "none";
  const next = steps.find((s) => s.offeredPerSecond > knee.offeredPerSecond);
  if (!next) return "plan";
  return next.generatorBound ? "generator" : "service";
}

/**
 * A range for --capacity-rates: from the knee to the first step above it that the service failed. A step k6 could not
 * drive says nothing about the service, so it does not end the range (a stall of k6 between the knee and the service's
 * failure is skipped over). When no step above failed on the service, none is proposed: a finer run between the knee
 * and a generator-bound step only finds again where k6 falls behind, every step dropping iterations; the knee's
 * bound says what to change instead.
 */
function refineRates(steps: readonly StepFigures[], knee: StepFigures | undefined): string | undefined {
  if (!knee) return undefined;
  const upper = steps.find((s) => s.offeredPerSecond > knee.offeredPerSecond && !s.withinSlo && !s.generatorBound);
  if (!upper || upper.offeredPerSecond - knee.offeredPerSecond < 8) return undefined;
  return `${String(knee.offeredPerSecond)}-${String(upper.offeredPerSecond)}/8`;
}

export function analyseCapacity(steps: StepFigures[], settings: CapacitySettings): CapacityAnalysis {
  const knee = findKnee(steps);
  return {
    steps,
    knee,
    kneeBoundBy: kneeBound(steps, knee),
    refineRates: refineRates(steps, knee),
    safeOperatingRate: knee ? knee.throughputPerSecond * settings.safeShare : undefined,
    usl: fitUsl(steps.filter((s) => s.requests > 0).map((s) => ({ n: s.concurrency, x: s.throughputPerSecond }))),
  };
}
