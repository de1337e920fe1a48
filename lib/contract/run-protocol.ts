/**
 * What a k6 scenario and the Node harness agree on besides the API itself: the environment variables the harness
 * sets, typed (K6Settings, written by encodeK6Env in lib/harness/k6-runner.ts and read by decodeK6Env in
 * lib/k6/config.ts), and the markers of the log lines k6 writes for the harness (read by the verdict and the judges).
 */
import { parseControlProductTypes, type ControlProductType } from "./product-type-discovery.ts";
import { RATE_LIMIT_ALGORITHMS, type RateLimitAlgorithm } from "./limits.ts";
import { CAPACITY_RATES_ADVICE, CapacityRatesError, parseCapacityRates } from "./profiles.ts";
import type { WebhookEventType } from "./types.ts";

export const K6_ENV = {
  baseUrl: "ATD_BASE_URL",
  apiKeys: "ATD_API_KEYS",
  /**
   * "1": every runner gets all keys and takes its own slice by its execution segment (lib/contract/execution-segments.ts);
   * set by the k6-operator manifests. `harness run --segments` slices the keys itself and leaves it off.
   */
  keysBySegment: "ATD_KEYS_BY_SEGMENT",
  profile: "ATD_PROFILE",
  duration: "ATD_DURATION",
  requestTimeout: "ATD_REQUEST_TIMEOUT",
  summaryPath: "ATD_SUMMARY_PATH",
  sloFile: "ATD_SLO_FILE",
  trafficFile: "ATD_TRAFFIC_FILE",
  rateWindowSeconds: "ATD_RATE_WINDOW_SECONDS",
  rateAlgorithm: "ATD_RATE_ALGORITHM",
  rateOutsideList: "ATD_RATE_OUTSIDE_LIST",
  /** The capacity scenario's step rates ("500,1000" or "2000-3000/8"); absent: the default steps. */
  capacityRates: "ATD_CAPACITY_RATES",
  /** "1" makes booking calls log the webhook events they must cause (EXPECTATION_MARKER); off keeps the hot path bare. */
  recordExpectations: "ATD_RECORD_EXPECTATIONS",
  /** The control API, for scenarios that drive the clock and the catalogue themselves (scenarios/webhooks.ts). */
  controlUrl: "ATD_CONTROL_URL",
  controlToken: "ATD_CONTROL_TOKEN",
  /**
   * The product types churn changes (JSON, lib/contract/hot-set.ts), so the alternatives scenario works on
   * exactly those: discovered once by the churn extension, before its first change could hide one from a second walk.
   */
  hotSet: "ATD_HOT_SET",
  /**
   * Public-API-only runs (no control API): the run's own API key for competing demand (black-box churn, selling a slot
   * out on purpose). Taken from the end of --keys and never in ATD_API_KEYS, so no traffic spends it.
   */
  harnessKey: "ATD_HARNESS_KEY",
  /**
   * Public-API-only runs: comma-separated indexes in ATD_API_KEYS of the keys the operator enabled alternatives for
   * (--alternatives-keys); the others are taken as keys without the feature. Absent: which keys have it is unknown.
   */
  alternativesKeys: "ATD_ALTERNATIVES_KEYS",
  /**
   * Public-API-only runs: how long (real seconds) the target's reservations hold their seats, as its operator states it
   * (--reservation-hold). Absent: for the booking's whole life (docs/contract-gaps.md, Booking states), so no confirm can be made to fail from
   * outside and the checks that need one are not judged.
   */
  reservationHoldSeconds: "ATD_RESERVATION_HOLD_SECONDS",
  /**
   * A hard cap on this k6 process's HTTP requests per second, all VUs and endpoints together (k6's own `rps` option):
   * the environment's per-key ceiling times the process's keys, set by the harness in shared and production
   * environments (lib/harness/plan/rails.ts). Absent: no cap.
   */
  maxRps: "ATD_MAX_RPS",
  /**
   * --arrival-curve: "<time compression>x<rate multiplier>" (e.g. 24x1); partner-mix follows the fitted arrival curve of
   * the run's traffic model (lib/contract/arrival-curve.ts). Absent: the profile.
   */
  arrivalCurve: "ATD_ARRIVAL_CURVE",
  /**
   * The run's coverage level (COVERAGE_LEVELS), as the harness found it by asking the target: `reference` lets the
   * conformance scenario judge the rules of the reference service's own choices (ConformanceRule.referenceOnly).
   * Absent (a run the harness did not start, e.g. a k6-operator runner): below reference.
   */
  coverageLevel: "ATD_COVERAGE_LEVEL",
} as const;

