/** Runs the `harness` command as a child process, the way a person or CI does, and reads its run directory. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { inRunSlot } from "./run-slots.ts";

export interface HarnessProcessResult {
  exitCode: number | null;
  output: string;
  summary: RunSummary | undefined;
  runDir: string | undefined;
  /**
   * With `sampleCpu`: the CPU time the harness process used (user and system), as last sampled before it exited (up to
   * CPU_SAMPLE_MS short). What a run costs, whatever else the machine is doing; its wall time is not.
   */
  cpuMs?: number;
}

export interface HarnessProcessOptions {
  /** Called with each line of output as it comes (e.g. to kill the service once it is up). */
  onLine?: (line: string) => void;
  /** Called with the harness process once it is spawned (e.g. to send it a signal). */
  onStart?: (child: ChildProcess) => void;
  timeoutMs?: number;
  /** Variables added to the harness's environment. */
  env?: Record<string, string>;
  /** --out as given (default: a fresh temporary folder, where runDir is looked for). */
  out?: string;
  /**
   * The harness leads a process group of its own (what it starts, k6 and the service, is in it), so a test can list
   * what outlived it: processesInGroup(pid).
   */
  ownGroup?: boolean;
  /** Sample the harness's CPU time while it runs (cpuMs). */
  sampleCpu?: boolean;
}

const CPU_SAMPLE_MS = 20;
let clockTicks: number | undefined;

/** User plus system CPU time of a running process, in ms (Linux /proc), or undefined once it is gone. */
function cpuTimeMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    clockTicks ??= Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

/** Runs the harness once a run slot is free (test/k6/run-slots.ts: a cap across the test files running at once). */
export function runHarnessProcess(
  args: readonly string[],
  options: HarnessProcessOptions = {},
): Promise<HarnessProcessResult> {
  return inRunSlot(() => spawnHarness(args, options));
}

function spawnHarness(args: readonly string[], options: HarnessProcessOptions): Promise<HarnessProcessResult> {
  const outDir = options.out ?? mkdtempSync(path.join(tmpdir(), "atd-run-"));
  const child = spawn(process.execPath, [path.join(REPO_ROOT, "scripts/harness.js"), ...args, "--out", outDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, CI: "true", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.ownGroup === true,
  });
  options.onStart?.(child);
  let cpuMs: number | undefined;
  const sampler = options.sampleCpu
    ? setInterval(() => {
        cpuMs = (child.pid === undefined ? undefined : cpuTimeMs(child.pid)) ?? cpuMs;
      }, CPU_SAMPLE_MS)
    : undefined;
  let output = "";
  let pending = "";
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) options.onLine?.(line);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 150_000);
  return new Promise((resolve) => {
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      clearInterval(sampler);
      let runs: string[] = [];
      try {
        runs = readdirSync(outDir);
      } catch {
        // An --out the harness refused to make.
      }
      const runDir = runs[0] ? path.join(outDir, runs[0]) : undefined;
      let summary: RunSummary | undefined;
      try {
        summary = runDir
          ? (JSON.parse(readFileSync(path.join(runDir, "summary.json"), "utf8")) as RunSummary)
          : undefined;
      } catch {
        summary = undefined;
      }
      resolve({ exitCode, output, summary, runDir, ...(cpuMs === undefined ? {} : { cpuMs }) });
    });
  });
}

/** Processes still running in a process group (Linux /proc): what a harness that led it left behind. */
export function processesInGroup(group: number): string[] {
  const found: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so the fields are read after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === group && fields[0] !== "Z")
      found.push(`${entry} ${stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))}`);
  }
  return found;
}

/**
 * A limiter for harness runs started together (it.concurrent, Promise.all): at most `parallel` at once. Each run is
 * short, and more than two at a time would starve each other on two cores.
 */
export function runLimiter(parallel: number): <T>(run: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (running >= parallel) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await run();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** Names of the failed checks of every scenario and extension of a run, sorted, without repeats. */
export function failedChecks(result: HarnessProcessResult): string[] {
  const parts = [...(result.summary?.scenarios ?? []), ...(result.summary?.extensions ?? [])];
  return [...new Set(parts.flatMap((p) => p.checks.filter((c) => c.verdict === "fail").map((c) => c.name)))].sort();
}

/** A file in a fresh temporary directory: text as it is, anything else as JSON (SLO, traffic, keys files...). */
export function tempFile(name: string, content: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "atd-")), name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

/** A harness command that writes no run directory (compare, baseline, list): its exit code and output. */
export function runHarnessCommand(args: readonly string[]): { exitCode: number | null; output: string } {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts/harness.js"), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, CI: "true" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { exitCode: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every file of a run directory as text (gzipped ones unpacked), by name: what a scan for leaked keys reads. */
export function runFiles(dir: string): [string, string][] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      const bytes = readFileSync(file);
      return [path.relative(dir, file), (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8")];
    });
}

/** Every webhook secret has this form (Standard Webhooks), whoever made it: the sink's, an operator's. */
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/]{8,}/;

/**
 * Where a secret is in a run: each file of the run directory (gzipped ones unpacked, k6's raw samples included) and
 * the harness's output that holds one of `secrets` or any webhook secret, as "file: what". Empty: none leaked.
 */
export function secretLeaks(result: HarnessProcessResult, secrets: readonly string[]): string[] {
  const texts: [string, string][] = [
    ...(result.runDir ? runFiles(result.runDir) : []),
    ["the harness's output", result.output],
  ];
  return texts.flatMap(([name, text]) => [
    ...secrets.filter((s) => text.includes(s)).map((s) => `${name}: a secret ending ${s.slice(-4)}`),
    ...(WEBHOOK_SECRET.test(text) ? [`${name}: a webhook secret`] : []),
  ]);
}
