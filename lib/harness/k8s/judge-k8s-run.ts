/**
 * `harness judge <manifests> --prometheus <url>`: the verdict of a run the k6-operator made from `harness k8s`
 * manifests. The thresholds are the very script's (k6 inspect of the ConfigMap's script, with the runners' settings
 * and files), the results are every runner's samples read back from Prometheus (prometheus-results.ts), and the
 * verdict, summary.json and report files come from the same code as a local run's (verdict.ts, report.ts,
 * reports/write-reports.ts).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { makeOutputDirectory } from "../make-directory.ts";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { K6_ENV, isRecord } from "../../contract/index.ts";
import { EXIT, HarnessError, type ExitCode } from "../exit-codes.ts";
import { renderVerdictTable, writeSummary, type RunSummary } from "../reports/summary.ts";
import { writeReports } from "../reports/write-reports.ts";
import { scenarioVerdict, type ScenarioVerdict } from "../verdict.ts";
import {
  durationSeconds,
  PrometheusError,
  prometheusApi,
  readPrometheusResults,
  type PrometheusResults,
  type PromApi,
} from "./prometheus-results.ts";
import { readK8sRun, type K8sRun } from "./read-manifests.ts";

const run = promisify(execFile);

export interface JudgeRequest {
  /** The YAML file `harness k8s` wrote. */
  manifests: string;
  /** Prometheus's base URL (its HTTP API), the one the runners' remote write lands in. */
  prometheus: string;
  /** How far back the runs' samples may lie (Prometheus duration, e.g. 24h). */
  window: string;
  /** Where the run directory goes (reports/<TestRun name>). */
  outDir: string;
  k6: string;
  say: (line: string) => void;
  /** For tests: Prometheus's API by other means. */
  api?: PromApi;
}

/** The thresholds k6 would evaluate: `k6 inspect` runs the script's init code with the runners' settings. */
export async function inspectThresholds(k6: string, k8sRun: K8sRun): Promise<Record<string, string[]>> {
  const dir = await mkdtemp(path.join(tmpdir(), "atd-judge-"));
  try {
    for (const [file, text] of Object.entries(k8sRun.files)) await writeFile(path.join(dir, path.basename(file)), text);
    // The keys come from a Secret the manifests only name; init code needs some, and thresholds do not depend on them.
    const env = { ...k8sRun.env, [K6_ENV.apiKeys]: "judge" };
    const args = ["inspect", ...Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]), k8sRun.scriptFile];
    const { stdout } = await run(k6, args, { cwd: dir, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    const options = JSON.parse(stdout) as unknown;
    const thresholds = isRecord(options) && isRecord(options.thresholds) ? options.thresholds : {};
    return Object.fromEntries(
      Object.entries(thresholds).map(([metric, list]) => [
        metric,
        (Array.isArray(list) ? list : []).map((t) => (isRecord(t) ? String(t.threshold) : String(t))),
      ]),
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new HarnessError(
      `Failed to read the thresholds of ${k8sRun.scriptFile}: k6 inspect failed (${stderr?.split("\n").pop() ?? (error as Error).message}). Please give manifests written by this version of \`harness k8s\`.`,
      EXIT.usage,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface JudgeOutcome {
  exitCode: ExitCode;
  runDir: string;
  summary: RunSummary;
}

export async function judgeK8sRun(request: JudgeRequest): Promise<JudgeOutcome> {
  if (!Number.isFinite(durationSeconds(request.window))) {
    throw new HarnessError(
      `Failed to judge the run: --window "${request.window}" is not a Prometheus duration. Please give e.g. 6h or 2d.`,
      EXIT.usage,
    );
  }
  const startedAt = new Date();
  const k8sRun = await readK8sRun(request.manifests);
  // The report folder before Prometheus is asked: one that cannot be made is bad usage (exit 2).
  const runDir = path.resolve(request.outDir, k8sRun.name);
  await makeOutputDirectory(runDir, "write the verdict", "--out");
  if (k8sRun.testId === undefined) {
    throw new HarnessError(
      `Failed to judge ${request.manifests}: its runners write to no Prometheus. Please write the manifests with --prometheus-rw.`,
      EXIT.usage,
    );
  }
  request.say(`▸ thresholds: k6 inspect ${k8sRun.scriptFile}`);
  const thresholds = await inspectThresholds(request.k6, k8sRun);
  request.say(`▸ results: ${request.prometheus}, testid=${k8sRun.testId}, last ${request.window}`);
  let results;
  try {
    results = await readPrometheusResults({
      api: request.api ?? prometheusApi(request.prometheus),
      testId: k8sRun.testId,
      thresholds,
      window: request.window,
    });
  } catch (error) {
    if (!(error instanceof PrometheusError)) throw error;
    throw new HarnessError(
      `Failed to read the results from Prometheus: ${error.message}. Please give the Prometheus the runners wrote to (its base URL, e.g. http://127.0.0.1:9090).`,
      EXIT.target,
    );
  }
  const verdict = k8sVerdict(k8sRun, results, request.window);
  const exitCode: ExitCode = verdict.verdict === "pass" ? EXIT.pass : EXIT.failed;
  const finishedAt = new Date();
  const summary: RunSummary = {
    run: {
      id: k8sRun.name,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationSeconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
      target: { kind: "k8s", apiUrl: k8sRun.env[K6_ENV.baseUrl] },
      profile: k8sRun.env[K6_ENV.profile] ?? "",
      duration: k8sRun.env[K6_ENV.duration],
      scenarios: [k8sRun.scenario],
      k6: path.basename(request.k6),
      node: process.version,
    },
    verdict: verdict.verdict,
    exitCode,
    errors: [],
    scenarios: [verdict],
    extensions: [],
  };
  const file = await writeSummary(runDir, summary);
  await writeReports(runDir, summary, request.say);
  request.say(renderVerdictTable(summary));
  request.say(`summary: ${path.relative(process.cwd(), file) || file}`);
  return { exitCode, runDir, summary };
}

/**
 * The scenario's verdict from what the runners wrote to Prometheus: failed when no samples came, or when fewer
 * runners wrote than the manifests start (the verdict would judge part of the load).
 */
function k8sVerdict(k8sRun: K8sRun, results: PrometheusResults, window: string): ScenarioVerdict {
  const errors =
    results.series === 0
      ? [
          `no samples with testid=${String(k8sRun.testId)} in Prometheus within the last ${window}: the runners wrote elsewhere, the run has not started, or --window is too short`,
        ]
      : [];
  const verdict = scenarioVerdict(k8sRun.scenario, results.summary, "", errors);
  // The checks' own problem messages stay in the runners' logs: what Prometheus tells is which runners failed them.
  const problems = new Map(results.checks.map((c) => [c.name, c.problems]));
  for (const check of verdict.checks) check.problems = problems.get(check.name) ?? [];
  verdict.findings.push(
    {
      rule: "k8s runners",
      finding: `${String(results.runners)} runner(s) wrote samples (parallelism ${String(k8sRun.parallelism)})`,
    },
    ...results.notes.map((note) => ({ rule: "read from Prometheus", finding: note })),
  );
  if (results.series > 0 && results.runners < k8sRun.parallelism) {
    verdict.errors.push(
      `only ${String(results.runners)} of ${String(k8sRun.parallelism)} runners wrote samples: the verdict would judge part of the load`,
    );
    verdict.verdict = "fail";
  }
  return verdict;
}