/**
 * What a run can judge depends on what the target lets the harness do: the public API alone, the required test hooks,
 * or the reference service's optional hooks too (lib/harness/coverage.ts finds it; the README's "Coverage by level").
 */
export const COVERAGE_LEVELS = ["public-api", "required-hooks", "reference"] as const;
export type CoverageLevel = (typeof COVERAGE_LEVELS)[number];

/**
 * The settings a k6 process is started with, typed: the harness encodes them (encodeK6Env), k6 decodes and checks them
 * once at init (decodeK6Env), so neither side writes or parses an ATD_* string by hand. Each field is documented on
 * its variable in K6_ENV; a field left out is a variable not set.
 */
export interface K6Settings {
  baseUrl: string;
  apiKeys: readonly string[];
  keysBySegment?: boolean;
  profile?: string;
  duration?: string;
  requestTimeout?: string;
  summaryPath?: string;
  sloFile?: string;
  trafficFile?: string;
  rateWindowSeconds?: number;
  rateAlgorithm?: RateLimitAlgorithm;
  rateOutsideList?: RateOutsideList;
  capacityRates?: readonly number[];
  recordExpectations?: boolean;
  controlUrl?: string;
  controlToken?: string;
  hotSet?: readonly ControlProductType[];
  harnessKey?: string;
  alternativesKeys?: readonly number[];
  reservationHoldSeconds?: number;
  maxRps?: number;
  arrivalCurve?: { timeCompression: number; rateMultiplier: number };
  coverageLevel?: CoverageLevel;
}

export const RATE_OUTSIDE_LIST = ["unlimited", "finding"] as const;
export type RateOutsideList = (typeof RATE_OUTSIDE_LIST)[number];

/** An ATD_* variable k6 cannot use; its message is the one line the run fails with. */
export class K6EnvError extends Error {
  override name = "K6EnvError";
}

const list = (values: readonly (string | number)[]) => values.map(String).join(",");
const flag = (on: boolean) => (on ? "1" : "0");

/** The ATD_* variables of the settings (K6_ENV's names); a field left out sets none. */
export function encodeK6Env(settings: K6Settings): Record<string, string> {
  const text: { [K in keyof K6Settings]-?: (value: NonNullable<K6Settings[K]>) => string } = {
    baseUrl: String,
    apiKeys: list,
    keysBySegment: flag,
    profile: String,
    duration: String,
    requestTimeout: String,
    summaryPath: String,
    sloFile: String,
    trafficFile: String,
    rateWindowSeconds: String,
    rateAlgorithm: String,
    rateOutsideList: String,
    capacityRates: list,
    recordExpectations: flag,
    controlUrl: String,
    controlToken: String,
    hotSet: (value) => JSON.stringify(value),
    harnessKey: String,
    alternativesKeys: list,
    reservationHoldSeconds: String,
    maxRps: String,
    arrivalCurve: (value) => `${String(value.timeCompression)}x${String(value.rateMultiplier)}`,
    coverageLevel: String,
  };
  const env: Record<string, string> = {};
  for (const key of Object.keys(text) as (keyof K6Settings)[]) {
    const value = settings[key];
    if (value === undefined) continue;
    env[K6_ENV[key]] = (text[key] as (v: typeof value) => string)(value);
  }
  return env;
}

type Env = Readonly<Record<string, string | undefined>>;

const refuse = (why: string): never => {
  throw new K6EnvError(`Failed to configure the run: ${why}`);
};

function text(env: Env, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}

function required(env: Env, name: string, hint: string): string {
  return text(env, name) ?? refuse(`${name} is not set. Please set it to ${hint}.`);
}

function choice<T extends string>(env: Env, name: string, allowed: readonly T[]): T | undefined {
  const value = text(env, name);
  if (value !== undefined && !allowed.includes(value as T)) {
    refuse(`${name}="${value}" is not one of ${allowed.join(", ")}. Please use one of them.`);
  }
  return value as T | undefined;
}

