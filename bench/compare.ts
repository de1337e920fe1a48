/**
 * npm run bench:compare: how often a release comparison raises a false alarm, and how often it catches a real
 * regression, measured with real runs of the harness against the reference service on this machine.
 *
 * BENCH_REPEATS pairs of runs, interleaved (a clean run, then a run with the fault), so that whatever the machine does
 * in between touches both kinds alike. Every run uses the same scenario, profile, duration and seed, and the
 * reference service with a fixed latency on every route (BENCH_BASE_LATENCY_MS: a service whose answers take tens of
 * milliseconds, as real ones do, rather than loopback's tenth of one). The fault: one endpoint (BENCH_ENDPOINT) takes
 * BENCH_FACTOR times as long (the service's latencyFactor fault). Then, with the default tolerances:
 * - false alarms: each clean run against the next one (BENCH_REPEATS comparisons, the last against the first), and
 *   all pairs of clean runs, counted as comparisons with any metric not "no significant change";
 * - detection: clean run i against faulty run i, counted as caught when that endpoint's latency regressed and no
 *   other metric did;
 * - webhooks: BENCH_WEBHOOK_REPEATS pairs of webhooks runs, clean against the webhook-delay defect: caught when
 *   webhook latency regressed.
 * Prints a Markdown table and writes reports/bench-compare.json; the runs are kept (BENCH_RUNS_DIR=<that folder> judges
 * them again without running). Bounded: each run is the profile's length plus the
 * harness's own bound.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { compareRuns, type Comparison } from "../lib/harness/compare/compare-runs.ts";
import { readDigestFile, DIGEST_FILE, type RunDigest } from "../lib/harness/compare/run-digest.ts";
import { DEFAULT_TOLERANCES, mergeTolerances } from "../lib/harness/compare/tolerances.ts";
import { REPO_ROOT } from "../lib/harness/paths.ts";

const REPEATS = Number(process.env.BENCH_REPEATS ?? "20");
const WEBHOOK_REPEATS = Number(process.env.BENCH_WEBHOOK_REPEATS ?? "3");
const SCENARIO = process.env.BENCH_SCENARIO ?? "partner-mix";
const PROFILE = process.env.BENCH_PROFILE ?? "steady";
const DURATION = process.env.BENCH_DURATION ?? "30s";
const ENDPOINT = process.env.BENCH_ENDPOINT ?? "priceListDate";
const FACTOR = Number(process.env.BENCH_FACTOR ?? "1.2");
const BASE_LATENCY_MS = Number(process.env.BENCH_BASE_LATENCY_MS ?? "20");

/** BENCH_RUNS_DIR: judge the runs an earlier bench kept there again instead of running new ones. */
const KEPT = process.env.BENCH_RUNS_DIR;
const out = KEPT ?? mkdtempSync(path.join(tmpdir(), "atd-bench-compare-"));

function faults(factor: number): string {
  const rule = { latencyMs: BASE_LATENCY_MS };
  return JSON.stringify({
    default: rule,
    ...(factor === 1 ? {} : { routes: { [ENDPOINT]: { ...rule, latencyFactor: factor } } }),
  });
}

