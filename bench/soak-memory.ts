/**
 * npm run bench:soak-memory: how fast the k6 process's memory grows in a harness soak, against bare k6 at the same
 * request rate to the same kind of service.
 *
 * Two sides, one after the other (BENCH_SIDES, default "harness,bare"):
 * - harness: `harness run soak --duration BENCH_SECONDS` as a user runs it (embedded reference service, churn and
 *   webhook sink as the soak's defaults; BENCH_HARNESS_ARGS adds flags), its k6 child found in /proc;
 * - bare: bench/k6/bare.ts as an open model at the harness side's request rate (BENCH_RATE when the harness side
 *   does not run here), two thresholds, the harness's system tags, against an embedded reference service.
 * Each k6 process's RSS is read from /proc every 5 s; after a warm-up (BENCH_WARMUP_SECONDS, default a third of the
 * run) the slope of RSS over time is fitted by least squares (simple-statistics), in MiB per hour. Goal (issue 29):
 * the harness's slope at most 1.5 times bare k6's. A side run alone keeps the other side's last figures from
 * reports/bench-soak-memory.json (with their date), so the two sides can be measured in two sittings.
 * Prints a Markdown table and writes reports/bench-soak-memory.json.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { linearRegression } from "simple-statistics";
import { k6BuildOptions } from "../esbuild.config.ts";
import { resolveK6 } from "../lib/harness/k6-binary.ts";
import { K6_SYSTEM_TAGS } from "../lib/harness/k6-runner.ts";
import { REPO_ROOT } from "../lib/harness/paths.ts";
import { EmbeddedTarget } from "../lib/harness/targets/embedded-target.ts";
import { benchTargets } from "./bench-targets.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? "600");
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? String(Math.round(SECONDS / 3)));
const SIDES = (process.env.BENCH_SIDES ?? "harness,bare").split(",");
/** More flags for the harness side (e.g. "--no-churn --no-webhooks"), to measure a piece of the soak apart. */
const HARNESS_ARGS = (process.env.BENCH_HARNESS_ARGS ?? "").split(" ").filter((a) => a !== "");
const SAMPLE_MS = 5000;
/** The goal of issue 29: the harness's k6 grows at most this many times as fast as bare k6's. */
const GOAL_RATIO = 1.5;
const REPORT = path.join(REPO_ROOT, "reports/bench-soak-memory.json");

interface SideResult {
  date: string;
  requests: number;
  requestsPerSecond: number;
  /** The harness command's exit code (harness side: 1 when a check failed) or k6's (bare side: 99 when a threshold did). */
  exitCode: number | null;
  rssStartMiB: number;
  rssAfterWarmupMiB: number;
  rssEndMiB: number;
  slopeMiBPerHour: number;
  /** Seconds since k6 started, RSS in MiB. */
  samples: [number, number][];
}

function rssMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${String(pid)}/status`, "utf8"))?.[1];
    return kb === undefined ? NaN : Number(kb) / 1024;
  } catch {
    return NaN; // the process has just ended
  }
}

/** The k6 child of a process, from /proc (the harness starts k6 itself). */
function k6ChildOf(parent: number): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // comm is in parentheses and may hold spaces; the parent pid is the second field after it.
      const afterComm = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (stat.includes("(k6)") && Number(afterComm[1]) === parent) return Number(entry);
    } catch {
      // gone between readdir and read
    }
  }
  return undefined;
}

/** Samples a process's RSS every SAMPLE_MS until stopped; the time axis starts when sampling does. */
function sampleRss(pid: () => number | undefined): { stop: () => [number, number][] } {
  const samples: [number, number][] = [];
  let t0: number | undefined;
  const timer = setInterval(() => {
    const p = pid();
    if (p === undefined) return;
    t0 ??= Date.now();
    const rss = rssMiB(p);
    if (!Number.isNaN(rss)) samples.push([(Date.now() - t0) / 1000, rss]);
  }, SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return samples;
    },
  };
}

/** The least-squares slope of RSS over the samples from `fromSeconds` on, in MiB per hour. */
function slopeFrom(samples: [number, number][], fromSeconds: number): number {
  const after = samples.filter(([t]) => t >= fromSeconds);
  if (after.length < 3)
    throw new Error(
      `Failed to fit the RSS slope: fewer than 3 samples after ${String(fromSeconds)} s. Please raise BENCH_SECONDS or lower BENCH_WARMUP_SECONDS.`,
    );
  return Number(linearRegression(after.map(([t, rss]) => [t / 3600, rss])).m.toFixed(1));
}

/**
 * The slope over the last third of the samples' span alone: a fill that ends during the run (each VU meeting each key,
 * the heap's first peaks) weighs on the figure after the warm-up and not here, so the two together show whether
 * growth is settling; the goal stays on the figure after the warm-up. Derived from the samples, so a side kept from an
 * earlier run has it too.
 */
function lastThirdSlope(samples: [number, number][]): number {
  return slopeFrom(samples, ((samples.at(-1)?.[0] ?? 0) * 2) / 3);
}

function fit(
  samples: [number, number][],
): Pick<SideResult, "rssStartMiB" | "rssAfterWarmupMiB" | "rssEndMiB" | "slopeMiBPerHour"> {
  const after = samples.filter(([t]) => t >= WARMUP_SECONDS);
  return {
    rssStartMiB: Math.round(samples[0]?.[1] ?? NaN),
    rssAfterWarmupMiB: Math.round(after[0]?.[1] ?? NaN),
    rssEndMiB: Math.round(after.at(-1)?.[1] ?? NaN),
    slopeMiBPerHour: slopeFrom(samples, WARMUP_SECONDS),
  };
}

/** A harness soak as a user runs it; the k6 process's RSS sampled meanwhile. */
async function harnessSide(): Promise<SideResult> {
  const out = mkdtempSync(path.join(tmpdir(), "atd-bench-soak-"));
  const harness = spawn(
    process.execPath,
    [
      ...[path.join(REPO_ROOT, "scripts/harness.js"), "run", "soak", "--duration", `${String(SECONDS)}s`, "--out", out],
      ...HARNESS_ARGS,
    ],
    { stdio: "ignore", cwd: REPO_ROOT },
  );
  let k6: number | undefined;
  const sampler = sampleRss(() => (k6 ??= k6ChildOf(harness.pid ?? -1)));
  const exitCode = await new Promise<number | null>((resolve) => harness.once("exit", resolve));
  const samples = sampler.stop();
  const runDir = readdirSync(out).find((d) => d.includes("soak"));
  const summaryFile = path.join(out, runDir ?? "", "k6-summary-soak.json");
  let http: { count: number; rate: number };
  try {
    http = (JSON.parse(readFileSync(summaryFile, "utf8")) as { metrics: { http_reqs: { values: typeof http } } })
      .metrics.http_reqs.values;
  } catch {
    throw new Error(
      `Failed to read the harness soak's k6 summary: the run (exit ${String(exitCode)}) left none. Please look at ${out}.`,
    );
  }
  return {
    date: new Date().toISOString(),
    requests: http.count,
    requestsPerSecond: http.rate,
    exitCode,
    samples,
    ...fit(samples),
  };
}

