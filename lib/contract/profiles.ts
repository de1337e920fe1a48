/**
 * Load profiles as named exports. Open model (arrival-rate executors) by default: iterations start on a schedule
 * whatever the service's latency, so a slow service shows up as latency and dropped iterations instead of hiding
 * behind fewer requests. Rates are iterations per second of the scenario that uses the profile.
 * VUs are pre-allocated for iterations of about 2 s (a journey with think times) at the profile's peak rate:
 * starting VUs mid-run is what drops iterations on a busy load generator.
 */
import { arrivalCurveScenario, type CurveReplay } from "./arrival-curve.ts";
import { parseDuration } from "./durations.ts";
import { SettingsError } from "./errors.ts";

/**
 * An open-model k6 scenario as the profiles write it (k6's own Scenario type, structurally; lib/contract stays free
 * of k6's types so Node reads the same profiles). lib/k6/options.ts hands it to k6 as it is.
 */
export type Scenario = ConstantArrivalRate | RampingArrivalRate;

interface ArrivalRate {
  timeUnit: string;
  preAllocatedVUs: number;
  maxVUs: number;
}

export interface ConstantArrivalRate extends ArrivalRate {
  executor: "constant-arrival-rate";
  rate: number;
  duration: string;
}

export interface RampingArrivalRate extends ArrivalRate {
  executor: "ramping-arrival-rate";
  startRate: number | undefined;
  stages: { target: number; duration: string }[];
}

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

/**
 * The normal day's peak from the first second, no ramps: what a release comparison wants, since every second of a
 * ramp is traffic at another rate and adds variance between two runs that should differ only by the build.
 */
