/**
 * `harness compare <baseline> <candidate>`, `harness baseline save|list`, and what `harness run --baseline` does
 * before its run (the baseline found and the runs known to be comparable, exit 2 otherwise, before anything starts).
 * Exit codes: 0 no regression, 1 a metric regressed, 2 the runs are not comparable or an argument is wrong.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { EXIT, HarnessError, type ExitCode } from "../exit-codes.ts";
import { makeOutputDirectory } from "../make-directory.ts";
import { REPORTS_DIR } from "../paths.ts";
import { readRunSummary, writeReports } from "../reports/write-reports.ts";
import { listBaselines, resolveComparable, saveBaseline, type ComparableRun } from "./baselines.ts";
import { COMPARE_JSON, COMPARE_MD, compareMarkdown, compareVerdictLines } from "./compare-markdown.ts";
import { compareRuns, incomparability, NotComparableError, type Comparison } from "./compare-runs.ts";
import { type RunDigest, type RunIdentity } from "./run-digest.ts";
import { readTolerances, type Tolerances } from "./tolerances.ts";

type Say = (line: string) => void;

function notComparable(base: string, cand: string, reasons: readonly string[]): HarnessError {
  return new HarnessError(
    `Failed to compare ${cand} with ${base}: the runs are not comparable: ${reasons.join("; ")}. Please compare runs of the same scenarios, profile, traffic model, SLO table and kind of target (a new baseline may be needed).`,
    EXIT.usage,
  );
}

/** Compares, or throws exit 2 naming every difference that makes the runs incomparable. */
export function compareOrExplain(
  baseline: { label: string; digest: RunDigest },
  candidate: { label: string; digest: RunDigest },
  tolerances: Tolerances,
): Comparison {
  try {
    return compareRuns(baseline.digest, candidate.digest, tolerances);
  } catch (error) {
    if (error instanceof NotComparableError) throw notComparable(baseline.label, candidate.label, error.reasons);
    throw error;
  }
}

export interface CompareRequest {
  baseline: string;
  candidate: string;
  tolerancesFile: string | undefined;
  baselinesDir: string;
  /** Where compare.json and compare.md go; default: the candidate's run directory, else reports/compare-<time>. */
  out: string | undefined;
  say: Say;
}

/** Writes compare.json and compare.md; in the candidate's run directory its reports are rendered again with it. */
async function writeComparison(
  comparison: Comparison,
  outDir: string,
  candidate: ComparableRun,
  say: Say,
): Promise<void> {
  await makeOutputDirectory(outDir, "write the comparison", "--out");
  await writeFile(path.join(outDir, COMPARE_JSON), `${JSON.stringify(comparison, null, 2)}\n`);
  if (candidate.runDir !== undefined && path.resolve(outDir) === candidate.runDir) {
    // writeReports reads compare.json: report.html, junit.xml and metrics.prom get the comparison, and compare.md.
    await writeReports(candidate.runDir, await readRunSummary(candidate.runDir), say);
  } else {
    await writeFile(path.join(outDir, COMPARE_MD), compareMarkdown(comparison));
  }
  say(`comparison: ${path.relative(process.cwd(), path.join(outDir, COMPARE_MD)) || COMPARE_MD}`);
}

export function exitCodeOf(comparison: Comparison): ExitCode {
  return comparison.verdict === "regressed" ? EXIT.failed : EXIT.pass;
}

export async function runCompare(request: CompareRequest): Promise<ExitCode> {
  const tolerances = await readTolerances(request.tolerancesFile);
  const baseline = await resolveComparable(request.baseline, request.baselinesDir);
  const candidate = await resolveComparable(request.candidate, request.baselinesDir);
  const comparison = compareOrExplain(baseline, candidate, tolerances);
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const outDir = path.resolve(request.out ?? candidate.runDir ?? path.join(REPORTS_DIR, `compare-${stamp}`));
  for (const line of compareVerdictLines(comparison)) request.say(line);
  await writeComparison(comparison, outDir, candidate, request.say);
  return exitCodeOf(comparison);
}

export async function runBaselineSave(
  runDir: string,
  name: string,
  dir: string,
  replace: boolean,
  say: Say,
): Promise<ExitCode> {
  const { file, baseline } = await saveBaseline(runDir, name, dir, replace);
  const id = baseline.digest.identity;
  say(
    `saved baseline ${name}: ${path.relative(process.cwd(), file) || file} (run ${id.runId}, ${id.scenarios.join("+")}, profile ${id.profile}, ${String(Object.keys(baseline.digest.endpoints).length)} endpoints)`,
  );
  return EXIT.pass;
}

export async function runBaselineList(dir: string, say: Say): Promise<ExitCode> {
  const baselines = await listBaselines(dir);
  if (baselines.length === 0) {
    say(`No baselines in ${dir}. Save one with \`harness baseline save <run dir> --name <name>\`.`);
    return EXIT.pass;
  }
  for (const b of baselines) {
    if ("problem" in b) {
      say(`${b.name.padEnd(24)} unreadable: ${b.problem}`);
      continue;
    }
    const id = b.digest.identity;
    const target = id.target.image ?? id.target.url ?? id.target.kind;
    say(
      `${b.name.padEnd(24)} saved ${b.savedAt}  ${id.scenarios.join("+")}  profile ${id.profile}${id.duration ? ` ${id.duration}` : ""}  target ${target}  run ${id.runId}  harness ${id.harnessVersion}`,
    );
  }
  return EXIT.pass;
}

/** What `harness run --baseline` knows of its run before it starts: enough to refuse an incomparable baseline. */
export interface PlannedRun {
  scenarios: string[];
  profile: string;
  /** The ids of the run's traffic model and SLO table (RunSettings.ids). */
  ids: { trafficModel: string; sloTable: string };
  targetKind: string;
}

export interface PreparedBaseline {
  baseline: ComparableRun;
  tolerances: Tolerances;
}

/** Finds the baseline and checks it against the planned run: exit 2 before anything starts when they cannot compare. */
export async function prepareBaseline(
  ref: string,
  tolerancesFile: string | undefined,
  baselinesDir: string,
  planned: PlannedRun,
): Promise<PreparedBaseline> {
  const tolerances = await readTolerances(tolerancesFile);
  const baseline = await resolveComparable(ref, baselinesDir);
  const identity: RunIdentity = {
    ...baseline.digest.identity,
    scenarios: planned.scenarios,
    profile: planned.profile,
    trafficModel: planned.ids.trafficModel,
    sloTable: planned.ids.sloTable,
    target: { kind: planned.targetKind },
  };
  const reasons = incomparability(baseline.digest.identity, identity);
  if (reasons.length > 0) throw notComparable(baseline.label, "this run", reasons);
  return { baseline, tolerances };
}