function positiveNumber(env: Env, name: string): number | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    refuse(`${name}="${value}" is not a positive number. Please give seconds, e.g. 60.`);
  return n;
}

function arrivalCurve(env: Env, name: string): K6Settings["arrivalCurve"] {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$/.exec(value);
  const [timeCompression, rateMultiplier] = [Number(match?.[1]), Number(match?.[2])];
  if (!match || timeCompression <= 0 || rateMultiplier <= 0) {
    refuse(`${name}="${value}" is not <time compression>x<rate multiplier>. Please give e.g. 24x1.`);
  }
  return { timeCompression, rateMultiplier };
}

function wholePositive(env: Env, name: string): number | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    refuse(
      `${name}="${value}" is not a whole number of requests per second of at least 1. Please give e.g. 5, or unset it for no cap.`,
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
    refuse(`${name}="${value}" is not a comma-separated list of key indexes. Please give e.g. 0,2.`);
  }
  return indexes;
}

const DURATION = /^(\d+(\.\d+)?(ms|s|m|h))+$/;

function duration(env: Env, name: string): string | undefined {
  const value = text(env, name);
  if (value !== undefined && !DURATION.test(value)) {
    refuse(`${name}="${value}" is not a duration. Please use k6 syntax such as 30s, 5m or 1h30m.`);
  }
  return value;
}

function capacityRates(env: Env, name: string): number[] | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  try {
    return parseCapacityRates(value);
  } catch (error) {
    if (!(error instanceof CapacityRatesError)) throw error;
    return refuse(`${name}="${value}": ${error.reason}. ${CAPACITY_RATES_ADVICE}`);
  }
}

function baseUrl(env: Env): string {
  const url = required(env, K6_ENV.baseUrl, "the API's base URL, e.g. http://127.0.0.1:8080").replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]+/.test(url)) {
    refuse(`${K6_ENV.baseUrl}="${url}" is not an http(s) URL. Please give a URL such as http://127.0.0.1:8080.`);
  }
  return url;
}

function apiKeys(env: Env): string[] {
  const keys = required(env, K6_ENV.apiKeys, "one or more API keys, comma separated")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
  if (keys.length === 0) refuse(`${K6_ENV.apiKeys} holds no key. Please list at least one API key.`);
  return keys;
}

function hotSet(env: Env): ControlProductType[] | undefined {
  const json = text(env, K6_ENV.hotSet);
  if (json === undefined) return undefined;
  try {
    return parseControlProductTypes(JSON.parse(json) as unknown);
  } catch {
    return refuse(`${K6_ENV.hotSet} is not JSON. Please let the churn extension set it, or unset it.`);
  }
}

/** "1" is on, anything else off, absent undefined. */
function switchOf(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value === "1";
}

/** Leaves out the fields whose variable is not set, so a decoded settings object has no undefined field. */
function defined(settings: { [K in keyof K6Settings]: K6Settings[K] | undefined }): K6Settings {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as unknown as K6Settings;
}

/**
 * The settings of k6's environment, each checked: a K6EnvError with a one-line "Failed to configure the run: ..."
 * for the first variable k6 cannot use. Names k6 does not know are ignored; defaults are the reader's (config.ts).
 */
export function decodeK6Env(env: Env): K6Settings {
  const e = K6_ENV;
  return defined({
    baseUrl: baseUrl(env),
    apiKeys: apiKeys(env),
    keysBySegment: switchOf(choice(env, e.keysBySegment, ["0", "1"] as const)),
    profile: text(env, e.profile),
    duration: duration(env, e.duration),
    requestTimeout: duration(env, e.requestTimeout),
    summaryPath: text(env, e.summaryPath),
    sloFile: text(env, e.sloFile),
    trafficFile: text(env, e.trafficFile),
    rateWindowSeconds: positiveNumber(env, e.rateWindowSeconds),
    rateAlgorithm: choice(env, e.rateAlgorithm, RATE_LIMIT_ALGORITHMS),
    rateOutsideList: choice(env, e.rateOutsideList, RATE_OUTSIDE_LIST),
    capacityRates: capacityRates(env, e.capacityRates),
    recordExpectations: switchOf(text(env, e.recordExpectations)),
    controlUrl: text(env, e.controlUrl)?.replace(/\/+$/, ""),
    controlToken: text(env, e.controlToken),
    hotSet: hotSet(env),
    harnessKey: text(env, e.harnessKey),
    alternativesKeys: indexList(env, e.alternativesKeys),
    reservationHoldSeconds: positiveNumber(env, e.reservationHoldSeconds),
    maxRps: wholePositive(env, e.maxRps),
    arrivalCurve: arrivalCurve(env, e.arrivalCurve),
    coverageLevel: choice(env, e.coverageLevel, COVERAGE_LEVELS),
  });
}