export const steady: LoadProfile = {
  description: "20 iterations/s from the start for 2 min, no ramps: steady state for comparing releases",
  scenario: (duration) => ({
    executor: "constant-arrival-rate",
    rate: 20,
    timeUnit: "1s",
    duration: duration ?? "2m",
    preAllocatedVUs: 60,
    maxVUs: 300,
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
 * confirms the degradation, and every step costs the same wall time. A first run with these locates the knee; a
 * second with --capacity-rates between the knee and the first failed step (e.g. 2000-3000/8) pins it down.
 */
export const CAPACITY_STEP_RATES: readonly number[] = [
  100, 250, 500, 1000, 1500, 2000, 2500, 3000, 4000, 5000, 6500, 8000,
];

/** Seconds each capacity step takes to reach its rate before it is held. */
export const CAPACITY_RAMP_SECONDS = 2;

/**
 * Seconds at the first rate before the first hold, not judged: the service's JIT and caches and k6's VUs warm up
 * here. Without it the first step, on a CPU-budgeted service especially, showed p99 of seconds at 100 requests/s.
 */
export const CAPACITY_WARMUP_SECONDS = 5;

/**
 * VUs ready from the start. Enough for ~50 ms answers at 2,000 requests/s; more are started on demand, up to
 * CAPACITY_MAX_VUS, and starting one mid-run takes a while, during which k6 drops iterations.
 */
export const CAPACITY_PRE_ALLOCATED_VUS = 100;

/**
 * VUs the capacity scenario may use. Past saturation k6 drops iterations instead of piling up VUs, which keeps the
 * load generator (often on the same cores) from starving the service it measures.
 */
export const CAPACITY_MAX_VUS = 400;

/** Bounds of a capacity plan: enough steps to see a curve, few enough that one run stays under an hour at 20 s holds. */
const MAX_CAPACITY_STEPS = 40;
/** The highest step rate, requests/s: far above what one k6 process with CAPACITY_MAX_VUS offers, so only a typo. */
export const MAX_CAPACITY_RATE = 100_000;

export class CapacityRatesError extends SettingsError {
  override name = "CapacityRatesError";
  /** What is wrong, without the text or the advice (for callers that name their own source, e.g. a variable). */
  readonly reason: string;

  constructor(message: string, reason: string) {
    super(message);
    this.reason = reason;
  }
}

/** How to write capacity rates: the advice every refusal ends with. */
export const CAPACITY_RATES_ADVICE =
  'Please give increasing requests/s as "500,1000,2000" or a range as "2000-3000/8" (from-to/steps).';

/**
 * Reads a list of step rates: "500,1000,2000" (each rate, increasing) or "2000-3000/8" (8 steps from 2000 to 3000,
 * each the same factor above the last, so the resolution is the same share of the rate everywhere).
 */
export function parseCapacityRates(text: string): number[] {
  const fail = (why: string): never => {
    throw new CapacityRatesError(`Failed to read the capacity rates "${text}": ${why}. ${CAPACITY_RATES_ADVICE}`, why);
  };
  const trimmed = text.trim();
  const range = /^(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*\/\s*(\d+)$/.exec(trimmed);
  let rates: number[];
  if (range) {
    const [from, to, steps] = [Number(range[1]), Number(range[2]), Number(range[3])];
    if (steps < 2) fail("a range needs at least 2 steps");
    if (from <= 0 || to <= from) fail("a range goes from a positive rate up to a higher one");
    if (steps > MAX_CAPACITY_STEPS) fail(`more than ${String(MAX_CAPACITY_STEPS)} steps`);
    const factor = (to / from) ** (1 / (steps - 1));
    rates = Array.from({ length: steps }, (_, i) => Math.round(from * factor ** i));
    if (new Set(rates).size < rates.length) fail("the range is too narrow for that many whole-number steps");
  } else {
    rates = trimmed.split(",").map((part) => {
      const n = Number(part.trim());
      if (part.trim() === "" || !Number.isFinite(n) || n <= 0) fail(`"${part.trim()}" is not a positive rate`);
      return Math.round(n);
    });
  }
  if (rates.length > MAX_CAPACITY_STEPS) fail(`more than ${String(MAX_CAPACITY_STEPS)} steps`);
  // Rates are whole requests per second: 0.4 would be a step that sends nothing.
  if (rates.some((r) => r < 1)) fail("a rate rounds to 0 requests/s");
  if (rates.some((r, i) => i > 0 && r <= (rates[i - 1] ?? 0))) fail("the rates must increase step by step");
  if (rates.some((r) => r > MAX_CAPACITY_RATE)) fail(`a rate is above ${String(MAX_CAPACITY_RATE)} requests/s`);
  return rates;
}

export interface CapacityStep {
  index: number;
  /** Offered rate, requests per second. */
  rate: number;
  /** Seconds since the scenario started: the hold (the part the analysis judges) starts and ends there. */
  holdFrom: number;
  holdTo: number;
}

/**
 * The capacity plan: a warm-up at the first rate, then each step holds its rate for `duration` (20 s by default),
 * the steps after the first reached by a short ramp.
 */
export function capacityPlan(
  duration: string | undefined,
  rates: readonly number[] = CAPACITY_STEP_RATES,
): CapacityStep[] {
  const hold = parseDuration(duration ?? "20s");
  return rates.map((rate, index) => {
    const holdFrom = CAPACITY_WARMUP_SECONDS + index * (CAPACITY_RAMP_SECONDS + hold);
    return { index, rate, holdFrom, holdTo: holdFrom + hold };
  });
}

/** The ramping-arrival-rate scenario of a capacity plan. */
export function capacityScenario(
  duration: string | undefined,
  rates: readonly number[] = CAPACITY_STEP_RATES,
): Scenario {
  return {
    executor: "ramping-arrival-rate",
    startRate: rates[0],
    timeUnit: "1s",
    preAllocatedVUs: CAPACITY_PRE_ALLOCATED_VUS,
    maxVUs: CAPACITY_MAX_VUS,
    stages: capacityPlan(duration, rates).flatMap((step) => [
      { target: step.rate, duration: `${String(step.index === 0 ? CAPACITY_WARMUP_SECONDS : CAPACITY_RAMP_SECONDS)}s` },
      { target: step.rate, duration: `${String(step.holdTo - step.holdFrom)}s` },
    ]),
  };
}

/** Steps the arrival rate up past the service's saturation: the capacity planner's ramp (--duration: each hold). */
export const capacity: LoadProfile = {
  description: `steps of ${String(CAPACITY_STEP_RATES.length)} rates from ${String(CAPACITY_STEP_RATES[0])} to ${String(CAPACITY_STEP_RATES.at(-1))} requests/s (or --capacity-rates), each held 20 s: find the knee`,
  scenario: (duration) => capacityScenario(duration),
};

/** Iterations an arrival-rate scenario is meant to start: the area under its rate curve. */
export function expectedIterations(s: Scenario): number {
  const perSecond = 1 / parseDuration(s.timeUnit);
  if (s.executor === "constant-arrival-rate") return s.rate * perSecond * parseDuration(s.duration);
  let rate = s.startRate ?? 0;
  let total = 0;
  for (const stage of s.stages) {
    total += ((rate + stage.target) / 2) * perSecond * parseDuration(stage.duration);
    rate = stage.target;
  }
  return total;
}

export const PROFILES: Readonly<Record<string, LoadProfile>> = {
  smoke,
  average,
  steady,
  stress,
  spike,
  soak,
  capacity,
};

export function profileNamed(name: string): LoadProfile {
  const profile = PROFILES[name];
  if (!profile) {
    throw new SettingsError(
      `Failed to pick the load profile: "${name}" is not one. Please use one of ${Object.keys(PROFILES).join(", ")}.`,
    );
  }
  return profile;
}

/** What a scenario's arrival executor is built from: the run's --profile, --duration and --capacity-rates. */
export interface LengthSettings {
  profile: string;
  duration?: string | undefined;
  capacityRates?: readonly number[] | undefined;
  /** --arrival-curve: the fitted curve and how to play it, for the one scenario that replays it (partner-mix). */
  curveReplay?: CurveReplay | undefined;
}

/** The profile name a scenario runs under --arrival-curve. */
export const ARRIVAL_CURVE_PROFILE = "arrival-curve";

/**
 * A scenario's profile and arrival executor: its own profile (soak, capacity) when it has one, else --profile. Only a
 * scenario whose own profile is capacity reads --capacity-rates; another run with --profile capacity gets the profile's
 * default steps. The one derivation both sides use: the harness's plan (lib/harness/plan/scenario-plan.ts) and k6's
 * options (lib/k6/options.ts, scenarios/capacity.ts). Throws a SettingsError for an unknown profile or a bad duration.
 */
export function arrivalOf(
  ownProfile: string | undefined,
  settings: LengthSettings,
): { profile: string; arrival: Scenario } {
  if (ownProfile === undefined && settings.curveReplay) {
    return { profile: ARRIVAL_CURVE_PROFILE, arrival: arrivalCurveScenario(settings.curveReplay) };
  }
  const profile = ownProfile ?? settings.profile;
  const arrival =
    ownProfile === "capacity" && settings.capacityRates
      ? capacityScenario(settings.duration, settings.capacityRates)
      : profileNamed(profile).scenario(settings.duration);
  return { profile, arrival };
}
