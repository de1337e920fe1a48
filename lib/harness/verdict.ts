/**
 * Turns what k6 left (its end-of-test summary and its JSON log) into the run's verdict: one entry per check and per
 * threshold, each with the observed value and, for failed checks, the problems the scenario reported.
 */
import {
  CHECK_FAILURE_MARKER,
  CHECK_NOT_JUDGED_MARKER,
  CHECK_OBSERVED_MARKER,
  FINDING_MARKER,
  isRecord,
  type CheckFailureDetail,
  type CheckNotJudged,
  type CheckObservation,
  type Finding,
} from "../contract/index.ts";

export type Outcome = "pass" | "fail";

export interface CheckVerdict {
  name: string;
  verdict: Outcome;
  passes: number;
  fails: number;
  /** What was wrong, as the scenario described it (distinct problems, capped). */
  problems: string[];
  /** What the check saw, when the scenario logged it. */
  observed?: string;
  /** Network chaos runs: the faults in effect when it failed (set on failed items only; lib/harness/chaos). */
  activeFaults?: string[];
}

export interface ThresholdVerdict {
  metric: string;
  expression: string;
  verdict: Outcome;
  /** The value the expression was evaluated on, when it can be read from the summary. */
  observed: number | undefined;
  /** Network chaos runs: the faults in effect when its samples went wrong (failed items only). */
  activeFaults?: string[];
}

export interface ScenarioVerdict {
  scenario: string;
  verdict: Outcome;
  checks: CheckVerdict[];
  thresholds: ThresholdVerdict[];
  /** Reasons the scenario failed besides checks and thresholds (k6 crashed, target died, timeout...). */
  errors: string[];
  /** Reported behaviour the spec leaves open; never fails the run. */
  findings: Finding[];
  /** Checks the scenario could not judge at the run's level, with why (skips of kind "check"); absent: none. */
  notJudged?: CheckNotJudged[];
  metrics: { requests: number; iterations: number; droppedIterations: number; throttles: number };
  /** Per endpoint tag: requests and latency, from the per-endpoint sub-metrics the SLO thresholds create. */
  endpoints: Record<string, EndpointFigures>;
}

export interface EndpointFigures {
  requests: number;
  /** Share of the scenario's tagged requests. */
  share: number;
  p95Ms: number | undefined;
  p99Ms: number | undefined;
}

const ENDPOINT_SUBMETRIC = /^http_req_duration\{endpoint:(\w+)\}$/;

function endpointFigures(metrics: Record<string, unknown>): Record<string, EndpointFigures> {
  const figures: Record<string, EndpointFigures> = {};
  for (const [name, metric] of Object.entries(metrics)) {
    const endpoint = ENDPOINT_SUBMETRIC.exec(name)?.[1];
    if (!endpoint || !isRecord(metric) || !isRecord(metric.values)) continue;
    const v = metric.values;
    const num = (x: unknown) => (typeof x === "number" ? x : undefined);
    figures[endpoint] = { requests: num(v.count) ?? 0, share: 0, p95Ms: num(v["p(95)"]), p99Ms: num(v["p(99)"]) };
  }
  const total = Object.values(figures).reduce((sum, f) => sum + f.requests, 0);
  for (const f of Object.values(figures)) f.share = total ? f.requests / total : 0;
  return figures;
}

const MAX_PROBLEMS_PER_CHECK = 10;

/** The JSON payloads of the k6 log lines (one JSON object per line) whose message starts with the marker. */
export function markedPayloads(log: string, marker: string): Record<string, unknown>[] {
  const payloads: Record<string, unknown>[] = [];
  for (const line of log.split("\n")) {
    if (!line.includes(marker.trim())) continue;
    try {
      const entry = JSON.parse(line) as unknown;
      if (!isRecord(entry) || typeof entry.msg !== "string" || !entry.msg.startsWith(marker)) continue;
      const payload = JSON.parse(entry.msg.slice(marker.length)) as unknown;
      if (isRecord(payload)) payloads.push(payload);
    } catch {
      // not a JSON log line, or a marker with a broken payload
    }
  }
  return payloads;
}

/** Reads the check-failure lines out of k6's JSON log. */
export function parseCheckFailures(log: string): Map<string, string[]> {
  const byCheck = new Map<string, string[]>();
  for (const detail of markedPayloads(log, CHECK_FAILURE_MARKER) as Partial<CheckFailureDetail>[]) {
    if (typeof detail.check !== "string" || typeof detail.problem !== "string") continue;
    const problems = byCheck.get(detail.check) ?? [];
    if (!problems.includes(detail.problem) && problems.length < MAX_PROBLEMS_PER_CHECK) problems.push(detail.problem);
    byCheck.set(detail.check, problems);
  }
  return byCheck;
}

