/**
 * npm run bench:peer: what a request costs the load generator, the harness against its peers, in one run against
 * the same service.
 *
 * Three generators send the same GET requests (bench/k6/requests.ts: the calls partner-mix's journeys make, in turn)
 * to the same embedded service (rate limit raised so nothing is throttled), closed model, BENCH_VUS users each:
 * - the harness's client path (bench/k6/client-path.ts: typed client, endpoint tags, the shared checks, lists read);
 * - bare k6 (bench/k6/bare.ts with BENCH_CHECKS=1): plain http.get and three checks (status 200, a JSON content
 *   type, a `data` property);
 * - Artillery (ARTILLERY_VERSION), with the same three checks as `expect` assertions. It is not a dependency of the
 *   harness: the bench installs it with npm into a cache folder (BENCH_ARTILLERY_DIR, default in the OS temp dir)
 *   the first time.
 * Each runs BENCH_ROUNDS times, alternating, best round each. The figure is requests per CPU second of the
 * generator's whole process tree (user + system, bash's `times`; bench/cpu-time.ts), so the service's speed and the
 * shared machine's noise fall out. k6 runs with the system tags the harness gives it (and, on the harness's side, its
 * GOGC). Prints a Markdown table and writes reports/bench-peer.json.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { k6BuildOptions } from "../esbuild.config.ts";
import { resolveK6 } from "../lib/harness/k6-binary.ts";
import { K6_CPU_GC, K6_SYSTEM_TAGS } from "../lib/harness/k6-runner.ts";
import { REPO_ROOT } from "../lib/harness/paths.ts";
import { EmbeddedTarget } from "../lib/harness/targets/embedded-target.ts";
import { benchTargets } from "./bench-targets.ts";
import { runTimed } from "./cpu-time.ts";
import { BENCH_REQUESTS, benchUrls, type BenchTargets } from "./k6/requests.ts";

const VUS = Number(process.env.BENCH_VUS ?? "8");
const SECONDS = Number(process.env.BENCH_SECONDS ?? "15");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "3");
/** The release the figure was measured with. */
const ARTILLERY_VERSION = "2.0.34";
const ARTILLERY_DIR = process.env.BENCH_ARTILLERY_DIR ?? path.join(tmpdir(), `atd-artillery-${ARTILLERY_VERSION}`);
/**
 * Artillery's users loop over the request mix a fixed number of times (it has no closed model with a duration):
 * enough for about BENCH_SECONDS at the ~1,500 requests per CPU second measured before, on one core.
 */
const ARTILLERY_LOOPS = Number(
  process.env.BENCH_ARTILLERY_LOOPS ?? String(Math.ceil((1500 * SECONDS) / (VUS * BENCH_REQUESTS.length))),
);
/** The goal of issue 29: the harness's client path at least this many times Artillery's requests per CPU second. */
const GOAL_OVER_ARTILLERY = 6;

interface Measure {
  requests: number;
  /** Answers that failed a check (k6's checks, Artillery's expect). */
  failedChecks: number;
  cpuSeconds: number;
  wallSeconds: number;
  perCpuSecond: number;
}

const SIDES = [
  "harness client path",
  "bare k6, three checks",
  `Artillery ${ARTILLERY_VERSION}, three expects`,
] as const;
type Side = (typeof SIDES)[number];

interface Setup {
  k6: string;
  outdir: string;
  env: Record<string, string>;
  urls: string[];
  keys: string[];
  artillery: string;
}

function measure(requests: number, failedChecks: number, cpuSeconds: number, wallSeconds: number): Measure {
  return { requests, failedChecks, cpuSeconds, wallSeconds, perCpuSecond: requests / cpuSeconds };
}

function fail(what: string, why: string): never {
  throw new Error(`Failed to ${what}: ${why}`);
}