/** One harness run in a directory of its own; its digest (the run's pass or fail does not matter here). */
async function run(label: string, args: string[]): Promise<RunDigest> {
  const dir = path.join(out, label);
  if (KEPT !== undefined) return readDigestFile(path.join(dir, readdirSync(dir)[0] ?? "", DIGEST_FILE));
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, "scripts/harness.js"), "run", ...args, "--out", dir],
    {
      encoding: "utf8",
      env: { ...process.env, CI: "1" },
    },
  );
  const runDir = readdirSync(dir).map((d) => path.join(dir, d))[0];
  if (runDir === undefined)
    throw new Error(`${label}: no run directory (exit ${String(result.status)}): ${result.stderr}`);
  process.stderr.write(
    `${label}: exit ${String(result.status)} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
  return readDigestFile(path.join(runDir, DIGEST_FILE));
}

const tolerances = mergeTolerances({});
const flagged = (c: Comparison) => c.metrics.filter((m) => m.verdict === "regressed" || m.verdict === "improved");

async function main(): Promise<void> {
  const common = [SCENARIO, "--profile", PROFILE, "--duration", DURATION, "--seed", "1"];
  const clean: RunDigest[] = [];
  const faulty: RunDigest[] = [];
  for (let i = 0; i < REPEATS; i++) {
    clean.push(await run(`clean-${String(i + 1)}`, [...common, "--service-args", `--faults ${faults(1)}`]));
    faulty.push(await run(`faulty-${String(i + 1)}`, [...common, "--service-args", `--faults ${faults(FACTOR)}`]));
  }
  const falseAlarms: string[][] = [];
  for (let i = 0; i < REPEATS; i++) {
    const c = compareRuns(clean[i] as RunDigest, clean[(i + 1) % REPEATS] as RunDigest, tolerances);
    falseAlarms.push(flagged(c).map((m) => `${m.id} ${m.verdict} (${(m.change * 100).toFixed(1)}%)`));
  }
  let allPairs = 0;
  let allPairAlarms = 0;
  for (let i = 0; i < REPEATS; i++) {
    for (let j = i + 1; j < REPEATS; j++) {
      allPairs += 1;
      if (flagged(compareRuns(clean[i] as RunDigest, clean[j] as RunDigest, tolerances)).length > 0) allPairAlarms += 1;
    }
  }
  const detections: { caught: boolean; regressed: string[]; change: Record<string, number> }[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const c = compareRuns(clean[i] as RunDigest, faulty[i] as RunDigest, tolerances);
    const regressed = flagged(c).map((m) => `${m.id} ${m.verdict}`);
    const onEndpoint = c.metrics.filter((m) => m.group === "latency" && m.subject === ENDPOINT);
    const caught =
      onEndpoint.some((m) => m.verdict === "regressed") &&
      flagged(c).every((m) => m.group === "latency" && m.subject === ENDPOINT && m.verdict === "regressed");
    detections.push({ caught, regressed, change: Object.fromEntries(onEndpoint.map((m) => [m.statistic, m.change])) });
  }
  const webhooks: { caught: boolean; change: Record<string, number> }[] = [];
  for (let i = 0; i < WEBHOOK_REPEATS; i++) {
    const wargs = ["webhooks", "--profile", "smoke", "--duration", "15s", "--seed", "1"];
    const base = await run(`webhooks-clean-${String(i + 1)}`, wargs);
    const slow = await run(`webhooks-delay-${String(i + 1)}`, [...wargs, "--service-args", "--defects webhook-delay"]);
    const c = compareRuns(base, slow, tolerances);
    const latency = c.metrics.filter((m) => m.group === "webhook latency");
    webhooks.push({
      caught: latency.some((m) => m.verdict === "regressed"),
      change: Object.fromEntries(latency.map((m) => [m.statistic, m.change])),
    });
  }

  const alarms = falseAlarms.filter((a) => a.length > 0).length;
  const caught = detections.filter((d) => d.caught).length;
  const samples = clean[0]?.endpoints[ENDPOINT]?.requests ?? 0;
  const lines = [
    `${SCENARIO}, profile ${PROFILE} ${DURATION}, seed 1; every route ${String(BASE_LATENCY_MS)} ms; fault: ${ENDPOINT} x${String(FACTOR)}; default tolerances (p50/p95/p99 +${String(DEFAULT_TOLERANCES.latency.p95 * 100)}% at ${String(DEFAULT_TOLERANCES.confidence * 100)}%)`,
    `measured seconds per run: ${clean.map((d) => d.seconds.toFixed(0)).join(", ")}; ${ENDPOINT} requests per run: ~${String(samples)}`,
    "",
    "| proof | result |",
    "| --- | --- |",
    `| false alarms, clean vs next clean | ${String(alarms)} of ${String(REPEATS)} comparisons |`,
    `| false alarms, all pairs of clean runs | ${String(allPairAlarms)} of ${String(allPairs)} comparisons |`,
    `| ${ENDPOINT} x${String(FACTOR)} judged regressed there and nowhere else | ${String(caught)} of ${String(REPEATS)} comparisons |`,
    `| webhook-delay judged a webhook latency regression | ${String(webhooks.filter((w) => w.caught).length)} of ${String(WEBHOOK_REPEATS)} comparisons |`,
  ];
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  for (const stat of ["p50", "p95", "p99"]) {
    lines.push(
      `| median measured change of ${ENDPOINT} ${stat} under the fault | ${(median(detections.map((d) => d.change[stat] ?? NaN)) * 100).toFixed(1)}% |`,
    );
  }
  for (const [i, a] of falseAlarms.entries())
    if (a.length) lines.push(`- false alarm ${String(i + 1)}: ${a.join(", ")}`);
  for (const [i, d] of detections.entries())
    if (!d.caught) lines.push(`- missed ${String(i + 1)}: ${d.regressed.join(", ") || "nothing flagged"}`);
  console.log(lines.join("\n"));
  writeFileSync(
    path.join(REPO_ROOT, "reports/bench-compare.json"),
    `${JSON.stringify({ settings: { REPEATS, SCENARIO, PROFILE, DURATION, ENDPOINT, FACTOR, BASE_LATENCY_MS }, falseAlarms, allPairs, allPairAlarms, detections, webhooks, runs: out }, null, 2)}\n`,
  );
  process.stderr.write(`runs kept in ${out}\n`);
}

await main();
