/**
 * Writes a run's report files from what the run directory holds: summary.json (the verdict) and k6's raw results
 * (streamed) give junit.xml, metrics.prom and report.html (with the plots extensions saved in their figures). The
 * same function serves the end of a run and `harness report <run dir>`, so a re-render from saved results gives the
 * same bytes.
 */
import { access, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { SUMMARY_FILE, type RunSummary } from "./summary.ts";
import { plotsOf } from "./extension-plots.ts";
import { htmlReport } from "./html-report.ts";
import { junitReport } from "./junit-report.ts";
import { firstSampleTime, rawResultsFile, readRawSamples } from "./raw-samples.ts";
import { RAW_METRICS, RunMetrics } from "./run-metrics.ts";
import { Timeline } from "./timeline.ts";
import { DigestCollector, DIGEST_FILE, type RunDigest } from "../compare/run-digest.ts";
import type { Comparison } from "../compare/compare-runs.ts";
import { COMPARE_MD, compareMarkdown, readComparison } from "../compare/compare-markdown.ts";

export const JUNIT_FILE = "junit.xml";
export const METRICS_FILE = "metrics.prom";
export const HTML_FILE = "report.html";

/** Where k6 exports its web-dashboard report for a scenario (K6_WEB_DASHBOARD_EXPORT). */
export function dashboardFile(scenario: string): string {
  return `k6-dashboard-${scenario}.html`;
}

export interface WrittenReports {
  /** Absolute paths of the files written. */
  files: string[];
  /** The registry behind metrics.prom, for the Pushgateway push. */
  metrics: RunMetrics;
  /** What the reports had to leave out, one line each. */
  notes: string[];
  /** The comparison with a baseline the reports carry, when there is one. */
  comparison: Comparison | undefined;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** What the run directory's raw results and dashboards give, read once: the reports are rendered from it. */
export interface RunSamples {
  metrics: RunMetrics;
  timeline: Timeline | undefined;
  dashboards: Map<string, string>;
  /** What the reports have to leave out so far (a raw results file that ends early). */
  notes: string[];
  /** What a later release comparison needs of this run (lib/harness/compare/run-digest.ts). */
  digest: RunDigest;
}

/** Streams each scenario's raw results once into the metrics, the timeline and the digest. */
export async function readRunSamples(runDir: string, summary: RunSummary): Promise<RunSamples> {
  const notes: string[] = [];
  const metrics = new RunMetrics(summary);
  const digest = new DigestCollector();
  const raws = new Map<string, string>();
  for (const scenario of summary.run.scenarios) {
    const raw = path.join(runDir, rawResultsFile(scenario));
    if (await exists(raw)) raws.set(scenario, raw);
  }
  // The plots start at the earliest sample of any scenario (they run side by side), not at the run's start.
  const starts = await Promise.all([...raws.values()].map((raw) => firstSampleTime(raw, RAW_METRICS)));
  const firstSample = starts.filter((t): t is number => t !== undefined);
  const timeline = new Timeline(firstSample.length > 0 ? Math.min(...firstSample) : undefined);
  const dashboards = new Map<string, string>();
  for (const scenario of summary.run.scenarios) {
    const raw = raws.get(scenario);
    if (raw !== undefined) {
      const { truncated } = await readRawSamples(raw, RAW_METRICS, (sample) => {
        metrics.observe(scenario, sample);
        timeline.observe(scenario, sample);
        digest.observe(sample);
      });
      if (truncated) notes.push(`${rawResultsFile(scenario)} ends early (k6 was stopped while writing it).`);
    }
    const dashboard = path.join(runDir, dashboardFile(scenario));
    if (await exists(dashboard)) dashboards.set(scenario, await readFile(dashboard, "utf8"));
  }
  return { metrics, timeline: raws.size > 0 ? timeline : undefined, dashboards, notes, digest: digest.digest(summary) };
}

/**
 * Writes run-digest.json, compare.md (with a comparison), junit.xml, metrics.prom and report.html from the samples
 * read and the summary as it now stands; says what had to be left out, if anything.
 */
export async function renderReports(
  runDir: string,
  summary: RunSummary,
  samples: RunSamples,
  comparison: Comparison | undefined,
  say: (line: string) => void = () => undefined,
): Promise<WrittenReports> {
  const { metrics, timeline, dashboards } = samples;
  metrics.finish();
  const notes = [...samples.notes, ...metrics.problems];
  for (const e of summary.extensions) notes.push(...plotsOf(e).problems);

  const files = [JUNIT_FILE, METRICS_FILE, HTML_FILE, DIGEST_FILE].map((f) => path.join(runDir, f));
  const [junit, prom, html, digestFile] = files as [string, string, string, string];
  await writeFile(digestFile, `${JSON.stringify(samples.digest)}\n`);
  if (comparison) {
    metrics.addComparison(comparison);
    await writeFile(path.join(runDir, COMPARE_MD), compareMarkdown(comparison));
    files.push(path.join(runDir, COMPARE_MD));
  }
  await writeFile(junit, junitReport(summary, comparison));
  await writeFile(prom, await metrics.text());
  await writeFile(html, htmlReport({ summary, timeline, dashboards, notes, comparison }));
  for (const note of notes) say(`NOTE  report: ${note}`);
  return { files, metrics, notes, comparison };
}

/**
 * Writes junit.xml, metrics.prom and report.html into the run directory, with the comparison a compare.json there
 * holds (`harness compare`), if any; says what had to be left out, if anything.
 */
export async function writeReports(
  runDir: string,
  summary: RunSummary,
  say: (line: string) => void = () => undefined,
): Promise<WrittenReports> {
  const samples = await readRunSamples(runDir, summary);
  return renderReports(runDir, summary, samples, await readComparison(runDir), say);
}

/** The summary of a run directory, or a usage error saying why the directory is not one. */
export async function readRunSummary(runDir: string): Promise<RunSummary> {
  const notARunDir = (why: string) =>
    new HarnessError(
      `Failed to re-render the reports of ${runDir}: ${why}. Please give a run directory the harness wrote (reports/<run-id>).`,
      EXIT.usage,
    );
  let text: string;
  try {
    text = await readFile(path.join(runDir, SUMMARY_FILE), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw notARunDir(code === "ENOENT" ? `it has no ${SUMMARY_FILE}` : `cannot read ${SUMMARY_FILE} (${String(code)})`);
  }
  let summary: unknown;
  try {
    summary = JSON.parse(text);
  } catch {
    throw notARunDir(`${SUMMARY_FILE} is not JSON`);
  }
  const s = summary as Partial<RunSummary> | null;
  if (
    typeof s?.run?.id !== "string" ||
    !Array.isArray(s.run.scenarios) ||
    !Array.isArray(s.scenarios) ||
    !Array.isArray(s.extensions)
  ) {
    throw notARunDir(`${SUMMARY_FILE} is not a run summary`);
  }
  return s as RunSummary;
}
