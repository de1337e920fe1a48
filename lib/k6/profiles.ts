/**
 * Load profiles as named exports. Open model (arrival-rate executors) by default: iterations start on a schedule
 * whatever the service's latency, so a slow service shows up as latency and dropped iterations instead of hiding
 * behind fewer requests. Rates are iterations per second of the scenario that uses the profile.
 * VUs are pre-allocated for iterations of about 2 s (a journey with think times) at the profile's peak rate:
 * starting VUs mid-run is what drops iterations on a busy load generator.
 */
import type { Scenario } from "k6/options";
import { parseDuration } from "./durations.ts";

export interface LoadProfile {
  readonly description: string;
  /** The k6 scenario for this profile; `duration` overrides the main (steady) stage's length. */
  scenario(duration: string | undefined): Scenario;
}

/** Does it work at all: a handful of iterations per second for a short while. */
export const smoke: LoadProfile = {
  description: "5 iterations/s for 15 s: the contract holds and nothing errors",
  scenario: (duration) => ({
    executor: "constant-arrival-rate",
    rate: 5,
    timeUnit: "1s",
    duration: duration ?? "15s",
    preAllocatedVUs: 20,
    maxVUs: 50,
  }),
};

/** A normal business day's traffic. */
export const average: LoadProfile = {
  description: "ramp to 20 iterations/s, hold 5 min, ramp down: a normal day",
  scenario: (duration) => ({
    executor: "ramping-arrival-rate",
    startRate: 1,
    timeUnit: "1s",
    preAllocatedVUs: 60,
    maxVUs: 300,
    stages: [
      { target: 20, duration: "1m" },
      { target: 20, duration: duration ?? "5m" },
      { target: 0, duration: "30s" },
    ],
  }),
};

/** Well above the normal day, to see where latency starts to climb. */
export const stress: LoadProfile = {
  description: "ramp to 80 iterations/s and hold 5 min: above the normal day",
  scenario: (duration) => ({
    executor: "ramping-arrival-rate",
    startRate: 5,
    timeUnit: "1s",
    preAllocatedVUs: 200,
    maxVUs: 800,
    stages: [
      { target: 80, duration: "2m" },
      { target: 80, duration: duration ?? "5m" },
      { target: 0, duration: "1m" },
    ],
  }),
};

/** A sudden surge (a flash sale, a partner's bulk sync) and the recovery after it. */
export const spike: LoadProfile = {
  description: "10 -> 150 iterations/s within 10 s, hold 1 min, back to 10: surge and recovery",
  scenario: (duration) => ({
    executor: "ramping-arrival-rate",
    startRate: 10,
    timeUnit: "1s",
    preAllocatedVUs: 350,
    maxVUs: 1000,
    stages: [
      { target: 10, duration: "30s" },
      { target: 150, duration: "10s" },
      { target: 150, duration: duration ?? "1m" },
      { target: 10, duration: "10s" },
      { target: 10, duration: "1m" },
    ],
  }),
};

/** Constant load for hours: what only shows over time (leaks, drift, error creep). */
export const soak: LoadProfile = {
  description: "15 iterations/s constant for 2 h (nightly; compress with --duration)",
  scenario: (duration) => ({
    executor: "constant-arrival-rate",
    rate: 15,
    timeUnit: "1s",
    duration: duration ?? "2h",
    preAllocatedVUs: 40,
    maxVUs: 200,
  }),
};

/**
 * Offered rates of the capacity steps, iterations per second of a one-request iteration (scenarios/capacity.ts), so
 * also requests per second. Denser where a two-core host saturates, sparser above: past the knee each step only
 * confirms the degradation, and every step costs the same wall time.
 */
export const CAPACITY_STEP_RATES: readonly number[] = [
  100, 250, 500, 1000, 1500, 2000, 2500, 3000, 4000, 5000, 6500, 8000,
];

/** Seconds each capacity step takes to reach its rate before it is held. */
export const CAPACITY_RAMP_SECONDS = 2;

export interface CapacityStep {
  index: number;
  /** Offered rate, requests per second. */
  rate: number;
  /** Seconds since the scenario started: the hold (the part the analysis judges) starts and ends there. */
  holdFrom: number;
  holdTo: number;
}

/** The capacity plan: each step ramps to its rate and holds it for `duration` (20 s by default). */
export function capacityPlan(duration: string | undefined): CapacityStep[] {
  const hold = parseDuration(duration ?? "20s");
  return CAPACITY_STEP_RATES.map((rate, index) => {
    const holdFrom = index * (CAPACITY_RAMP_SECONDS + hold) + CAPACITY_RAMP_SECONDS;
    return { index, rate, holdFrom, holdTo: holdFrom + hold };
  });
}

/** Steps the arrival rate up past the service's saturation: the capacity planner's ramp (--duration: each hold). */
export const capacity: LoadProfile = {
  description: `steps of ${String(CAPACITY_STEP_RATES.length)} rates from ${String(CAPACITY_STEP_RATES[0])} to ${String(CAPACITY_STEP_RATES.at(-1))} requests/s, each held 20 s: find the knee`,
  scenario: (duration) => ({
    executor: "ramping-arrival-rate",
    startRate: CAPACITY_STEP_RATES[0],
    timeUnit: "1s",
    // Enough VUs for ~50 ms answers at the top rate; past saturation k6 drops iterations instead of piling up VUs,
    // which keeps the load generator (on the same cores) from starving the service it measures.
    preAllocatedVUs: 100,
    maxVUs: 400,
    stages: capacityPlan(duration).flatMap((step) => [
      { target: step.rate, duration: `${String(CAPACITY_RAMP_SECONDS)}s` },
      { target: step.rate, duration: `${String(step.holdTo - step.holdFrom)}s` },
    ]),
  }),
};

/** Iterations an arrival-rate scenario is meant to start: the area under its rate curve. */
export function expectedIterations(scenario: Scenario): number {
  const s = scenario as {
    rate?: number;
    startRate?: number;
    timeUnit?: string;
    duration?: string;
    stages?: { target: number; duration: string }[];
  };
  const perSecond = 1 / parseDuration(s.timeUnit ?? "1s");
  if (s.duration && s.rate !== undefined) return s.rate * perSecond * parseDuration(s.duration);
  let rate = s.startRate ?? 0;
  let total = 0;
  for (const stage of s.stages ?? []) {
    total += ((rate + stage.target) / 2) * perSecond * parseDuration(stage.duration);
    rate = stage.target;
  }
  return total;
}

export const PROFILES: Readonly<Record<string, LoadProfile>> = { smoke, average, stress, spike, soak, capacity };

export function profileNamed(name: string): LoadProfile {
  const profile = PROFILES[name];
  if (!profile) {
    throw new Error(
      `Failed to pick the load profile: "${name}" is not one. Please use one of ${Object.keys(PROFILES).join(", ")}.`,
    );
  }
  return profile;
}
