/**
 * The rails of a named environment (environment-rails.ts), checked before anything starts: which scenarios it may
 * run, what production forbids, the per-key ceiling and whether the plan stays under it. Every refusal is exit 2 with
 * what to change. The same ceiling then holds at run time as k6's own `rps` option (k6RpsCap), set per k6 process by
 * lib/harness/run/start-extensions.ts.
 */
import { partitionKeys as keysOfSegments } from "../../contract/execution-segments.ts";
import { RATE_LIMIT } from "../../contract/limits.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { traitsOf } from "../scenario-traits.ts";
import type { EnvironmentRails } from "./environment-rails.ts";

/** The command-line flag that lets booking scenarios run in one production environment. */
export const ALLOW_PRODUCTION_BOOKINGS_FLAG = "--allow-production-bookings";

/** Production without a ceiling of its own: half of each key's allowance, the rest left to the partner's real traffic. */
export const PRODUCTION_DEFAULT_SHARE = 0.5;
/** A shared environment without one: 80% of the allowance, so the run's own traffic never meets a 429. */
export const SHARED_DEFAULT_SHARE = 0.8;

export interface RailsRequest {
  rails: EnvironmentRails;
  /** The scenarios the run would start. */
  scenarios: readonly string[];
  /** --allow-production-bookings <environment>; undefined: not given. */
  allowProductionBookings?: string | undefined;
  /** Whether the run would have inventory churn (churnOn of lib/harness/extensions.ts) and network chaos (--chaos). */
  churn: boolean;
  chaos: boolean;
  /** --target: anything but url in production is noted, not refused. */
  target?: "embedded" | "container" | "compose" | "url";
}

export type CeilingSource = "environment" | "production default" | "shared default";

/** What the rails decided for the run: the ceiling k6 holds to, and what the plan should say about it. */
export interface PlannedRails {
  rails: EnvironmentRails;
  /** Requests per minute per key to the rate-limited endpoints; undefined: no ceiling. */
  ceilingPerKeyPerMinute: number | undefined;
  ceilingSource: CeilingSource | undefined;
  /** Scenarios the ceiling does not hold (their own 429s are the point, in a shared environment). */
  exempt: string[];
  /** Booking scenarios run in production (allowed by the flag): their bookings are cancelled and listed after k6. */
  productionBookings: boolean;
  /** Lines for the plan: defaults taken, odd but allowed choices. */
  notes: string[];
}

function refuse(message: string): never {
  throw new HarnessError(message, EXIT.usage);
}

function nameOf(rails: EnvironmentRails): string {
  return `environment ${rails.name}`;
}

/**
 * The ceiling an environment holds the run to: its own, else the default of a production (half the allowance) or
 * shared (80%) environment, else none. Pure and total: refusals are checkRails's.
 */
export function effectiveCeiling(rails: EnvironmentRails): {
  ceilingPerKeyPerMinute: number | undefined;
  source: CeilingSource | undefined;
} {
  if (rails.ceilingPerKeyPerMinute !== undefined) {
    return { ceilingPerKeyPerMinute: rails.ceilingPerKeyPerMinute, source: "environment" };
  }
  if (rails.production) {
    return { ceilingPerKeyPerMinute: RATE_LIMIT.limit * PRODUCTION_DEFAULT_SHARE, source: "production default" };
  }
  if (rails.shared) {
    return { ceilingPerKeyPerMinute: RATE_LIMIT.limit * SHARED_DEFAULT_SHARE, source: "shared default" };
  }
  return { ceilingPerKeyPerMinute: undefined, source: undefined };
}

/** The scenarios a ceiling does not hold: in a shared (not production) environment, those about throttling. */
export function exemptScenarios(rails: EnvironmentRails, scenarios: readonly string[]): string[] {
  if (rails.production) return [];
  return scenarios.filter((s) => traitsOf(s).aboutThrottling === true);
}