/** Bare k6 at a request rate: bench/k6/bare.ts as an open model, against an embedded reference service. */
async function bareSide(rate: number): Promise<SideResult> {
  const k6 = await resolveK6();
  const outdir = path.join(REPO_ROOT, "dist/bench");
  await build({ ...k6BuildOptions, absWorkingDir: REPO_ROOT, outdir, entryPoints: ["bench/k6/bare.ts"] });
  await using service = await new EmbeddedTarget().start();
  const keys = (await service.control.partners()).map((p) => p.apiKey);
  const dir = mkdtempSync(path.join(tmpdir(), "atd-bench-soak-"));
  const summary = path.join(dir, "summary.json");
  const args = ["run", "--quiet", "--system-tags", K6_SYSTEM_TAGS.join(","), "--summary-export", summary];
  const bare = spawn(k6, [...args, path.join(outdir, "bare.js")], {
    stdio: "ignore",
    env: {
      ...process.env,
      K6_NO_USAGE_REPORT: "true",
      ATD_BASE_URL: service.apiUrl,
      ATD_API_KEYS: keys.join(","),
      BENCH_TARGETS: JSON.stringify(await benchTargets(service.apiUrl, keys[0] ?? "")),
      BENCH_RATE: String(rate),
      BENCH_DURATION: `${String(SECONDS)}s`,
    },
  });
  const sampler = sampleRss(() => bare.pid);
  const exitCode = await new Promise<number | null>((resolve) => bare.once("exit", resolve));
  const samples = sampler.stop();
  // 99: a threshold failed, which says nothing about memory; anything else is k6's own failure.
  if (exitCode !== 0 && exitCode !== 99) {
    throw new Error(
      `Failed to run bare k6: it exited ${String(exitCode)}. Please run bench/k6/bare.ts by hand to see why.`,
    );
  }
  const http = (
    JSON.parse(readFileSync(summary, "utf8")) as { metrics: { http_reqs: { count: number; rate: number } } }
  ).metrics.http_reqs;
  return {
    date: new Date().toISOString(),
    requests: http.count,
    requestsPerSecond: http.rate,
    exitCode,
    samples,
    ...fit(samples),
  };
}

function earlier(): Partial<Record<"harness" | "bare", SideResult>> {
  try {
    return (JSON.parse(readFileSync(REPORT, "utf8")) as { sides: Partial<Record<"harness" | "bare", SideResult>> })
      .sides;
  } catch {
    return {};
  }
}

async function main(): Promise<void> {
  const sides = earlier();
  if (SIDES.includes("harness")) sides.harness = await harnessSide();
  if (SIDES.includes("bare")) {
    const rate = Math.round(sides.harness?.requestsPerSecond ?? Number(process.env.BENCH_RATE ?? "60"));
    sides.bare = await bareSide(rate);
  }
  const ratio = (sides.harness?.slopeMiBPerHour ?? NaN) / (sides.bare?.slopeMiBPerHour ?? NaN);
  const lastThird = (r: SideResult | undefined): number => (r === undefined ? NaN : lastThirdSlope(r.samples));
  const lastThirdRatio = lastThird(sides.harness) / lastThird(sides.bare);
  const k6Version = spawnSync(await resolveK6(), ["version"], { encoding: "utf8" }).stdout.split("\n")[0];
  const lines = [
    `${k6Version ?? "k6"}; ${String(SECONDS)} s per side, warm-up ${String(WARMUP_SECONDS)} s, RSS every ${String(SAMPLE_MS / 1000)} s`,
    "",
    "| side | measured | requests/s | exit | RSS start | RSS after warm-up | RSS end | slope after warm-up | slope, last third |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...Object.entries(sides).map(
      ([side, r]) =>
        `| ${side} | ${r.date} | ${r.requestsPerSecond.toFixed(1)} | ${String(r.exitCode)} | ${String(r.rssStartMiB)} MiB | ${String(r.rssAfterWarmupMiB)} MiB | ${String(r.rssEndMiB)} MiB | ${r.slopeMiBPerHour.toFixed(1)} MiB/h | ${lastThird(r).toFixed(1)} MiB/h |`,
    ),
    "",
    `harness / bare k6, growth: ${ratio.toFixed(2)} (goal <= ${String(GOAL_RATIO)}); over the last third ${lastThirdRatio.toFixed(2)}`,
  ];
  console.log(lines.join("\n"));
  mkdirSync(path.dirname(REPORT), { recursive: true });
  writeFileSync(
    REPORT,
    `${JSON.stringify({ seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, sides, ratio, lastThirdRatio, goalRatio: GOAL_RATIO }, null, 2)}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(`bench:soak-memory: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
