/**
 * npm run bench:harness: the harness's overhead in k6, measured in one run against the same service.
 *
 * Two k6 scripts send the same GET requests (the calls partner-mix's journeys make): one through the harness's
 * client path (typed client, tags, the shared checks, list items read the way the journeys read them), one with bare
 * http.get. Each runs closed-model (BENCH_VUS VUs for BENCH_SECONDS) in turn, BENCH_ROUNDS times, alternating, with
 * the system tags the harness gives k6 (K6_SYSTEM_TAGS); the figure is requests per k6 CPU second (user + system
 * time of the k6 process, from bash's `times`), so the service's own speed and the noise of a shared machine cancel
 * out of the ratio. BENCH_BREAKDOWN=1 also runs the client path cut short in each round (client call only; client
 * and checks) so each part's cost shows; BENCH_FLOOR=1 also runs bench/k6/floor.ts (the per-answer checks and nothing
 * else), the bound of any harness that keeps them in k6. Also reports each scenario's bundle size and the bundling
 * time. Prints a Markdown table and writes reports/bench-harness.json.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { k6BuildOptions } from "../esbuild.config.ts";
import { bundleScenarios } from "../lib/harness/bundle.ts";
import { resolveK6 } from "../lib/harness/k6-binary.ts";
import { K6_CPU_GC, K6_SYSTEM_TAGS } from "../lib/harness/k6-runner.ts";
import { REPO_ROOT } from "../lib/harness/paths.ts";
import { EmbeddedTarget } from "../lib/harness/targets/embedded-target.ts";
import { benchTargets } from "./bench-targets.ts";
import { CHECKS_COST_MARKER } from "./k6/requests.ts";

const VUS = Number(process.env.BENCH_VUS ?? "8");
const SECONDS = Number(process.env.BENCH_SECONDS ?? "15");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "3");
const BREAKDOWN = process.env.BENCH_BREAKDOWN === "1";
/** Also runs bench/k6/floor.ts each round: the least any harness keeping the per-answer checks in k6 must do. */
const FLOOR = process.env.BENCH_FLOOR === "1";
/** "harness" (the default): the harness's side gets K6_CPU_GC as in a harness run; "default": Go's, to weigh it. */
const BENCH_GO_GC = process.env.BENCH_GO_GC ?? "harness";
if (BENCH_GO_GC !== "harness" && BENCH_GO_GC !== "default") {
  console.error(
    `bench:harness: Failed to read BENCH_GO_GC=${BENCH_GO_GC}: it is neither "harness" nor "default". Please set one of them, or leave it unset.`,
  );
  process.exit(2);
}
/** The client path cut short (bench/k6/client-path.ts, BENCH_STEP), for the breakdown. */
const STEPS = [
  { step: "client", label: "client call only" },
  { step: "checks", label: "client + checks" },
] as const;

interface Measure {
  requests: number;
  cpuSeconds: number;
  perCpuSecond: number;
}

function runK6(k6: string, script: string, env: Record<string, string>): Measure {
  const dir = mkdtempSync(path.join(tmpdir(), "atd-bench-"));
  const summary = path.join(dir, "summary.json");
  // bash's `times` prints the CPU time of the shell's finished children: exactly k6's user and system time.
  const result = spawnSync(
    "bash",
    [
      "-c",
      `"$0" run --quiet --vus ${VUS} --duration ${SECONDS}s --system-tags "$1" --summary-export "$2" "$3" >/dev/null 2>&1; times`,
      k6,
      K6_SYSTEM_TAGS.join(","),
      summary,
      script,
    ],
    { env: { ...process.env, ...env, K6_NO_USAGE_REPORT: "true" }, encoding: "utf8" },
  );
  const children = result.stdout.trim().split("\n").at(-1) ?? "";
  const [user, system] = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  const data = JSON.parse(readFileSync(summary, "utf8")) as { metrics: { http_reqs: { count: number } } };
  const cpuSeconds = (user ?? 0) + (system ?? 0);
  return {
    requests: data.metrics.http_reqs.count,
    cpuSeconds,
    perCpuSecond: data.metrics.http_reqs.count / cpuSeconds,
  };
}

