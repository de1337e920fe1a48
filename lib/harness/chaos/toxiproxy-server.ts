/**
 * toxiproxy-server as a child process of the harness on a free loopback port: found (or built, first time) through
 * scripts/ensure-toxiproxy, the one place that knows the pin; ready when its API answers; always killed, also when
 * the harness exits early (an exit hook kills it synchronously).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { EnsureScriptError, runEnsureScript } from "../ensure-script.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { REPO_ROOT } from "../paths.ts";
import { ToxiproxyClient } from "./toxiproxy-client.ts";

export const ENSURE_TOXIPROXY = path.join(REPO_ROOT, "scripts", "ensure-toxiproxy");

let cached: Promise<string> | undefined;

/** toxiproxy-server's path; a first build's progress goes to `say` (lib/harness/ensure-script.ts), else nothing. */
export function resolveToxiproxy(say?: (line: string) => void): Promise<string> {
  cached ??= runEnsureScript(ENSURE_TOXIPROXY, { tool: "toxiproxy-server", timeoutMs: 10 * 60_000, say }).catch(
    (error: unknown) => {
      cached = undefined;
      const stderr = error instanceof EnsureScriptError ? error.stderr : "";
      throw new HarnessError(
        stderr || `Failed to find toxiproxy-server: ${String(error)}. Please run scripts/ensure-toxiproxy.`,
        EXIT.usage,
      );
    },
  );
  return cached;
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 3000;

export class ToxiproxyServer {
  readonly client: ToxiproxyClient;
  readonly #child: ChildProcess;
  readonly #killOnExit = () => {
    this.#child.kill("SIGKILL");
  };

  private constructor(child: ChildProcess, client: ToxiproxyClient) {
    this.#child = child;
    this.client = client;
    process.once("exit", this.#killOnExit);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Starts toxiproxy-server, logging to logFile, and waits until its API answers. */
  static async start(options: {
    logFile: string;
    seed: number;
    say?: (line: string) => void;
  }): Promise<ToxiproxyServer> {
    const binary = await resolveToxiproxy(options.say);
    const port = await freePort();
    const log = createWriteStream(options.logFile, { flags: "a" });
    const child = spawn(binary, ["-host", "127.0.0.1", "-port", String(port), "-seed", String(options.seed)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    const server = new ToxiproxyServer(child, new ToxiproxyClient(`http://127.0.0.1:${port}`));
    let exited: string | undefined;
    child.once("exit", (code, signal) => {
      exited = `exited with ${code ?? signal}`;
    });
    child.once("error", (error) => {
      exited = error.message;
    });
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (exited !== undefined) break;
      try {
        await server.client.version();
        return server;
      } catch {
        if (Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await server.stop();
    throw new HarnessError(
      `Failed to start toxiproxy-server on 127.0.0.1:${port}: ${exited ?? `no answer within ${READY_TIMEOUT_MS / 1000} s`}. Please look at ${options.logFile}.`,
      EXIT.usage,
    );
  }

  /** Stops the server (SIGTERM, then SIGKILL after a moment); safe to call more than once. */
  async stop(): Promise<void> {
    process.removeListener("exit", this.#killOnExit);
    const child = this.#child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) =>
      child.once("exit", () => {
        resolve();
      }),
    );
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
}