/**
 * Checks the run against its environment's rails before anything starts and returns what they decided. Refuses
 * (HarnessError, exit 2) a scenario the environment does not list; in production a scenario about throttling,
 * churn, chaos, a booking scenario without --allow-production-bookings <name>, and a ceiling at or above the
 * allowance; in a shared environment a ceiling above the allowance.
 */
export function checkRails(request: RailsRequest): PlannedRails {
  const { rails, scenarios } = request;
  const env = nameOf(rails);
  const notes: string[] = [];

  if (rails.allowedScenarios !== undefined) {
    const allowed = rails.allowedScenarios;
    const refused = scenarios.filter((s) => !allowed.includes(s));
    if (refused.length > 0) {
      refuse(
        `Failed to plan the run: ${env} allows only ${allowed.length ? allowed.join(", ") : "no scenario"}, not ${refused.join(", ")}. Please choose among them, or add the scenario to allowedScenarios of ${env} in the run file.`,
      );
    }
  }

  const { ceilingPerKeyPerMinute, source } = effectiveCeiling(rails);
  const productionBookings = rails.production ? checkProductionRails(request, ceilingPerKeyPerMinute, notes) : false;
  if (
    !rails.production &&
    rails.shared &&
    ceilingPerKeyPerMinute !== undefined &&
    ceilingPerKeyPerMinute > RATE_LIMIT.limit &&
    scenarios.some((s) => traitsOf(s).aboutThrottling !== true)
  ) {
    refuse(
      `Failed to plan the run: the ceiling of ${formatRate(ceilingPerKeyPerMinute)} requests/min per key of ${env} is above the allowance of ${String(RATE_LIMIT.limit)}, so the run's own traffic could meet 429s, which a shared environment must not see. Please set a ceiling of at most ${String(RATE_LIMIT.limit)} (the default is ${formatRate(RATE_LIMIT.limit * SHARED_DEFAULT_SHARE)}).`,
    );
  }

  if (source === "production default") {
    notes.push(
      `${env} sets no ceiling: production's default holds, half the allowance, ${formatRate(ceilingPerKeyPerMinute ?? 0)} requests/min per key`,
    );
  } else if (source === "shared default") {
    notes.push(
      `${env} sets no ceiling: a shared environment's default holds, 80% of the allowance, ${formatRate(ceilingPerKeyPerMinute ?? 0)} requests/min per key`,
    );
  }
  const exempt = ceilingPerKeyPerMinute === undefined ? [] : exemptScenarios(rails, scenarios);
  if (exempt.length > 0) {
    notes.push(
      `${exempt.join(", ")} ${exempt.length > 1 ? "are" : "is"} exempt from the ceiling: ${exempt.length > 1 ? "their" : "its"} own 429s are the point, on keys of ${exempt.length > 1 ? "their" : "its"} own`,
    );
  }
  return { rails, ceilingPerKeyPerMinute, ceilingSource: source, exempt, productionBookings, notes };
}

/**
 * Production's rails: no scenario about throttling, no churn, no chaos, booking scenarios only with
 * --allow-production-bookings <name>, a ceiling below the allowance. Returns whether the run makes real bookings.
 */