/** One closed-model k6 run of a bundled bench script; requests and failed checks from its exported summary. */
function runK6(setup: Setup, script: string, env: Record<string, string>): Measure {
  const dir = mkdtempSync(path.join(tmpdir(), "atd-bench-peer-"));
  const summary = path.join(dir, "summary.json");
  const timed = runTimed(
    [
      setup.k6,
      ...["run", "--quiet", "--vus", String(VUS), "--duration", `${String(SECONDS)}s`],
      ...["--system-tags", K6_SYSTEM_TAGS.join(","), "--summary-export", summary, path.join(setup.outdir, script)],
    ],
    { stdout: path.join(dir, "stdout"), stderr: path.join(dir, "stderr") },
    { ...process.env, ...setup.env, ...env, K6_NO_USAGE_REPORT: "true" },
  );
  if (timed.exitCode !== 0) fail(`run k6 (${script})`, `exit ${String(timed.exitCode)}; see ${dir}`);
  const metrics = (
    JSON.parse(readFileSync(summary, "utf8")) as {
      metrics: { http_reqs: { count: number }; checks?: { fails: number } };
    }
  ).metrics;
  return measure(metrics.http_reqs.count, metrics.checks?.fails ?? 0, timed.cpuSeconds, timed.wallSeconds);
}

/** Artillery's script: BENCH_VUS users at once, each looping over the request mix, three expects per answer. */
function artilleryScript(setup: Setup): object {
  const target = new URL(setup.env.ATD_BASE_URL ?? "").origin;
  const requests = setup.urls.map((url, i) => ({
    get: {
      url: url.slice(target.length),
      headers: { "X-Authorization": setup.keys[i % setup.keys.length] ?? "" },
      expect: [{ statusCode: 200 }, { contentType: "json" }, { hasProperty: "data" }],
    },
  }));
  return {
    config: {
      target,
      phases: [{ duration: 1, arrivalCount: VUS }],
      plugins: { expect: { outputFormat: "silent" } },
    },
    scenarios: [{ flow: [{ loop: requests, count: ARTILLERY_LOOPS }] }],
  };
}

/** Artillery in its own folder: installed from npm the first time, never a dependency of the harness. */
function ensureArtillery(): string {
  const bin = path.join(ARTILLERY_DIR, "node_modules/artillery/bin/run");
  if (existsSync(bin)) return bin;
  console.error(`Installing Artillery ${ARTILLERY_VERSION} into ${ARTILLERY_DIR} (first run only)...`);
  mkdirSync(ARTILLERY_DIR, { recursive: true });
  const result = spawnSync(
    "npm",
    [
      ...["install", "--prefix", ARTILLERY_DIR, "--no-save", "--no-audit", "--no-fund", "--ignore-scripts"],
      `artillery@${ARTILLERY_VERSION}`,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  if (result.status !== 0 || !existsSync(bin)) {
    fail(
      `install Artillery ${ARTILLERY_VERSION}`,
      `npm exited ${String(result.status)}. Please check that the npm registry is reachable, or set BENCH_ARTILLERY_DIR to a folder where it is installed`,
    );
  }
  return bin;
}

function runArtillery(setup: Setup): Measure {
  const dir = mkdtempSync(path.join(tmpdir(), "atd-bench-peer-"));
  const script = path.join(dir, "artillery.json");
  const report = path.join(dir, "report.json");
  writeFileSync(script, JSON.stringify(artilleryScript(setup), null, 2));
  // Artillery runs on the Node the harness runs on (it needs Node >= 22); no telemetry: the bench runs offline.
  const timed = runTimed(
    [process.execPath, setup.artillery, "run", "--quiet", "--output", report, script],
    { stdout: path.join(dir, "stdout"), stderr: path.join(dir, "stderr") },
    { ...process.env, ARTILLERY_DISABLE_TELEMETRY: "true" },
  );
  if (timed.exitCode !== 0) fail("run Artillery", `exit ${String(timed.exitCode)}; see ${dir}`);
  const counters = (JSON.parse(readFileSync(report, "utf8")) as { aggregate: { counters: Record<string, number> } })
    .aggregate.counters;
  const failed = Object.entries(counters)
    .filter(([name]) => name.startsWith("plugins.expect.failed"))
    .reduce((sum, [, n]) => sum + n, counters["errors.total"] ?? 0);
  return measure(counters["http.responses"] ?? 0, failed, timed.cpuSeconds, timed.wallSeconds);
}

/** ROUNDS rounds, each side in turn; the rounds alternate so a change in the host's load hits every side alike. */
function runRounds(setup: Setup): Map<Side, Measure[]> {
  const runs = new Map<Side, Measure[]>(SIDES.map((s) => [s, []]));
  const run: Record<Side, () => Measure> = {
    // The harness's side with the garbage collector target a harness run gives k6; bare k6 as a user runs it.
    [SIDES[0]]: () => runK6(setup, "client-path.js", { ...K6_CPU_GC }),
    [SIDES[1]]: () => runK6(setup, "bare.js", { BENCH_CHECKS: "1" }),
    [SIDES[2]]: () => runArtillery(setup),
  } as const;
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of SIDES) runs.get(side)?.push(run[side]());
  }
  return runs;
}