/** A failed check logs `<marker>{"check": name, "problem": text}` once per distinct problem per VU. */
export const CHECK_FAILURE_MARKER = "atd-check-failed ";

export interface CheckFailureDetail {
  check: string;
  problem: string;
}

/**
 * An operation that must cause a webhook logs `<marker>{ExpectationRecord}` once, with the time taken in k6 just before
 * the request (the same host clock as the webhook sink's arrival times). The webhook sink joins them with deliveries.
 */
export const EXPECTATION_MARKER = "atd-expect ";

export interface ExpectationRecord {
  type: WebhookEventType;
  /** The booking, product or product type the event is about. */
  resource: string;
  /** Epoch milliseconds when the operation was started. */
  at: number;
  /** Index in ATD_API_KEYS of the partner that must receive it; absent: every registered partner (catalogue events). */
  key?: number;
  /** For booking_status_updated: the status the booking must have in the event. */
  status?: string;
  /**
   * An event the contract allows but does not require (docs/contract-freedoms.md: a booking's create, an availability
   * set to the value it had): it pairs with a message when one arrives, and is not lost when none does.
   */
  optional?: boolean;
}

/**
 * A clock advance a k6 scenario made (POST /__control/clock {advanceSeconds}) logs `<marker>{ClockAdvanceRecord}`:
 * a service may run its webhook retries on that clock (docs/contract-freedoms.md, webhooks-retry-clock), so the
 * webhook sink judges retries with the run's own advances in view.
 */
export const CLOCK_ADVANCE_MARKER = "atd-clock-advance ";

export interface ClockAdvanceRecord {
  /** Epoch ms just before the request was sent and just after its answer: the advance took effect in between. */
  sentAt: number;
  answeredAt: number;
  /** Virtual seconds the clock moved. */
  seconds: number;
}

/**
 * A booking the run's own key (ATD_HARNESS_KEY) created logs `<marker>{"uuid": ...}` while the run records: no webhook
 * is expected of it, but the reservation cleanup must cancel it should the scenario that made it not get to (an
 * iteration cut short at the end of the run, a cancel refused).
 */
export const OWN_BOOKING_MARKER = "atd-own-booking ";

/**
 * A test hook that is not usable (missing, token refused, no answer) ends a k6 scenario: the scenario logs
 * `<marker>{HookFailure}` before it throws, and the harness maps it to exit 2 or 3 with a message naming the hook,
 * by these fields, never by the error's text.
 */
export const HOOK_FAILURE_MARKER = "atd-hook-failed ";

export interface HookFailure {
  /** The name of the hook in TEST_HOOKS. */
  hook: string;
  level: "required" | "reference";
  method: string;
  /** The path called, query left out. */
  path: string;
  /** The HTTP status; 0 when the control listener gave no answer. */
  status: number;
  /** `error.code` of the answer's error envelope, when it had one. */
  code?: string;
  /** What the scenario was doing ("set up the alternatives scenario"). */
  during: string;
}

/** A check may log what it observed, `<marker>{"check": name, "observed": text}`, once per check per VU. */
export const CHECK_OBSERVED_MARKER = "atd-check-observed ";

export interface CheckObservation {
  check: string;
  observed: string;
}

/**
 * A check the scenario could not judge, and why: `<marker>{"check": name, "reason": text, "byDesign"?: true}`. The
 * harness reports it as not judged, never as passed: by design (no run at this coverage level, or of a service that
 * made this choice the contract leaves open, can judge it) it is listed without failing the run; otherwise (the run
 * could have judged it and did not: a 429, nothing found to judge it on) it is a skip, which fails the run unless
 * --allow-skips.
 */
export const CHECK_NOT_JUDGED_MARKER = "atd-check-not-judged ";

