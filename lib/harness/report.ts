/**
 * The run's reports in reports/<run-id>/: summary.json (run metadata and every check and threshold with its observed
 * value and verdict) and the short verdict table printed at the end. API keys and tokens never get here.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { ExitCode } from "./exit-codes.ts";
import type { Outcome, ScenarioVerdict } from "./verdict.ts";

export interface RunSummary {
  run: {
    id: string;
    startedAt: string;
    finishedAt: string;
    durationSeconds: number;
    target: { kind: string; apiUrl: string | undefined };
    profile: string;
    duration: string | undefined;
    scenarios: string[];
    k6: string | undefined;
    node: string;
  };
  verdict: Outcome;
  exitCode: ExitCode;
  /** Why the run as a whole failed, apart from its scenarios' verdicts (target did not start, interrupted...). */
  errors: string[];
  scenarios: ScenarioVerdict[];
}

export const SUMMARY_FILE = "summary.json";

export async function writeSummary(runDir: string, summary: RunSummary): Promise<string> {
  const file = path.join(runDir, SUMMARY_FILE);
  await writeFile(file, `${JSON.stringify(summary, null, 2)}\n`);
  return file;
}

function formatObserved(metric: string, value: number | undefined): string {
  if (value === undefined) return "";
  if (metric.startsWith("http_req_duration") || metric.endsWith("_ms")) return `${value.toFixed(1)} ms`;
  if (value <= 1 && !Number.isInteger(value)) return `${(value * 100).toFixed(2)}%`;
  return String(Number(value.toFixed(4)));
}

const MARK: Record<Outcome, string> = { pass: "PASS", fail: "FAIL" };

/** The verdict table: one line per check and threshold, failures first within each scenario, problems indented. */
export function renderVerdictTable(summary: RunSummary): string {
  const lines: string[] = [];
  for (const s of summary.scenarios) {
    lines.push(
      `${MARK[s.verdict]}  scenario ${s.scenario}  (${s.metrics.requests} requests, ${s.metrics.throttles} throttled)`,
    );
    for (const error of s.errors) lines.push(`  FAIL  ${error}`);
    const checks = [...s.checks].sort((a, b) => Number(a.verdict === "pass") - Number(b.verdict === "pass"));
    for (const c of checks) {
      lines.push(`  ${MARK[c.verdict]}  check ${c.name}  ${c.passes} passed, ${c.fails} failed`);
      for (const p of c.problems) lines.push(`          - ${p}`);
    }
    const thresholds = [...s.thresholds].sort((a, b) => Number(a.verdict === "pass") - Number(b.verdict === "pass"));
    for (const t of thresholds) {
      lines.push(
        `  ${MARK[t.verdict]}  threshold ${t.metric} ${t.expression}  observed ${formatObserved(t.metric, t.observed)}`,
      );
    }
  }
  for (const error of summary.errors) lines.push(`FAIL  ${error}`);
  lines.push(`${MARK[summary.verdict]}  run ${summary.run.id} (exit ${summary.exitCode})`);
  return lines.join("\n");
}
