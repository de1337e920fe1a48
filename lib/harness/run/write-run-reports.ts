/**
 * The write-the-reports phase: summary.json (first, so it is there whatever follows), the comparison with the baseline
 * (before any report, so each carries it), then junit.xml, metrics.prom, report.html, the redaction of secrets and the
 * push. An interrupted run is not compared or pushed (its figures are partial); a signal during this phase still
 * marks it interrupted.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { COMPARE_JSON } from "../compare/compare-markdown.ts";
import { exportMetrics } from "../reports/push-to-gateway.ts";
import { junitReport } from "../reports/junit-report.ts";
import { redactRunDirectory, redactText, secretPattern } from "../reports/redact-secrets.ts";
import { renderVerdictTable, writeSummary, type RunSummary } from "../reports/summary.ts";
import { JUNIT_FILE, readRunSamples, renderReports, type WrittenReports } from "../reports/write-reports.ts";
import { compareWithBaseline } from "./compare-baseline.ts";
import { exitCodeOf, type Outcome } from "./exit-code-of.ts";
import type { RunOutcome, RunRequest } from "./run-request.ts";
import { markInterrupted, settle, summaryOf, unexpected, type RunState } from "./run-state.ts";

/**
 * The run directory's files with every secret replaced by its fingerprint; summary.json names the files that held one.
 * A failure here is said, never thrown: the run's verdict and reports stand.
 */
async function redactSecrets(
  runDir: string,
  secrets: readonly string[],
  summary: RunSummary,
  say: (line: string) => void,
): Promise<void> {
  try {
    const redacted = await redactRunDirectory(runDir, secrets);
    if (redacted.length === 0) return;
    say(`  redacted secrets from ${redacted.map((r) => `${r.file} (${String(r.count)})`).join(", ")}`);
    // The verdict table on the terminal and summary.json come from the summary in memory: its text is redacted too.
    Object.assign(summary, JSON.parse(redactText(JSON.stringify(summary), secretPattern(secrets)).text) as RunSummary);
    summary.run.redacted = redacted;
    await writeSummary(runDir, summary);
  } catch (error) {
    summary.errors.push(await unexpected(runDir, "redact secrets from the run directory", error));
  }
}

/** The run's summary and reports; the exit code from everything the run found, the push included. */
export async function writeRunReports(request: RunRequest, state: RunState): Promise<RunOutcome> {
  const { runDir } = state;
  state.phase = "write the reports";
  const outcomes = [...state.outcomes];
  const summary = summaryOf(request, state, outcomes);
  request.say("▸ report");
  const file = await writeSummary(runDir, summary);
  if (summary.run.interrupted)
    await writeFile(path.join(runDir, JUNIT_FILE), junitReport(summary)).catch(() => undefined);
  const reports = await compareAndRender(request, state, summary, outcomes);
  await redactSecrets(runDir, state.secrets, summary, request.say);
  // Checked as late as it can be, just before the verdict is said: a signal while the reports were rendered or
  // redacted still marks the run interrupted (the marking's own text holds no secret).
  if (state.interrupted && !summary.run.interrupted) {
    markInterrupted(summary, state.interrupted, outcomes);
    await writeSummary(runDir, summary);
  }
  request.say(renderVerdictTable(summary));
  request.say(`summary: ${path.relative(process.cwd(), file) || file}`);
  // The push comes after summary.json: a failed one fails the run's exit code only.
  if (
    reports &&
    !summary.run.interrupted &&
    !(await exportMetrics(request.pushgateway, reports.metrics.registry, state.runId, request.say, request.pushGroup))
  ) {
    outcomes.push({ kind: "failed" });
  }
  if (state.interrupted) outcomes.push({ kind: "interrupted", signal: state.interrupted.signal });
  return { exitCode: exitCodeOf(outcomes), runDir, summary };
}

/**
 * Reads the run's samples, compares them with the baseline (not for an interrupted run) and renders the reports; a
 * crash here is in `errors` and summary.json and junit.xml are written again with it, as far as they can be.
 */
async function compareAndRender(
  request: RunRequest,
  state: RunState,
  summary: RunSummary,
  outcomes: Outcome[],
): Promise<WrittenReports | undefined> {
  const { runDir } = state;
  const baseline = summary.run.interrupted ? undefined : request.baseline;
  try {
    const samples = await readRunSamples(runDir, summary);
    const compared = baseline === undefined ? undefined : compareWithBaseline(baseline, samples.digest);
    if (compared !== undefined) {
      if (compared.summary !== undefined) summary.comparison = compared.summary;
      summary.errors.push(...compared.errors);
      outcomes.push(...compared.outcomes);
      settle(summary, outcomes);
      if (compared.comparison !== undefined) {
        await writeFile(path.join(runDir, COMPARE_JSON), `${JSON.stringify(compared.comparison, null, 2)}\n`);
      }
      await writeSummary(runDir, summary);
    }
    return await renderReports(runDir, summary, samples, compared?.comparison, request.say);
  } catch (error) {
    summary.errors.push(await unexpected(runDir, "write the reports", error));
    outcomes.push({ kind: "reports-crashed" });
    settle(summary, outcomes);
    await writeSummary(runDir, summary);
    await writeFile(path.join(runDir, JUNIT_FILE), junitReport(summary)).catch(() => undefined);
    return undefined;
  }
}
