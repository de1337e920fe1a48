/**
 * The run's reports in reports/<run-id>/: summary.json (run metadata and every check and threshold with its observed
 * value and verdict) and the short verdict table printed at the end. API keys and tokens never get here.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { CoverageLevel } from "../coverage.ts";
import type { ExitCode } from "../exit-codes.ts";
import { formatObserved } from "./format-observed.ts";
import type { ExtensionVerdict } from "../run-extension.ts";
import type { CheckVerdict, Outcome, ScenarioVerdict, ThresholdVerdict } from "../verdict.ts";
import { EXTENSION_REPORTS } from "../extension-reports.ts";
import { environmentLine, type EnvironmentReport } from "../plan/rails.ts";

export interface RunSummary {
  run: {
    id: string;
    startedAt: string;
    finishedAt: string;
    durationSeconds: number;
    /** cpus: the service's CPU budget in cores (--service-cpus), when it had one. */
    target: { kind: string; apiUrl: string | undefined; cpus?: number };
    profile: string;
    duration: string | undefined;
    scenarios: string[];
    k6: string | undefined;
    node: string;
    /** What the target let the harness do (lib/harness/coverage.ts); absent when the target never started. */
    level?: CoverageLevel;
    /** What a release comparison must find equal (lib/harness/compare/); absent in runs of older versions. */
    inputs?: RunInputs;
    /** The run file's environment the run was held to (lib/harness/plan/rails.ts); absent: no rails. */
    environment?: EnvironmentReport;
    /**
     * Files of the run directory in which a secret (API key, control token, webhook secret) was found and replaced by
     * its fingerprint after the run (lib/harness/reports/redact-secrets.ts): what the target or an operator's command
     * wrote there. Absent: none held one.
     */
    redacted?: { file: string; count: number }[];
    /**
     * Present when SIGINT (Ctrl-C) or SIGTERM ended the run: the signal and the phase it came in. The verdicts are
     * then only what the run had judged by then, and the exit code is 130 or 143 whatever they say.
     */
    interrupted?: RunInterruption;
  };
  verdict: Outcome;
  exitCode: ExitCode;
  /** Why the run as a whole failed, apart from its scenarios' verdicts (target did not start, interrupted...). */
  errors: string[];
  scenarios: ScenarioVerdict[];
  /**
   * What was asked for and not run or not judged, and why: a scenario or extension (e.g. no control API on a url
   * target) or a check the run could have judged and did not (these fail the run unless --allow-skips), and a check no
   * run at this coverage level, or of a service that made this choice of the contract's, can judge: kind "by-design",
   * listed and never a failure.
   */
  skipped?: SkippedEntry[];
  /** The verdicts of what ran beside k6 (webhook sink, churn, chaos...). */
  extensions: ExtensionVerdict[];
  /** `harness run --baseline`: the comparison's outcome (compare.json has every metric). */
  comparison?: ComparisonOutcome;
}

export interface SkippedEntry {
  kind: "scenario" | "extension" | "check" | "by-design";
  name: string;
  reason: string;
}

export interface RunInterruption {
  signal: "SIGINT" | "SIGTERM";
  /** What the run was doing: "build the scenarios", "start the target", "run k6", "collect the verdicts"... */
  phase: string;
}

export interface ComparisonOutcome {
  /** The baseline as given: a run directory, a baseline's name or file. */
  baseline: string;
  baselineRunId: string;
  verdict: "regressed" | "improved" | "no significant change";
  /** Ids of the metrics that regressed (compare.json has the figures). */
  regressed: string[];
}

/** The settings a run was made with, as far as two runs must share them to be compared. */
export interface RunInputs {
  seed: number | undefined;
  /** "default" or the sha256 of the traffic model file (settingsFileId). */
  trafficModel: string;
  /** "default" or the sha256 of the SLO file. */
  sloTable: string;
  /** --target container: the image. */
  image?: string;
  harnessVersion: string;
}

export const SUMMARY_FILE = "summary.json";

export async function writeSummary(runDir: string, summary: RunSummary): Promise<string> {
  const file = path.join(runDir, SUMMARY_FILE);
  // Before anything is written or rendered, so summary.json, the table and the other reports agree.
  for (const report of EXTENSION_REPORTS) report.annotate?.(summary);
  await writeFile(file, `${JSON.stringify(summary, null, 2)}\n`);
  return file;
}

