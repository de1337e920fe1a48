/**
 * Runs one bundled scenario in k6 as a child process: passes the run's settings as ATD_* environment variables,
 * sends k6's JSON log to a file (the verdict reads check failures from it), and bounds the run in time. Stopping is
 * graceful first (SIGINT: k6 still writes its summary), forced after a grace period: a short one when the harness
 * itself was interrupted, which must be gone within seconds (lib/harness/interrupt.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { encodeK6Env, type K6Settings } from "../contract/index.ts";
import { Interrupted, ownChild } from "./interrupt.ts";

export interface K6RunRequest {
  k6: string;
  script: string;
  /** The ATD_* variables, typed (encodeK6Env writes them). */
  settings: K6Settings;
  logFile: string;
  /** k6's raw samples as gzipped JSON lines (k6 compresses when the name ends in .gz); the reports read them. */
  rawFile: string;
  /** k6's web-dashboard report, exported there at the end of the run (self-contained HTML; report.html embeds it). */
  dashboardFile?: string;
  /** Streams every sample to a Prometheus remote-write endpoint, trends as native histograms, tagged testid. */
  prometheusRw?: { url: string; testId: string };
  /** Where k6's own stdout (progress bar) goes: the terminal, or a file in CI. */
  progress: "inherit" | { file: string };
  /** Hard bound on the run; k6 is interrupted then. */
  timeoutMs: number;
  /** Aborting interrupts k6 (Ctrl-C, target death). */
  signal: AbortSignal;
  /** This process's share of the test (--segments): k6's --execution-segment and --execution-segment-sequence. */
  /** index: the runner's place in the sequence, its instance_id tag. */
  executionSegment?: { segment: string; sequence: string; index: number };
  /** Go's default garbage collector target for k6, not K6_CPU_GC: a run judged on k6's memory (soak). */
  defaultGoGc?: boolean;
}

export interface K6RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  interrupted: boolean;
}

const KILL_GRACE_MS = 30_000;
/** After Ctrl-C or SIGTERM: time for k6's teardown and summary before it is killed. */
const INTERRUPT_GRACE_MS = 4_000;

export function k6Environment(settings: K6RunRequest["settings"]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    // No phoning home and no automatic extension builds: the harness runs offline.
    K6_NO_USAGE_REPORT: "true",
    K6_AUTO_EXTENSION_RESOLUTION: "false",
  };
  return { ...env, ...encodeK6Env(settings) };
}

/**
 * k6's Go garbage collector in every k6 process the harness starts, but those judged on k6's memory (and not in the
 * k6-operator's runner pods, whose memory the cluster's limits bound): a heap target three times the live heap
 * instead of Go's two, so k6 collects half as often. Collection was about a quarter of k6's CPU in the client path's
 * profile; this gave the client path 12-21% more requests per k6 CPU second (bench:harness, both targets alternating
 * in one run; docs/performance.md) for a heap target 1.5 times Go's. GOGC=400 would keep up to 2.5 times the heap.
 */
export const K6_CPU_GC: Readonly<Record<string, string>> = { GOGC: "200" };

/** The k6 system tags the harness keeps on samples (thresholds, verdict, reports, chaos attribution read them). */
export const K6_SYSTEM_TAGS = [
  "status",
  "method",
  "name",
  "scenario",
  "group",
  "check",
  "error",
  "error_code",
  "expected_response",
] as const;

export function runK6(request: K6RunRequest): Promise<K6RunResult> {
  // Interrupted before k6 started: it is not started at all.
  if (request.signal.aborted) {
    return Promise.resolve({ exitCode: null, signal: null, timedOut: false, interrupted: true });
  }
  const child = ownChild(
    spawn(request.k6, k6Arguments(request), {
      env: k6ProcessEnvironment(request),
      stdio: ["ignore", request.progress === "inherit" ? "inherit" : "pipe", "pipe"],
    }),
  );
  if (request.progress !== "inherit") child.stdout?.pipe(createWriteStream(request.progress.file));
  return superviseK6(child, request);
}