/** µs per checkResponse by endpoint (bench/k6/checks-cost.ts), read from the line it logs. */
function runChecksCost(k6: string, script: string, env: Record<string, string>): Record<string, number> {
  const result = spawnSync(k6, ["run", "--quiet", "--log-format", "raw", script], {
    env: { ...process.env, ...env, K6_NO_USAGE_REPORT: "true" },
    encoding: "utf8",
  });
  const line = `${result.stdout}\n${result.stderr}`.split("\n").find((l) => l.startsWith(CHECKS_COST_MARKER));
  if (line === undefined) throw new Error(`Failed to measure the checks' cost: k6 logged no result. ${result.stderr}`);
  return JSON.parse(line.slice(CHECKS_COST_MARKER.length)) as Record<string, number>;
}

async function main(): Promise<void> {
  const k6 = await resolveK6();
  const outdir = path.join(REPO_ROOT, "dist/bench");
  await build({
    ...k6BuildOptions,
    absWorkingDir: REPO_ROOT,
    outdir,
    entryPoints: ["bench/k6/client-path.ts", "bench/k6/bare.ts", "bench/k6/checks-cost.ts", "bench/k6/floor.ts"],
  });

  const started = performance.now();
  const bundles = await bundleScenarios();
  const bundleMs = performance.now() - started;
  const sizes = [...bundles].map(([name, file]) => ({ name, kib: statSync(file).size / 1024 }));

  await using service = await new EmbeddedTarget().withServiceArgs(["--rate-limit", "1000000"]).start();
  const keys = (await service.control.partners()).map((p) => p.apiKey);
  const env = {
    ATD_BASE_URL: service.apiUrl,
    ATD_API_KEYS: keys.join(","),
    BENCH_TARGETS: JSON.stringify(await benchTargets(service.apiUrl, keys[0] ?? "")),
  };

  const rounds = runRounds(k6, outdir, env);
  const { client, bare, floor } = rounds;
  const checksCost = runChecksCost(k6, path.join(outdir, "checks-cost.js"), env);
  const costs = Object.values(checksCost);
  const checksMean = costs.reduce((a, b) => a + b, 0) / costs.length;
  const { ratio, roundRatios } = against(client, bare);
  const floorFigures = against(floor, bare);

  const k6Version = execFileSync(k6, ["version"], { encoding: "utf8" }).split("\n")[0];
  const lines = reportLines(k6Version, rounds, {
    ratio,
    roundRatios,
    floor: floorFigures,
    checksCost,
    checksMean,
    bundleMs,
    sizes,
  });
  console.log(lines.join("\n"));
  mkdirSync(path.join(REPO_ROOT, "reports"), { recursive: true });
  writeFileSync(
    path.join(REPO_ROOT, "reports/bench-harness.json"),
    JSON.stringify(
      {
        vus: VUS,
        seconds: SECONDS,
        systemTags: K6_SYSTEM_TAGS,
        harnessGoGc: BENCH_GO_GC === "harness" ? K6_CPU_GC : "default",
        bare,
        client,
        ratio,
        roundRatios,
        ...(FLOOR ? { floor, floorRatio: floorFigures.ratio, floorRoundRatios: floorFigures.roundRatios } : {}),
        steps: Object.fromEntries(rounds.steps),
        checksCost: { meanMicros: checksMean, byEndpoint: checksCost },
        bundleMs,
        sizes,
      },
      null,
      2,
    ),
  );
}

interface Rounds {
  client: Measure[];
  bare: Measure[];
  floor: Measure[];
  steps: Map<string, Measure[]>;
}

/**
 * A side against bare: the ratio of their best rounds, and each round's own ratio (the two runs of a round are the
 * closest in time, so the closest in machine load).
 */
function against(side: readonly Measure[], bare: readonly Measure[]): { ratio: number; roundRatios: number[] } {
  return {
    ratio: best(side) / best(bare),
    roundRatios: side.map((m, i) => m.perCpuSecond / (bare[i]?.perCpuSecond ?? NaN)),
  };
}

/** The table rows of one side's runs, a row per round. */
function rows(label: string, ms: readonly Measure[]): string[] {
  return ms.map(
    (m, i) =>
      `| ${label} (round ${i + 1}) | ${m.requests} | ${m.cpuSeconds.toFixed(2)} | ${m.perCpuSecond.toFixed(0)} |`,
  );
}