const MARK: Record<Outcome, string> = { pass: "PASS", fail: "FAIL" };

/** The extensions' notes on a scenario's failed check or threshold (report-pieces.ts: failureNote). */
function failureNotes(item: CheckVerdict | ThresholdVerdict): string {
  return EXTENSION_REPORTS.map((report) => report.failureNote?.(item) ?? "").join("");
}

/**
 * The short verdict table: per scenario one line of figures, every failed check (with what was wrong) and failed
 * threshold (with the observed value), and a count of what passed. summary.json has every entry.
 */
export function renderVerdictTable(summary: RunSummary): string {
  const lines: string[] = [];
  if (summary.run.environment) lines.push(`ENV   ${environmentLine(summary.run.environment)}`);
  for (const s of summary.scenarios) {
    const m = s.metrics;
    lines.push(
      `${MARK[s.verdict]}  scenario ${s.scenario}: ${m.iterations} iterations, ${m.requests} requests, ${m.throttles} throttled, ${m.droppedIterations} dropped`,
    );
    for (const error of s.errors) lines.push(`  FAIL  ${error}`);
    for (const c of s.checks.filter((c) => c.verdict === "fail")) {
      lines.push(`  FAIL  check ${c.name}: ${c.fails} of ${c.passes + c.fails} failed${failureNotes(c)}`);
      for (const p of c.problems) lines.push(`          - ${p}`);
    }
    for (const t of s.thresholds.filter((t) => t.verdict === "fail")) {
      lines.push(
        `  FAIL  threshold ${t.metric} ${t.expression}: observed ${formatObserved(t.metric, t.observed)}${failureNotes(t)}`,
      );
    }
    for (const f of s.findings) lines.push(`  NOTE  ${f.rule}: ${f.finding}`);
    const passedChecks = s.checks.filter((c) => c.verdict === "pass").length;
    const passedThresholds = s.thresholds.filter((t) => t.verdict === "pass").length;
    lines.push(
      `  PASS  ${passedChecks} of ${s.checks.length} checks, ${passedThresholds} of ${s.thresholds.length} thresholds`,
    );
  }
  for (const s of summary.skipped ?? []) {
    lines.push(
      s.kind === "by-design"
        ? `N/A   ${s.name}: ${s.reason} (not judged by design${summary.run.level ? ` at the ${summary.run.level} level` : ""}; not a failure)`
        : `SKIP  ${s.kind} ${s.name}: ${s.reason}`,
    );
  }
  for (const e of summary.extensions) {
    lines.push(`${MARK[e.verdict]}  ${e.name}`);
    for (const error of e.errors) lines.push(`  FAIL  ${error}`);
    for (const c of e.checks.filter((c) => c.verdict === "fail")) {
      lines.push(`  FAIL  check ${c.name}: ${c.fails} of ${c.passes + c.fails} failed`);
      for (const p of c.problems) lines.push(`          - ${p}`);
    }
    for (const t of e.thresholds.filter((t) => t.verdict === "fail")) {
      lines.push(`  FAIL  threshold ${t.metric} ${t.expression}: observed ${formatObserved(t.metric, t.observed)}`);
    }
    for (const f of e.findings) lines.push(`  NOTE  ${f}`);
    lines.push(
      `  PASS  ${e.checks.filter((c) => c.verdict === "pass").length} of ${e.checks.length} checks, ${e.thresholds.filter((t) => t.verdict === "pass").length} of ${e.thresholds.length} thresholds`,
    );
  }
  const c = summary.comparison;
  if (c) {
    lines.push(
      `${c.verdict === "regressed" ? "FAIL" : "PASS"}  comparison with ${c.baseline} (run ${c.baselineRunId}): ${c.verdict}${c.regressed.length ? ` (${c.regressed.join(", ")})` : ""}`,
    );
  }
  for (const error of summary.errors) lines.push(`FAIL  ${error}`);
  const stopped = summary.run.interrupted;
  const how = stopped ? `, interrupted by ${stopped.signal} during "${stopped.phase}"` : "";
  lines.push(`${MARK[summary.verdict]}  run ${summary.run.id} (exit ${summary.exitCode}${how})`);
  return lines.join("\n");
}
