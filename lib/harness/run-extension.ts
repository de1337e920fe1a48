/**
 * A run extension is whatever runs beside k6 for the length of a run and is judged with it: the webhook sink, the
 * inventory churn driver, network chaos, the metrics scraper. The run starts every extension after the target is up
 * and before k6, and finishes them after k6, in reverse order; each returns its own part of the verdict.
 */
import type { K6Settings } from "../contract/index.ts";
import type { CoverageLevel, NotJudged } from "./coverage.ts";
import type { EnvironmentRails } from "./plan/environment-rails.ts";
import type { StartedTarget } from "./targets/started-target.ts";
import type { CheckVerdict, Outcome, ThresholdVerdict } from "./verdict.ts";

export interface RunContext {
  runId: string;
  runDir: string;
  target: StartedTarget;
  /** The API keys the scenarios spread over. Never written to reports. */
  keys: readonly string[];
  scenarios: readonly string[];
  /** Seed of the run (churn schedules and the like derive from it). */
  seed: number;
  say: (line: string) => void;
  /** What the target lets the harness do (coverage.ts): public API only, required hooks, reference extensions. */
  level: CoverageLevel;
  /**
   * Public API only: the run's own key for competing demand (black-box churn, selling a slot out), the last of --keys
   * and never in `keys`. Undefined with a control API.
   */
  harnessKey: string | undefined;
  /** Public API only: what the operator states about the target, since no hook can tell (--alternatives-keys...). */
  publicApi: PublicApiFacts;
  /** The run file's environment and its rails (production, shared...); undefined: none. */
  environment?: EnvironmentRails;
}

export interface PublicApiFacts {
  /** Indexes in `keys` of the keys with the alternatives feature (--alternatives-keys); undefined: unknown. */
  alternativesKeys: number[] | undefined;
  /** --reservation-hold: seconds a reservation holds its seats; undefined: for the booking's whole life. */
  reservationHoldSeconds: number | undefined;
  /** --time-scale: how much faster than real time the target's clock runs (no clock hook to read it); default 1. */
  timeScale: number;
}

/** What k6 left for each scenario, for extensions that read it (e.g. expectations logged by scenarios). */
export interface K6Outputs {
  /** k6's JSON log per scenario. */
  logs: ReadonlyMap<string, string>;
  startedAt: number;
  finishedAt: number;
}

export interface ExtensionStart {
  /** Extra settings for every k6 process of the run. */
  k6Settings?: Partial<K6Settings>;
  /** The base URL k6 should use instead of the target's (a proxy put in front of it). */
  apiUrl?: string;
}

export interface ExtensionVerdict {
  name: string;
  verdict: Outcome;
  checks: CheckVerdict[];
  thresholds: ThresholdVerdict[];
  /** Figures worth reporting (counts, percentiles), JSON-serialisable. */
  figures: Record<string, unknown>;
  /** Observations that are reported but do not fail the run (e.g. behaviour the spec leaves open). */
  findings: string[];
  errors: string[];
  /** Checks that could not be judged at the run's level (or in its time): reported as skipped, never as passed. */
  notJudged?: NotJudged[];
}

export interface RunExtension {
  readonly name: string;
  /** It drives the test-only control API: skipped, with a SKIP line, on a target without one. */
  readonly needsControl?: boolean;
  /** It has a job only on a target without a control API: not started (and not reported) on one with it. */
  readonly onlyWithoutControl?: boolean;
  /** Public API only: it needs the run's own key for competing demand (RunContext.harnessKey). */
  readonly needsHarnessKey?: boolean;
  start(ctx: RunContext): Promise<ExtensionStart>;
  finish(ctx: RunContext, k6: K6Outputs): Promise<ExtensionVerdict>;
  /** Releases whatever start() took, also when the run fails half-way; safe to call more than once. */
  stop(): Promise<void>;
}

/** Builds an extension verdict whose outcome follows from its checks, thresholds and errors. */
export function extensionVerdict(
  name: string,
  parts: Partial<Omit<ExtensionVerdict, "name" | "verdict">>,
): ExtensionVerdict {
  const checks = parts.checks ?? [];
  const thresholds = parts.thresholds ?? [];
  const errors = parts.errors ?? [];
  const failed =
    errors.length > 0 || checks.some((c) => c.verdict === "fail") || thresholds.some((t) => t.verdict === "fail");
  return {
    name,
    verdict: failed ? "fail" : "pass",
    checks,
    thresholds,
    figures: parts.figures ?? {},
    findings: parts.findings ?? [],
    errors,
    ...(parts.notJudged?.length ? { notJudged: parts.notJudged } : {}),
  };
}
