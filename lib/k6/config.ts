/**
 * The k6 side's configuration, in one typed loader: every setting comes from an environment variable with the ATD_
 * prefix (the harness sets them; a person running k6 by hand can too), is validated once in the init context, and
 * fails the run with a message that says what to change.
 */

import {
  COVERAGE_LEVELS,
  type CoverageLevel,
  ExecutionSegmentError,
  partitionKeys,
  RATE_LIMIT_ALGORITHMS,
  segmentPosition,
  type RateLimitAlgorithm,
} from "../contract/index.ts";
import { CAPACITY_RATES_ADVICE, CapacityRatesError, parseCapacityRates } from "../contract/profiles.ts";

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
  /** A JSON file of SLO overrides, read at init. ATD_SLO_FILE. */
  sloFile: string | undefined;
  /** A JSON file overriding the traffic model, read at init. ATD_TRAFFIC_FILE. */
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
}

function wholePositive(env: Env, name: string): number | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new ConfigError(
      `Failed to configure the run: ${name}="${value}" is not a whole number of requests per second of at least 1. Please give e.g. 5, or unset it for no cap.`,
    );
  }
  return n;
}

function indexList(env: Env, name: string): number[] | undefined {
  const value = env[name]?.trim();
  if (value === undefined) return undefined;
  if (value === "") return [];
  const indexes = value.split(",").map((v) => Number(v.trim()));
  if (indexes.some((i) => !Number.isInteger(i) || i < 0)) {
    throw new ConfigError(
      `Failed to configure the run: ${name}="${value}" is not a comma-separated list of key indexes. Please give e.g. 0,2.`,
    );
  }
  return indexes;
}

export type Env = Readonly<Record<string, string | undefined>>;

function choice<T extends string>(env: Env, name: string, allowed: readonly T[]): T | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  if (!allowed.includes(value as T)) {
    throw new ConfigError(
      `Failed to configure the run: ${name}="${value}" is not one of ${allowed.join(", ")}. Please use one of them.`,
    );
  }
  return value as T;
}

function positiveNumber(env: Env, name: string): number | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new ConfigError(
      `Failed to configure the run: ${name}="${value}" is not a positive number. Please give seconds, e.g. 60.`,
    );
  }
  return n;
}

const DURATION = /^(\d+(\.\d+)?(ms|s|m|h))+$/;

export class ConfigError extends Error {
  override name = "ConfigError";
}

function capacityRates(env: Env): number[] | undefined {
  const value = env.ATD_CAPACITY_RATES?.trim();
  if (!value) return undefined;
  try {
    return parseCapacityRates(value);
  } catch (error) {
    if (error instanceof CapacityRatesError) {
      throw new ConfigError(
        `Failed to configure the run: ATD_CAPACITY_RATES="${value}": ${error.reason}. ${CAPACITY_RATES_ADVICE}`,
      );
    }
    throw error;
  }
}

function required(env: Env, name: string, hint: string): string {
  const value = env[name]?.trim();
  if (!value) throw new ConfigError(`Failed to configure the run: ${name} is not set. Please set it to ${hint}.`);
  return value;
}

function duration(env: Env, name: string, fallback: string | undefined): string | undefined {
  const value = env[name]?.trim();
  if (!value) return fallback;
  if (!DURATION.test(value)) {
    throw new ConfigError(
      `Failed to configure the run: ${name}="${value}" is not a duration. Please use k6 syntax such as 30s, 5m or 1h30m.`,
    );
  }
  return value;
}

export function loadConfig(env: Env): K6Config {
  const baseUrl = required(env, "ATD_BASE_URL", "the API's base URL, e.g. http://127.0.0.1:8080").replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) {
    throw new ConfigError(
      `Failed to configure the run: ATD_BASE_URL="${baseUrl}" is not an http(s) URL. Please give a URL such as http://127.0.0.1:8080.`,
    );
  }
  const apiKeys = required(env, "ATD_API_KEYS", "one or more API keys, comma separated")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
  if (apiKeys.length === 0) {
    throw new ConfigError("Failed to configure the run: ATD_API_KEYS holds no key. Please list at least one API key.");
  }
  return {
    baseUrl,
    apiKeys,
    keysBySegment: (choice(env, "ATD_KEYS_BY_SEGMENT", ["0", "1"] as const) ?? "0") === "1",
    profile: env.ATD_PROFILE?.trim() || "smoke",
    duration: duration(env, "ATD_DURATION", undefined),
    requestTimeout: duration(env, "ATD_REQUEST_TIMEOUT", "10s") ?? "10s",
    summaryPath: env.ATD_SUMMARY_PATH?.trim() || "k6-summary.json",
    sloFile: env.ATD_SLO_FILE?.trim() || undefined,
    trafficFile: env.ATD_TRAFFIC_FILE?.trim() || undefined,
    control:
      env.ATD_CONTROL_URL?.trim() && env.ATD_CONTROL_TOKEN?.trim()
        ? { url: env.ATD_CONTROL_URL.trim().replace(/\/+$/, ""), token: env.ATD_CONTROL_TOKEN.trim() }
        : undefined,
    coverageLevel: choice(env, "ATD_COVERAGE_LEVEL", COVERAGE_LEVELS),
    rateLimit: {
      windowSeconds: positiveNumber(env, "ATD_RATE_WINDOW_SECONDS"),
      algorithm: choice(env, "ATD_RATE_ALGORITHM", RATE_LIMIT_ALGORITHMS),
      outsideList: choice(env, "ATD_RATE_OUTSIDE_LIST", ["unlimited", "finding"] as const) ?? "unlimited",
    },
    capacityRates: capacityRates(env),
    harnessKey: env.ATD_HARNESS_KEY?.trim() || undefined,
    reservationHoldSeconds: positiveNumber(env, "ATD_RESERVATION_HOLD_SECONDS"),
    alternativesKeys: indexList(env, "ATD_ALTERNATIVES_KEYS"),
    maxRps: wholePositive(env, "ATD_MAX_RPS"),
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