/** Errors k6 logged at level error (script exceptions, bad options) that explain a run that did not complete. */
export function parseK6Errors(log: string): string[] {
  const errors: string[] = [];
  for (const line of log.split("\n")) {
    if (!line.includes('"level":"error"')) continue;
    try {
      const entry = JSON.parse(line) as unknown;
      if (isRecord(entry) && typeof entry.msg === "string" && !entry.msg.includes("have been crossed")) {
        errors.push(entry.msg);
      }
    } catch {
      // not a JSON log line
    }
  }
  return errors;
}

function collectChecks(group: unknown, into: { name: string; passes: number; fails: number }[]): void {
  if (!isRecord(group)) return;
  if (Array.isArray(group.checks)) {
    for (const c of group.checks) {
      if (isRecord(c) && typeof c.name === "string") {
        into.push({ name: c.name, passes: Number(c.passes) || 0, fails: Number(c.fails) || 0 });
      }
    }
  }
  if (Array.isArray(group.groups)) for (const g of group.groups) collectChecks(g, into);
}

/** The statistic a threshold expression looks at: "p(95)<300" -> "p(95)", "rate>=1" -> "rate". */
export function thresholdStatistic(expression: string): string {
  return /^\s*([a-z]+(\(\d+(\.\d+)?\))?)/i.exec(expression)?.[1] ?? expression;
}

function counterValue(metrics: Record<string, unknown>, name: string): number {
  const metric = metrics[name];
  return isRecord(metric) && isRecord(metric.values) ? Number(metric.values.count) || 0 : 0;
}

function parseObservations(log: string): Map<string, string> {
  const observed = new Map<string, string>();
  for (const o of markedPayloads(log, CHECK_OBSERVED_MARKER) as Partial<CheckObservation>[]) {
    if (typeof o.check === "string" && typeof o.observed === "string" && !observed.has(o.check)) {
      observed.set(o.check, o.observed);
    }
  }
  return observed;
}

export function parseFindings(log: string): Finding[] {
  const findings: Finding[] = [];
  for (const f of markedPayloads(log, FINDING_MARKER) as Partial<Finding>[]) {
    if (typeof f.rule !== "string" || typeof f.finding !== "string") continue;
    if (!findings.some((known) => known.rule === f.rule && known.finding === f.finding)) {
      findings.push({ rule: f.rule, finding: f.finding });
    }
  }
  return findings;
}

/** The checks a scenario logged as not judged, once each. */
export function parseNotJudged(log: string): CheckNotJudged[] {
  const found = new Map<string, CheckNotJudged>();
  for (const n of markedPayloads(log, CHECK_NOT_JUDGED_MARKER) as Partial<CheckNotJudged>[]) {
    if (typeof n.check === "string" && typeof n.reason === "string" && !found.has(n.check)) {
      found.set(n.check, { check: n.check, reason: n.reason, ...(n.byDesign === true ? { byDesign: true } : {}) });
    }
  }
  return [...found.values()];
}

export function scenarioVerdict(
  scenario: string,
  summary: unknown,
  log: string,
  errors: readonly string[],
): ScenarioVerdict {
  const problems = parseCheckFailures(log);
  const observations = parseObservations(log);
  const metrics = isRecord(summary) && isRecord(summary.metrics) ? summary.metrics : {};
  const rawChecks: { name: string; passes: number; fails: number }[] = [];
  if (isRecord(summary)) collectChecks(summary.root_group, rawChecks);

  const checks: CheckVerdict[] = rawChecks.map((c) => {
    const observed = observations.get(c.name);
    return {
      ...c,
      verdict: c.fails === 0 ? "pass" : "fail",
      problems: problems.get(c.name) ?? [],
      ...(observed === undefined ? {} : { observed }),
    };
  });

  const thresholds: ThresholdVerdict[] = [];
  for (const [metric, value] of Object.entries(metrics)) {
    if (!isRecord(value) || !isRecord(value.thresholds)) continue;
    for (const [expression, result] of Object.entries(value.thresholds)) {
      const observed = isRecord(value.values) ? value.values[thresholdStatistic(expression)] : undefined;
      thresholds.push({
        metric,
        expression,
        verdict: isRecord(result) && result.ok === true ? "pass" : "fail",
        observed: typeof observed === "number" ? observed : undefined,
      });
    }
  }

  const notJudged = parseNotJudged(log);
  const allErrors = [...errors];
  if (!isRecord(summary)) allErrors.push("k6 left no end-of-test summary");
  const failed =
    allErrors.length > 0 || checks.some((c) => c.verdict === "fail") || thresholds.some((t) => t.verdict === "fail");
  return {
    scenario,
    verdict: failed ? "fail" : "pass",
    checks,
    thresholds,
    errors: allErrors,
    findings: parseFindings(log),
    ...(notJudged.length ? { notJudged } : {}),
    metrics: {
      requests: counterValue(metrics, "http_reqs"),
      iterations: counterValue(metrics, "iterations"),
      droppedIterations: counterValue(metrics, "dropped_iterations"),
      throttles: counterValue(metrics, "atd_throttles"),
    },
    endpoints: endpointFigures(metrics),
  };
}