function checkProductionRails(
  request: RailsRequest,
  ceilingPerKeyPerMinute: number | undefined,
  notes: string[],
): boolean {
  const { rails, scenarios } = request;
  const env = nameOf(rails);
  const throttling = scenarios.filter((s) => traitsOf(s).aboutThrottling === true);
  if (throttling.length > 0) {
    refuse(
      `Failed to plan the run: ${throttling.join(", ")} spends keys' allowances until the service answers 429 on purpose, which production's partners would feel, so it never runs in ${env}. Please run it in a test or shared environment.`,
    );
  }
  if (request.churn) {
    refuse(
      `Failed to plan the run: churn takes real seats from production's inventory (reservations held and cancelled on the hot set), so it never runs in ${env}. Please turn it off (--no-churn) or run in another environment.`,
    );
  }
  if (request.chaos) {
    refuse(
      `Failed to plan the run: network chaos breaks the connections between the harness and the service on purpose, which in production would look like an outage to be investigated, so it never runs in ${env}. Please drop --chaos or run in another environment.`,
    );
  }
  const booking = scenarios.filter((s) => traitsOf(s).readOnly !== true);
  if (booking.length > 0) {
    if (request.allowProductionBookings !== rails.name) {
      refuse(
        `Failed to plan the run: ${booking.join(", ")} ${booking.length > 1 ? "make" : "makes"} real bookings, and ${env} is production. Please run read-only scenarios only, or allow the bookings with ${ALLOW_PRODUCTION_BOOKINGS_FLAG} ${rails.name} (they are cancelled and listed at the end).`,
      );
    }
    notes.push(
      `${booking.join(", ")} will make real bookings in ${env} (${ALLOW_PRODUCTION_BOOKINGS_FLAG} ${rails.name}): each is cancelled after k6 where it still can be and listed in the report`,
    );
  }
  if (ceilingPerKeyPerMinute !== undefined && ceilingPerKeyPerMinute >= RATE_LIMIT.limit) {
    refuse(
      `Failed to plan the run: the ceiling of ${formatRate(ceilingPerKeyPerMinute)} requests/min per key of ${env} is not below the allowance of ${String(RATE_LIMIT.limit)}, and production's partners share nothing else. Please set a ceiling below ${String(RATE_LIMIT.limit)} (the default is ${formatRate(RATE_LIMIT.limit * PRODUCTION_DEFAULT_SHARE)}).`,
    );
  }
  if (request.target !== undefined && request.target !== "url") {
    notes.push(`${env} is production but the target is ${request.target}, not url: the rails hold all the same`);
  }
  return booking.length > 0;
}

/** The plan's peak load on one set of keys (the shape of request-estimate.ts's KeyPool). */
export interface KeyPoolPeak {
  /** The scenarios sharing those keys, side by side. */
  scenarios: readonly string[];
  /** Requests per minute per key to the rate-limited endpoints at the plan's peak. */
  peakPerMinute: number;
  /** The keys of the pool; unknown: the cap's floor is not checked. */
  keys?: number;
}

/**
 * Refuses (exit 2) a plan whose estimated peak per key to the rate-limited endpoints is above the ceiling. Pools made
 * only of exempt scenarios are not held to it.
 */
export function checkBudget(planned: PlannedRails, pools: readonly KeyPoolPeak[]): void {
  const ceiling = planned.ceilingPerKeyPerMinute;
  if (ceiling === undefined) return;
  for (const pool of pools) {
    const held = pool.scenarios.filter((s) => !planned.exempt.includes(s));
    if (held.length === 0) continue;
    // k6's rps is whole requests per second: below one per second per process, k6 cannot hold the ceiling.
    if (pool.keys !== undefined && (ceiling * pool.keys) / (60 * held.length) < 1) {
      refuse(
        `Failed to plan the run: a ceiling of ${formatRate(ceiling)} requests/min per key over ${String(pool.keys)} key${pool.keys === 1 ? "" : "s"} shared by ${held.join(" + ")} is below one request per second per k6 process, the least k6 can hold a run to. Please add keys (--keys), run fewer scenarios at once, or raise the ceiling of ${nameOf(planned.rails)}.`,
      );
    }
    if (pool.peakPerMinute <= ceiling) continue;
    refuse(
      `Failed to plan the run: ${held.join(" + ")} would send about ${formatRate(pool.peakPerMinute)} requests/min per key to the rate-limited endpoints at its peak, above the ceiling of ${formatRate(ceiling)} of ${nameOf(planned.rails)}. Please lower the rate (--profile, a shorter ramp, a --traffic model with fewer calls), add keys (--keys), or raise the ceiling.`,
    );
  }
}

/**
 * k6's `rps` option for one k6 process: k6 lets all of that process's VUs together start at most this many HTTP
 * requests per second (one token bucket, burst 1; lib/netext/httpext/request.go of grafana/k6), whatever the
 * endpoint, setup() included. The ceiling is per key and minute; the process spends `keys` keys, which
 * `processesSharingKeys` k6 processes spend side by side (scenarios sharing the run's key pool). At least 1: k6's
 * `rps` is whole requests per second and 0 would mean no limit.
 */