export interface CheckNotJudged {
  check: string;
  reason: string;
  byDesign?: true;
}

/**
 * A finding is reported, not judged: behaviour the spec leaves open (e.g. the rate-limit algorithm).
 * `<marker>{"rule": name, "finding": text}`.
 */
export const FINDING_MARKER = "atd-finding ";

export interface Finding {
  rule: string;
  finding: string;
}

/**
 * The alternatives scenario logs one `<marker>{AlternativesObservation}` per 422 it judged against ground truth; the
 * harness computes precision, recall and qty exactness from them and sets aside discrepancies that a churn change
 * (churn.jsonl) could explain, so data flows one way: scenario -> log -> harness.
 */
export const ALTERNATIVES_OBSERVATION_MARKER = "atd-alt ";

/**
 * Without test hooks, the alternatives scenario logs `<marker>{"reason": text}` once when no confirm can be made to
 * fail from outside (no stated reservation hold, no key with the feature): the harness reports its checks as not
 * judged.
 */
export const ALTERNATIVES_NOT_PROVOKABLE_MARKER = "atd-alt-not-provokable ";

/**
 * The alternatives scenario, with test hooks or without, logs `<marker>{"iteration": n}` once per VU when iteration n
 * finds no inventory block left for its case (lib/k6/alternatives/plan.ts: each iteration owns dates of one product
 * type, and a case's types run out of dates): it shapes nothing, and the harness says from which iteration on.
 */
export const ALTERNATIVES_PLAN_EXHAUSTED_MARKER = "atd-alt-plan-exhausted ";

export interface AlternativesObservation {
  productTypeUuid: string;
  /** The failed booking's date (and timeslot). */
  date: string;
  timeslot?: string;
  /**
   * "422": judged against ground truth; "confirmed-after-sell-out": the confirm of a sold-out slot did not answer 422
   * (a fault unless churn reopened the slot meanwhile).
   */
  kind: "422" | "confirmed-after-sell-out";
  /** Epoch ms before the scenario shaped the inventory, before the confirm, and after the ground truth came back. */
  shapedAt: number;
  confirmAt: number;
  truthAt: number;
  /** Whether the 422 of the key with the feature carried alternatives. */
  carried?: boolean;
  /** confirmed-after-sell-out: the statuses of the confirms with and without the feature. */
  status?: number;
  statusWithout?: number;
  /** Slots ("date" or "date@HH:MM") the 422 suggested, and those the oracle expects from the ground truth. */
  suggested: string[];
  expected: string[];
  /** Suggested slots the oracle also expects whose qty differs: [slot, suggested qty, true qty]. */
  qtyMismatches: [string, number, number][];
  /** Slots whose qty was compared (suggested and expected). */
  qtyCompared: number;
  /** What judged it: the inventory hook (absent: the same) or the public API alone (calendar and single-date reads). */
  judgedBy?: "ground-truth" | "public-api";
  /**
   * public-api: availability within the window differed between the calendar reads just before and just after the
   * 422, or a suggestion's single-date answer right after differed from the second read: its discrepancies are
   * explained, as churn-explained ones are.
   */
  changedBetweenReads?: boolean;
}

/**
 * The invariants scenario logs every operation it invokes as `<marker>{OperationRecord}` (Jepsen-style history); the
 * harness checks the history after the run (lib/harness/invariants).
 */
export const OPERATION_MARKER = "atd-op ";

export interface OperationRecord {
  /** The flow the operation belongs to (names the invariant a failure counts against). */
  flow: string;
  /** create | confirm | cancel | read | list | capacity | truth */
  op: string;
  /** The booking (after create), or the slot key for capacity/truth. */
  booking?: string;
  slot: string;
  qty?: number;
  /** Index of the API key in ATD_API_KEYS. */
  key: number;
  invokedAt: number;
  completedAt: number;
  /** HTTP status; 0 = no answer (timeout): indeterminate. */
  status: number;
  code?: string;
  /** Booking status and cancellation request status read or returned. */
  bookingStatus?: string;
  cancellation?: string | null;
  /** capacity: the supply set; truth: {supply, held}; list: whether the booking was listed. */
  value?: number;
  held?: number;
  listed?: boolean;
  /** Operations invoked together (a race) share a group id. */
  group?: string;
}
