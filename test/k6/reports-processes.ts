/**
 * Processes the report tests start: `harness report`, and the real Prometheus and Pushgateway programs (Debian
 * packages prometheus, prometheus-pushgateway) on a free loopback port with a temporary data directory. `await using`
 * stops them and removes the directory; every wait is bounded.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO_ROOT } from "../../lib/harness/paths.ts";

export interface StartedServer extends AsyncDisposable {
  url: string;
  /** What the program printed, for failure messages. */
  output: () => string;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** The program's path, or an error that says which package provides it (tests need it: none skips quietly). */
export function requireProgram(name: string, debianPackage: string): string {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
  if (!found) {
    throw new Error(
      `Failed to find ${name} on PATH: the export tests run the real program. Please install it: apt-get install -y ${debianPackage}.`,
    );
  }
  return found;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("Failed to pick a free port: no address."));
      });
    });
  });
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Failed to start ${url}: it exited early.\n${output()}`);
    const ok = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Failed to start ${url}: not ready within ${String(READY_TIMEOUT_MS / 1000)} s.\n${output()}`);
}

async function start(
  program: string,
  args: (port: number, dir: string) => string[],
  dir: string,
): Promise<StartedServer> {
  const port = await freePort();
  const child = spawn(program, args(port, dir), { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (c: Buffer) => (log += c.toString()));
  child.stderr.on("data", (c: Buffer) => (log += c.toString()));
  const url = `http://127.0.0.1:${String(port)}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, output: () => log, [Symbol.asyncDispose]: stop };
}

export async function startPushgateway(): Promise<StartedServer> {
  const program = requireProgram("prometheus-pushgateway", "prometheus-pushgateway");
  const dir = await mkdtemp(path.join(tmpdir(), "atd-pushgateway-"));
  return start(
    program,
    (port, d) => [`--web.listen-address=127.0.0.1:${String(port)}`, `--persistence.file=${path.join(d, "pg.data")}`],
    dir,
  );
}

/** Prometheus with the remote-write receiver on and native histograms accepted (k6 sends trends as those). */
export async function startPrometheus(): Promise<StartedServer> {
  const program = requireProgram("prometheus", "prometheus");
  const dir = await mkdtemp(path.join(tmpdir(), "atd-prometheus-"));
  await writeFile(path.join(dir, "prometheus.yml"), "global:\n  scrape_interval: 15s\n");
  return start(
    program,
    (port, d) => [
      `--config.file=${path.join(d, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(d, "data")}`,
      `--web.listen-address=127.0.0.1:${String(port)}`,
      "--web.enable-remote-write-receiver",
      "--enable-feature=native-histograms",
    ],
    dir,
  );
}

/** Polls until check returns a value (not undefined), within timeoutMs. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Failed to see ${what} within ${String(timeoutMs / 1000)} s.`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** `harness report ...` as a child process (runHarnessProcess adds --out, which report has not). */
export function harnessReport(args: readonly string[]): Promise<{ exitCode: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, "scripts/harness.js"), "report", ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, CI: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => {
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}