export function k6RpsCap(ceilingPerKeyPerMinute: number, keys: number, processesSharingKeys = 1): number {
  const perSecond = (ceilingPerKeyPerMinute * keys) / (60 * Math.max(1, processesSharingKeys));
  return Math.max(1, Math.floor(perSecond + 1e-9));
}

/**
 * k6's `rps` for each scenario's k6 processes under the environment's ceiling; a scenario left out has no cap (no
 * ceiling, or exempt). Scenarios handed the same key list (scenario-traits.ts partitionKeys) spend it side by side,
 * so they split its cap. With --segments each process spends one slice of its scenario's keys
 * (lib/contract/execution-segments.ts); all of a scenario's processes get one setting, so the smallest slice sets it.
 */
export function k6RpsCaps(
  rails: EnvironmentRails,
  keysByScenario: ReadonlyMap<string, readonly string[]>,
  segments = 1,
): Record<string, number> {
  const { ceilingPerKeyPerMinute } = effectiveCeiling(rails);
  if (ceilingPerKeyPerMinute === undefined) return {};
  const scenarios = [...keysByScenario.keys()];
  const exempt = exemptScenarios(rails, scenarios);
  const held = scenarios.filter((s) => !exempt.includes(s));
  const caps: Record<string, number> = {};
  for (const scenario of held) {
    const keys = keysByScenario.get(scenario) ?? [];
    const sharing = held.filter((s) => keysByScenario.get(s) === keys).length;
    const slice = Math.min(...keysOfSegments(keys, Math.max(1, segments)).map((k) => k.length));
    caps[scenario] = k6RpsCap(ceilingPerKeyPerMinute, slice, sharing);
  }
  return caps;
}

/** What summary.json and the verdict's header say about the environment the run was held to. */
export interface EnvironmentReport {
  name: string;
  production: boolean;
  shared: boolean;
  /** The ceiling that held, requests/min per key; absent: none. */
  ceilingPerKeyPerMinute?: number;
  ceilingSource?: CeilingSource;
  /** k6's `rps` per scenario (each of its k6 processes); absent for a scenario without a cap. */
  k6Rps?: Record<string, number>;
  exempt?: string[];
}

export function environmentReport(
  rails: EnvironmentRails,
  scenarios: readonly string[],
  k6Rps: Record<string, number>,
): EnvironmentReport {
  const { ceilingPerKeyPerMinute, source } = effectiveCeiling(rails);
  const exempt = ceilingPerKeyPerMinute === undefined ? [] : exemptScenarios(rails, scenarios);
  return {
    name: rails.name,
    production: rails.production,
    shared: rails.shared,
    ...(ceilingPerKeyPerMinute === undefined ? {} : { ceilingPerKeyPerMinute }),
    ...(source === undefined ? {} : { ceilingSource: source }),
    ...(Object.keys(k6Rps).length ? { k6Rps } : {}),
    ...(exempt.length ? { exempt } : {}),
  };
}

/** One line for the verdict's header: the environment, its kind and the ceiling that held. */
export function environmentLine(report: EnvironmentReport): string {
  const kind = [report.production ? "production" : "", report.shared ? "shared" : ""].filter(Boolean).join(", ");
  const ceiling =
    report.ceilingPerKeyPerMinute === undefined
      ? "no ceiling"
      : `ceiling ${formatRate(report.ceilingPerKeyPerMinute)} requests/min per key${report.ceilingSource === "environment" ? "" : ` (${report.ceilingSource ?? ""})`}`;
  const caps = Object.entries(report.k6Rps ?? {})
    .map(([scenario, rps]) => `${scenario} ${String(rps)}/s`)
    .join(", ");
  return `environment ${report.name}${kind ? ` (${kind})` : ""}: ${ceiling}${caps ? `, k6 rps ${caps}` : ""}`;
}

function formatRate(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}
