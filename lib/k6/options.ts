/** Builds a scenario's k6 options from the config: the profile's executor and the thresholds of the SLO table. */
import type { Options } from "k6/options";
import type { EndpointName } from "../contract/index.ts";
import type { K6Config } from "./config.ts";
import type { CurveReplay } from "../contract/arrival-curve.ts";
import { arrivalOf, expectedIterations } from "../contract/profiles.ts";
import { DEFAULT_SLO, thresholdsFor, type SloTable } from "../contract/slo.ts";

/**
 * The run's SLO table as the harness merged and wrote it (the run directory's or the ConfigMap's slo.json), read as
 * is: the merge and its checks happen once, in Node, before k6 starts. k6's open() reads files in init only.
 */
export function loadSlo(config: K6Config): SloTable {
  if (!config.sloFile) return DEFAULT_SLO;
  try {
    return JSON.parse(open(config.sloFile)) as SloTable;
  } catch (error) {
    throw new Error(
      `Failed to read the SLO table ${config.sloFile}: ${String(error)}. Please run k6 through the harness.`,
    );
  }
}

/**
 * k6's `rps` when the run has a hard cap (ATD_MAX_RPS): every request of the process, setup() included, waits for k6's
 * limiter, so the environment's ceiling holds whatever the profile asks for. Iterations the cap slows down are
 * dropped by the arrival-rate executors and show as dropped_iterations.
 */
export function rateCapOption(config: K6Config): Pick<Options, "rps"> {
  return config.maxRps === undefined ? {} : { rps: config.maxRps };
}

export function scenarioOptions(
  config: K6Config,
  scenario: { name: string; exec?: string; endpoints: readonly EndpointName[]; curveReplay?: CurveReplay | undefined },
): Options {
  // The same derivation as the harness's plan (lib/harness/plan/scenario-plan.ts); a scenario with its own profile
  // has set it in its config (scenarios/soak.ts).
  const profile = arrivalOf(undefined, { ...config, curveReplay: scenario.curveReplay }).arrival;
  return {
    scenarios: { [scenario.name]: { ...profile, exec: scenario.exec ?? "default" } },
    thresholds: thresholdsFor(scenario.endpoints, loadSlo(config), expectedIterations(profile)),
    summaryTrendStats: SUMMARY_TREND_STATS,
    ...rateCapOption(config),
  };
}

/** count: per-endpoint request counts (the observed mix) come from the per-endpoint duration sub-metrics. */
const SUMMARY_TREND_STATS = ["avg", "min", "med", "max", "p(90)", "p(95)", "p(99)", "count"];

/**
 * Options of a functional driver (alternatives, invariants, webhooks): a fixed small arrival rate whatever the
 * load profile, the SLO table's thresholds, but none on dropped iterations (an iteration the executor could not
 * start is no fault of the API) and, where expected error answers are the point, none on failed requests.
 */
export function functionalOptions(
  config: K6Config,
  scenario: {
    name: string;
    /** Iterations per second. */
    rate: number;
    defaultDuration: string;
    endpoints: readonly EndpointName[];
    maxVUs: number;
    /** False when 4xx answers (409, 422) are expected and judged by the scenario's own checks. */
    judgeFailedRequests: boolean;
  },
): Options {
  const thresholds = thresholdsFor(scenario.endpoints, loadSlo(config), 0);
  delete thresholds.dropped_iterations;
  if (!scenario.judgeFailedRequests) delete thresholds.http_req_failed;
  return {
    scenarios: {
      [scenario.name]: {
        executor: "constant-arrival-rate",
        rate: scenario.rate,
        timeUnit: "1s",
        duration: config.duration ?? scenario.defaultDuration,
        preAllocatedVUs: Math.min(4, scenario.maxVUs),
        maxVUs: scenario.maxVUs,
      },
    },
    thresholds,
    summaryTrendStats: SUMMARY_TREND_STATS,
    ...rateCapOption(config),
  };
}