function best(ms: readonly Measure[]): number {
  return Math.max(...ms.map((m) => m.perCpuSecond));
}

function reportLines(k6Version: string, runs: Map<Side, Measure[]>, overArtillery: number, overBare: number): string[] {
  return [
    `${k6Version}; Artillery ${ARTILLERY_VERSION} on Node ${process.versions.node}; ${String(VUS)} users closed model,`,
    `k6 ${String(SECONDS)} s per run, Artillery ${String(ARTILLERY_LOOPS)} loops of ${String(BENCH_REQUESTS.length)} requests per user; ${String(ROUNDS)} rounds alternating`,
    "",
    "| generator | round | requests | failed checks | generator CPU s | wall s | requests per CPU s |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...[...runs].flatMap(([side, ms]) =>
      ms.map(
        (m, i) =>
          `| ${side} | ${String(i + 1)} | ${String(m.requests)} | ${String(m.failedChecks)} | ${m.cpuSeconds.toFixed(2)} | ${m.wallSeconds.toFixed(1)} | ${m.perCpuSecond.toFixed(0)} |`,
      ),
    ),
    "",
    "Best round each, requests per generator CPU second: " +
      [...runs].map(([side, ms]) => `${side} ${best(ms).toFixed(0)}`).join(", "),
    `harness / Artillery: ${overArtillery.toFixed(2)} (goal >= ${String(GOAL_OVER_ARTILLERY)}); harness / bare k6: ${overBare.toFixed(2)}`,
  ];
}

async function main(): Promise<void> {
  const artillery = ensureArtillery();
  const k6 = await resolveK6();
  const outdir = path.join(REPO_ROOT, "dist/bench");
  await build({
    ...k6BuildOptions,
    absWorkingDir: REPO_ROOT,
    outdir,
    entryPoints: ["bench/k6/client-path.ts", "bench/k6/bare.ts"],
  });
  await using service = await new EmbeddedTarget().withServiceArgs(["--rate-limit", "1000000"]).start();
  const keys = (await service.control.partners()).map((p) => p.apiKey);
  const targets: BenchTargets = await benchTargets(service.apiUrl, keys[0] ?? "");
  const env = {
    ATD_BASE_URL: service.apiUrl,
    ATD_API_KEYS: keys.join(","),
    BENCH_TARGETS: JSON.stringify(targets),
  };
  const setup: Setup = { k6, outdir, env, urls: benchUrls(service.apiUrl, targets), keys, artillery };
  const runs = runRounds(setup);
  const [harness, bare, peer] = SIDES.map((side) => best(runs.get(side) ?? []));
  const overArtillery = (harness ?? NaN) / (peer ?? NaN);
  const overBare = (harness ?? NaN) / (bare ?? NaN);
  const k6Version = execFileSync(k6, ["version"], { encoding: "utf8" }).split("\n")[0] ?? "k6";
  console.log(reportLines(k6Version, runs, overArtillery, overBare).join("\n"));
  mkdirSync(path.join(REPO_ROOT, "reports"), { recursive: true });
  writeFileSync(
    path.join(REPO_ROOT, "reports/bench-peer.json"),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        k6: k6Version,
        artillery: ARTILLERY_VERSION,
        node: process.versions.node,
        vus: VUS,
        seconds: SECONDS,
        artilleryLoops: ARTILLERY_LOOPS,
        systemTags: K6_SYSTEM_TAGS,
        runs: Object.fromEntries(runs),
        bestPerCpuSecond: { harness, bare, artillery: peer },
        harnessOverArtillery: overArtillery,
        harnessOverBare: overBare,
        goalOverArtillery: GOAL_OVER_ARTILLERY,
      },
      null,
      2,
    )}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(`bench:peer: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