const byRound = (ratios: readonly number[]): string => ratios.map((r) => r.toFixed(2)).join(", ");

/** Requests per k6 CPU second of a side's best round. */
function best(ms: readonly Measure[]): number {
  return Math.max(...ms.map((m) => m.perCpuSecond));
}

/** ROUNDS rounds, each bare http.get, then (with BREAKDOWN) each step of the client path, then the whole path. */
function runRounds(k6: string, outdir: string, env: Record<string, string>): Rounds {
  const client: Measure[] = [];
  const bare: Measure[] = [];
  const floor: Measure[] = [];
  const steps = new Map<string, Measure[]>(STEPS.map((s) => [s.step, []]));
  // The harness's side runs k6 as a harness run does, with its garbage collector target; bare k6 as a user would.
  const harnessEnv = BENCH_GO_GC === "harness" ? { ...env, ...K6_CPU_GC } : env;
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(runK6(k6, path.join(outdir, "bare.js"), env));
    if (BREAKDOWN) {
      for (const { step } of STEPS) {
        steps.get(step)?.push(runK6(k6, path.join(outdir, "client-path.js"), { ...harnessEnv, BENCH_STEP: step }));
      }
    }
    client.push(runK6(k6, path.join(outdir, "client-path.js"), harnessEnv));
    if (FLOOR) floor.push(runK6(k6, path.join(outdir, "floor.js"), harnessEnv));
  }
  return { client, bare, floor, steps };
}

/** The report printed: each run's figures, the ratio, the breakdown, the checks' cost and the bundles. */
function reportLines(
  k6Version: string | undefined,
  { client, bare, floor, steps }: Rounds,
  figures: {
    ratio: number;
    roundRatios: number[];
    floor: { ratio: number; roundRatios: number[] };
    checksCost: Record<string, number>;
    checksMean: number;
    bundleMs: number;
    sizes: { name: string; kib: number }[];
  },
): string[] {
  const { ratio, roundRatios, checksCost, checksMean, bundleMs, sizes } = figures;
  return [
    `k6: ${k6Version}; ${VUS} VUs closed model, ${SECONDS} s per run, ${ROUNDS} rounds alternating, best round each;`,
    `system tags: ${K6_SYSTEM_TAGS.join(",")} (the harness's); the harness's side with ${
      BENCH_GO_GC === "harness"
        ? Object.entries(K6_CPU_GC)
            .map(([k, v]) => `${k}=${v}`)
            .join(" ")
        : "Go's default GC"
    }`,
    "",
    "| side | requests | k6 CPU s | requests per k6 CPU s |",
    "| --- | --- | --- | --- |",
    ...rows("bare http.get", bare),
    ...STEPS.flatMap(({ step, label }) => rows(label, steps.get(step) ?? [])),
    ...rows("harness client path", client),
    ...rows("floor: per-answer checks only", floor),
    "",
    `ratio (harness / bare): ${ratio.toFixed(2)} (goal >= 0.75); by round: ${byRound(roundRatios)}`,
    ...(FLOOR
      ? [`ratio (floor / bare): ${figures.floor.ratio.toFixed(2)}; by round: ${byRound(figures.floor.roundRatios)}`]
      : []),
    ...(BREAKDOWN
      ? [
          "",
          "CPU per request, best round each (µs): " +
            [
              { label: "bare", ms: bare },
              ...STEPS.map(({ step, label }) => ({ label, ms: steps.get(step) ?? [] })),
              { label: "full client path", ms: client },
              ...(FLOOR ? [{ label: "floor", ms: floor }] : []),
            ]
              .map(({ label, ms }) => `${label} ${(1e6 / best(ms)).toFixed(0)}`)
              .join(", "),
        ]
      : []),
    "",
    `shared checks alone, CPU µs per checkResponse (bench/k6/checks-cost.ts): mean ${checksMean.toFixed(1)}; ` +
      Object.entries(checksCost)
        .map(([endpoint, us]) => `${endpoint} ${us.toFixed(1)}`)
        .join(", "),
    "",
    `bundling all ${sizes.length} scenarios: ${bundleMs.toFixed(0)} ms`,
    "",
    "| scenario bundle | KiB |",
    "| --- | --- |",
    ...sizes.map((s) => `| ${s.name} | ${s.kib.toFixed(1)} |`),
  ];
}

await main();
