/**
 * The k6 side's configuration, in one typed loader: every setting comes from an environment variable with the ATD_
 * prefix (the harness sets them; a person running k6 by hand can too), is decoded and checked once in the init
 * context (decodeK6Env, lib/contract/run-protocol.ts), and fails the run with a message that says what to change.
 */

import {
  type CoverageLevel,
  decodeK6Env,
  ExecutionSegmentError,
  K6EnvError,
  type K6Settings,
  partitionKeys,
  segmentPosition,
  type RateLimitAlgorithm,
} from "../contract/index.ts";

export interface K6Config {
  /** Base URL of the partner API, without a trailing slash. ATD_BASE_URL. */
  baseUrl: string;
  /** API keys to spread traffic over, comma separated. ATD_API_KEYS. */
  apiKeys: string[];
  /**
   * ATD_KEYS_BY_SEGMENT=1: this k6 process spends only its execution segment's slice of apiKeys (runnerKeys), as a
   * k6-operator runner that reads the same Secret as all the others must. Off: all of apiKeys.
   */
  keysBySegment: boolean;
  /** Name of the load profile (see profiles.ts). ATD_PROFILE. */
  profile: string;
  /** Overrides the profile's main duration, k6 duration syntax (e.g. 30s, 5m). ATD_DURATION. */
  duration: string | undefined;
  /** Per-request timeout, k6 duration syntax. ATD_REQUEST_TIMEOUT, default 10s. */
  requestTimeout: string;
  /** Where handleSummary writes the machine-readable summary. ATD_SUMMARY_PATH, default k6-summary.json. */
  summaryPath: string;
  /** The run's whole SLO table as the harness merged it (slo.json), read as is at init. ATD_SLO_FILE. */
  sloFile: string | undefined;
  /** The run's whole traffic model as the harness merged it (traffic.json), read as is at init. ATD_TRAFFIC_FILE. */
  trafficFile: string | undefined;
  /**
   * The test-only control API (ATD_CONTROL_URL, ATD_CONTROL_TOKEN), passed by the harness when the target has one, for
   * scenarios that sell slots out and read ground truth (scenarios/alternatives.ts, scenarios/invariants.ts).
   */
  control: { url: string; token: string } | undefined;
  /** The run's coverage level as the harness found it (ATD_COVERAGE_LEVEL); undefined: not told, below reference. */
  coverageLevel: CoverageLevel | undefined;
  rateLimit: {
    /** The rate-limit window in seconds when known from configuration; otherwise measured. ATD_RATE_WINDOW_SECONDS. */
    windowSeconds: number | undefined;
    /** The algorithm the deployment is expected to use; checked when set. ATD_RATE_ALGORITHM. */
    algorithm: RateLimitAlgorithm | undefined;
    /**
     * Booking and config endpoints outside the shared allowance: "unlimited" (docs/contract-gaps.md, Rate limit: neither limited nor
     * counted; a difference fails) or "finding" (a difference is reported only). ATD_RATE_OUTSIDE_LIST.
     */
    outsideList: "unlimited" | "finding";
  };
  /** The capacity scenario's step rates, requests/s; undefined: the default steps. ATD_CAPACITY_RATES. */
  capacityRates: number[] | undefined;
  /** Public API only: the run's own key for competing demand, never in apiKeys. ATD_HARNESS_KEY. */
  harnessKey: string | undefined;
  /**
   * Public API only: real seconds a reservation holds its seats, as the operator states it; undefined: for the
   * booking's whole life. ATD_RESERVATION_HOLD_SECONDS.
   */
  reservationHoldSeconds: number | undefined;
  /**
   * Public API only: indexes in apiKeys of the keys the operator enabled alternatives for; undefined: not stated.
   * ATD_ALTERNATIVES_KEYS.
   */
  alternativesKeys: number[] | undefined;
  /**
   * A hard cap on this process's HTTP requests per second (k6's `rps` option), from the environment's per-key ceiling;
   * undefined: none. ATD_MAX_RPS.
   */
  maxRps: number | undefined;
  /** --arrival-curve: how partner-mix plays the fitted arrival curve; undefined: the profile. ATD_ARRIVAL_CURVE. */
  arrivalCurve: { timeCompression: number; rateMultiplier: number } | undefined;
  /**
   * Booking calls log the webhook events they must cause (EXPECTATION_MARKER); off keeps the hot path bare.
   * ATD_RECORD_EXPECTATIONS=1, set by the webhook sink and the reservation cleanup.
   */
  recordExpectations: boolean;
}

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The harness's settings (decodeK6Env checks each), with k6's defaults for those not set. */
export function loadConfig(env: Env): K6Config {
  let settings: K6Settings;
  try {
    settings = decodeK6Env(env);
  } catch (error) {
    if (error instanceof K6EnvError) throw new ConfigError(error.message);
    throw error;
  }
  const { controlUrl, controlToken } = settings;
  return {
    baseUrl: settings.baseUrl,
    apiKeys: [...settings.apiKeys],
    keysBySegment: settings.keysBySegment ?? false,
    profile: settings.profile ?? "smoke",
    duration: settings.duration,
    requestTimeout: settings.requestTimeout ?? "10s",
    summaryPath: settings.summaryPath ?? "k6-summary.json",
    sloFile: settings.sloFile,
    trafficFile: settings.trafficFile,
    control: controlUrl && controlToken ? { url: controlUrl, token: controlToken } : undefined,
    coverageLevel: settings.coverageLevel,
    rateLimit: {
      windowSeconds: settings.rateWindowSeconds,
      algorithm: settings.rateAlgorithm,
      outsideList: settings.rateOutsideList ?? "unlimited",
    },
    capacityRates: settings.capacityRates && [...settings.capacityRates],
    harnessKey: settings.harnessKey,
    reservationHoldSeconds: settings.reservationHoldSeconds,
    alternativesKeys: settings.alternativesKeys && [...settings.alternativesKeys],
    maxRps: settings.maxRps,
    arrivalCurve: settings.arrivalCurve,
    recordExpectations: settings.recordExpectations ?? false,
  };
}

