/**
 * The default target: the reference service as a child process on 127.0.0.1, on ephemeral ports, with a fresh
 * control token. It is watched, so a service that dies mid-run ends the run with a clear message instead of a hang.
 */
import { spawn, type ChildProcess, type ChildProcessByStdio } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { HooksClient } from "../hooks/hooks-client.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { ownChild, throwIfInterrupted } from "../interrupt.ts";
import { SERVICE_MAIN } from "../paths.ts";
import { applyCpuBudget, type CpuBudget } from "./cpu-budget.ts";
import { readSeededKeys } from "./seeded-keys.ts";
import type { StartedTarget } from "./started-target.ts";

const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 3_000;

interface ListeningLine {
  event: "listening";
  api: string;
  control: string;
}

function isListeningLine(value: unknown): value is ListeningLine {
  const v = value as Partial<ListeningLine> | null;
  return v?.event === "listening" && typeof v.api === "string" && typeof v.control === "string";
}

export class EmbeddedTarget {
  #args: string[] = [];
  #logFile: string | undefined;
  #seed: number | undefined;
  #cpus: number | undefined;
  #signal: AbortSignal | undefined;

  /** A signal that abandons the start (Ctrl-C): the service is killed and start() rejects with Interrupted. */
  withSignal(signal: AbortSignal): this {
    this.#signal = signal;
    return this;
  }

  /** Extra service flags (see docs/service.md), e.g. ["--rate-window-seconds", "5"]. */
  withServiceArgs(args: readonly string[]): this {
    this.#args = [...this.#args, ...args];
    return this;
  }

  withSeed(seed: number): this {
    this.#seed = seed;
    return this;
  }

  /**
   * Limits the service to `cores` CPU once it listens (lib/harness/targets/cpu-budget.ts); start-up runs unlimited so
   * a small budget does not turn a 2 s start into a timeout.
   */
  withCpuBudget(cores: number): this {
    this.#cpus = cores;
    return this;
  }

  /** Where the service's stderr goes (kept in the run directory). */
  withLogFile(path: string): this {
    this.#logFile = path;
    return this;
  }

  async start(): Promise<StartedEmbeddedTarget> {
    throwIfInterrupted(this.#signal);
    const token = randomBytes(16).toString("hex");
    // The service writes its seeded keys here before it says "listening": the harness knows the keys of the service it
    // started without the partner-listing hook, which a --hooks required service does not offer.
    // A --keys-file among the service flags is the caller's own: read that one and leave it in place.
    const given = this.#args.indexOf("--keys-file");
    const keysDir = given >= 0 ? undefined : await mkdtemp(path.join(tmpdir(), "atd-keys-"));
    const keysFile = keysDir ? path.join(keysDir, "keys.json") : (this.#args[given + 1] ?? "");
    const args = [
      SERVICE_MAIN,
      ...["--host", "127.0.0.1", "--port", "0", "--control-port", "0", "--control-token", token],
      ...(keysDir ? ["--keys-file", keysFile] : []),
    ];
    if (this.#seed !== undefined) args.push("--seed", String(this.#seed));
    args.push(...this.#args);
    const child = ownChild(
      spawn(process.execPath, ["--disable-warning=ExperimentalWarning", ...args], {
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    const stderrTail: string[] = [];
    child.stderr.on("data", (chunk: Buffer) => {
      stderrTail.push(chunk.toString());
      if (stderrTail.length > 20) stderrTail.shift();
    });
    if (this.#logFile) child.stderr.pipe(createWriteStream(this.#logFile));

    const listening = await this.#listening(child, stderrTail, keysDir);
    const keys = await readSeededKeys(keysFile).finally(() =>
      keysDir ? rm(keysDir, { recursive: true, force: true }) : undefined,
    );
    let budget: CpuBudget | undefined;
    if (this.#cpus !== undefined && child.pid !== undefined) {
      try {
        budget = await applyCpuBudget(child.pid, this.#cpus);
      } catch (error) {
        child.kill("SIGKILL");
        throw error;
      }
    }
    return new StartedEmbeddedTarget(child, listening, token, keys, budget);
  }

  /**
   * Waits for the service's "listening" line; kills it (and drops the keys folder) when it exits first, says nothing
   * within the start timeout, or the run is interrupted.
   */
  #listening(
    child: ChildProcessByStdio<null, Readable, Readable>,
    stderrTail: readonly string[],
    keysDir: string | undefined,
  ): Promise<ListeningLine> {
    return new Promise<ListeningLine>((resolve, reject) => {
      const fail = (why: string | Error) => {
        this.#signal?.removeEventListener("abort", onAbort);
        child.kill("SIGKILL");
        if (keysDir) void rm(keysDir, { recursive: true, force: true });
        if (why instanceof Error) {
          reject(why);
          return;
        }
        const tail = stderrTail.join("").trim().split("\n").slice(-5).join("\n");
        reject(
          new HarnessError(
            `Failed to start the embedded service: ${why}.${tail ? `\n${tail}` : ""}\nPlease check the service flags and that Node 24 runs service/main.ts.`,
            EXIT.target,
          ),
        );
      };
      const timer = setTimeout(() => {
        fail(`no "listening" line within ${START_TIMEOUT_MS / 1000} s`);
      }, START_TIMEOUT_MS);
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        clearTimeout(timer);
        fail(`it exited (${signal ?? `code ${String(code)}`}) before listening`);
      };
      child.once("exit", onExit);
      const onAbort = () => {
        clearTimeout(timer);
        child.removeListener("exit", onExit);
        fail(this.#signal?.reason as Error);
      };
      this.#signal?.addEventListener("abort", onAbort, { once: true });
      if (this.#signal?.aborted) onAbort();
      createInterface({ input: child.stdout }).on("line", (line) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          return;
        }
        if (isListeningLine(parsed)) {
          clearTimeout(timer);
          this.#signal?.removeEventListener("abort", onAbort);
          child.removeListener("exit", onExit);
          resolve(parsed);
        }
      });
    });
  }
}

export class StartedEmbeddedTarget implements StartedTarget {
  readonly kind = "embedded";
  readonly apiUrl: string;
  readonly control: HooksClient;
  readonly died: Promise<string>;
  readonly pid: number | undefined;
  /** The service's CPU budget, when --service-cpus gave one. */
  readonly cpuBudget: CpuBudget | undefined;
  /** The keys the service seeded (from its --keys-file), so the run needs no partner-listing hook. */
  readonly apiKeys: readonly string[];
  #child: ChildProcess;
  #stopping = false;

  constructor(
    child: ChildProcess,
    listening: ListeningLine,
    token: string,
    apiKeys: readonly string[],
    cpuBudget?: CpuBudget,
  ) {
    this.#child = child;
    this.apiKeys = apiKeys;
    this.cpuBudget = cpuBudget;
    this.pid = child.pid;
    this.apiUrl = listening.api;
    this.control = new HooksClient(listening.control, token);
    this.died = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        if (!this.#stopping) resolve(`the embedded service (pid ${child.pid}) exited (${signal ?? `code ${code}`})`);
      });
    });
  }

  async stop(): Promise<void> {
    await this.#stopProcess();
    await this.cpuBudget?.release();
  }

  async #stopProcess(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#stopping = true;
    const exited = new Promise<void>((resolve) => {
      this.#child.once("exit", () => {
        resolve();
      });
    });
    this.#child.kill("SIGTERM");
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}