/** k6's command line: its log and raw outputs, the tags kept, the execution segment, remote write, the script. */
function k6Arguments(request: K6RunRequest): string[] {
  const args = [
    "run",
    "--log-format=json",
    `--log-output=file=${request.logFile}`,
    `--out=json=${request.rawFile}`,
    // Every sample carries its tags into the raw file: k6's defaults add url (a distinct value per date and UUID),
    // proto and tls_version, which nothing here reads and which cost k6 about a third of its CPU per request
    // (docs/performance.md, Capacity). Thresholds, the verdict and the reports use only these.
    `--system-tags=${K6_SYSTEM_TAGS.join(",")}`,
    "--no-color",
  ];
  if (request.progress !== "inherit") args.push("--quiet");
  if (request.executionSegment) {
    args.push(
      `--execution-segment=${request.executionSegment.segment}`,
      `--execution-segment-sequence=${request.executionSegment.sequence}`,
      // As the k6-operator tags its runners: without it, runners streaming to one Prometheus write the same series
      // (same labels) and overwrite each other's cumulative values.
      `--tag=instance_id=${String(request.executionSegment.index)}`,
    );
  }
  if (request.prometheusRw) {
    args.push("--out=experimental-prometheus-rw", `--tag=testid=${request.prometheusRw.testId}`);
  }
  args.push(request.script);
  return args;
}

/** k6's environment: the run's settings, the GC target, the dashboard export, the remote-write output's variables. */
function k6ProcessEnvironment(request: K6RunRequest): NodeJS.ProcessEnv {
  const env = k6Environment(request.settings);
  if (!request.defaultGoGc) Object.assign(env, K6_CPU_GC);
  if (request.dashboardFile) {
    // Port -1: no dashboard server (concurrent k6 processes would fight over 5665, and k6 would wait for open
    // browsers); the report is only exported. k6 exports nothing before its first snapshot, so the period is kept
    // well below the run's length (about 300 snapshots over the bound).
    Object.assign(env, {
      K6_WEB_DASHBOARD: "true",
      K6_WEB_DASHBOARD_PORT: "-1",
      K6_WEB_DASHBOARD_EXPORT: request.dashboardFile,
      K6_WEB_DASHBOARD_PERIOD: `${String(Math.min(60, Math.max(1, Math.round(request.timeoutMs / 300_000))))}s`,
    });
  }
  if (request.prometheusRw) {
    // The output's other settings (credentials, headers, TLS, push interval) come from the environment as k6 names
    // them, so a protected remote-write endpoint needs no flag here and its password never shows in a command line.
    for (const [key, value] of Object.entries(process.env)) {
      if (key.startsWith("K6_PROMETHEUS_RW_")) env[key] = value;
    }
    Object.assign(env, {
      K6_PROMETHEUS_RW_SERVER_URL: request.prometheusRw.url,
      // k6 2.x's feature flag for trends as native histograms, as in the k6-operator manifests (its old
      // K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM is a legacy alias that k6 warns about).
      K6_FEATURES: "native-histograms",
    });
  }
  return env;
}

/** Waits for k6: its time bound and an interruption stop it (SIGINT, then SIGKILL after a grace). */
function superviseK6(child: ChildProcess, request: K6RunRequest): Promise<K6RunResult> {
  // k6 writes to stderr only what it could not log to the file (e.g. a script error before logging starts).
  const stderr: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));

  let timedOut = false;
  let interrupted = false;
  let killTimer: NodeJS.Timeout | undefined;
  const interrupt = () => {
    if (child.exitCode !== null || killTimer) return;
    child.kill("SIGINT");
    const grace = request.signal.reason instanceof Interrupted ? INTERRUPT_GRACE_MS : KILL_GRACE_MS;
    killTimer = setTimeout(() => child.kill("SIGKILL"), grace);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    interrupt();
  }, request.timeoutMs);
  const onAbort = () => {
    interrupted = true;
    interrupt();
  };
  request.signal.addEventListener("abort", onAbort, { once: true });

  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode, signal) => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      request.signal.removeEventListener("abort", onAbort);
      if (stderr.length) process.stderr.write(stderr.join(""));
      resolve({ exitCode, signal, timedOut, interrupted });
    });
  });
}