/** The API keys one k6 process may spend, and where it stands among the runners of a split run. */
export interface RunnerKeys {
  keys: readonly string[];
  /** This runner's position in the execution segment sequence (0 in a whole run). */
  index: number;
  /** How many runners split the test (1 in a whole run): k6 numbers their iterations in turn. */
  runners: number;
}

/**
 * The keys of the runner that runs `segment` of `sequence` (k6's exec.test.options.executionSegment and
 * executionSegmentSequence, readable only once the VU runs): with keysBySegment its slice of apiKeys, cut exactly as
 * `harness run --segments` cuts them (partitionKeys); otherwise all of apiKeys.
 */
export function runnerKeysOf(
  config: K6Config,
  segment: string | null | undefined,
  sequence: string | null | undefined,
): RunnerKeys {
  let position: { index: number; count: number };
  try {
    position = segmentPosition(segment, sequence);
  } catch (error) {
    if (!(error instanceof ExecutionSegmentError)) throw error;
    if (!config.keysBySegment) return { keys: config.apiKeys, index: 0, runners: 1 };
    throw new ConfigError(
      `Failed to pick this runner's API keys: ${error.message}. Please run k6 with --execution-segment and --execution-segment-sequence as the k6-operator does, or unset ATD_KEYS_BY_SEGMENT.`,
    );
  }
  if (!config.keysBySegment) return { keys: config.apiKeys, index: position.index, runners: position.count };
  const keys = partitionKeys(config.apiKeys, position.count)[position.index] ?? [];
  if (keys.length === 0) {
    throw new ConfigError(
      `Failed to pick this runner's API keys: runner ${String(position.index + 1)} of ${String(position.count)} (execution segment ${segment ?? ""}) gets no key, because ATD_API_KEYS holds only ${String(config.apiKeys.length)} and no two runners may share one. Please put at least ${String(position.count)} keys in ATD_API_KEYS (the Secret) or lower the parallelism.`,
    );
  }
  return { keys, index: position.index, runners: position.count };
}
