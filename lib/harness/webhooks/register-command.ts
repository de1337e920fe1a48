/**
 * Registration of the webhook sink by the operator's own command (--webhook-register-cmd), for a target without test
 * hooks: only the operator knows how their deployment takes a partner's webhook URL and secret (an admin API, a CLI,
 * a database row). The harness runs the command once per key through the shell, with the key, the URL and the secret
 * in its environment, and keeps its output in the run directory (the secret is in the environment, never in argv).
 */
import { spawn } from "node:child_process";
import { ownChild } from "../interrupt.ts";
import { appendFile } from "node:fs/promises";
import { EXIT, HarnessError } from "../exit-codes.ts";

export const REGISTER_LOG = "webhook-register.log";
/** A registration is one API call or so: a minute is generous, and a hung command must not hold the run. */
export const REGISTER_TIMEOUT_MS = 60_000;

export interface Registration {
  /** Index of the key in the run's keys (the sink's endpoint). */
  index: number;
  apiKey: string;
  url: string;
  secret: string;
}

export interface RegisterCommandOptions {
  command: string;
  registrations: readonly Registration[];
  /** Where the command's output goes (appended, one block per key). */
  logFile: string;
  timeoutMs?: number;
}

interface Outcome {
  /** Exit code; undefined when the command was killed (timeout) or could not start. */
  code: number | undefined;
  timedOut: boolean;
  output: string;
}

function runOnce(command: string, env: Record<string, string>, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = ownChild(
      spawn(command, {
        shell: true,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
        // Its own process group, so that a timeout ends the shell and whatever it started.
        detached: true,
      }),
      true,
    );
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: undefined, timedOut, output: `${output}${error.message}\n` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? undefined, timedOut, output });
    });
  });
}

/**
 * Runs the command once per key, in key order, and stops at the first failure: a HarnessError (exit 2) naming the
 * command, its exit code (or the timeout) and the key's index (never the key itself).
 */
export async function runRegisterCommand(options: RegisterCommandOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? REGISTER_TIMEOUT_MS;
  for (const r of options.registrations) {
    const outcome = await runOnce(
      options.command,
      { HARNESS_WEBHOOK_API_KEY: r.apiKey, HARNESS_WEBHOOK_URL: r.url, HARNESS_WEBHOOK_SECRET: r.secret },
      timeoutMs,
    );
    const how = outcome.timedOut
      ? `did not finish within ${timeoutMs / 1000} s`
      : outcome.code === undefined
        ? "could not be started"
        : `exited ${outcome.code}`;
    await appendFile(
      options.logFile,
      `--- key #${r.index} (${r.url}): ${outcome.code === 0 && !outcome.timedOut ? "registered" : how}\n${outcome.output}`,
    ).catch(() => undefined);
    if (outcome.code !== 0 || outcome.timedOut) {
      throw new HarnessError(
        `Failed to register the webhook sink: ${options.command} ${how} for key #${r.index}. Please check its output in ${options.logFile}; the command gets the key, the URL and the secret in HARNESS_WEBHOOK_API_KEY, HARNESS_WEBHOOK_URL and HARNESS_WEBHOOK_SECRET and must exit 0 once the key's webhook endpoint is set.`,
        EXIT.usage,
      );
    }
  }
}
