/**
 * Runs one of the scripts/ensure-* scripts (k6, Toxiproxy), which print a binary's path on the last line of stdout and
 * build it with Go on first use. A first build takes minutes, so whatever the script says on stderr is passed on to
 * the run's `say` as it comes, and an elapsed-time line follows every tick while it builds; a tool that is already
 * there says nothing, so a normal run shows no extra line.
 */
import { spawn } from "node:child_process";
import { ownChild } from "./interrupt.ts";

export interface EnsureScriptOptions {
  /** What is being fetched or built, for the elapsed-time lines (e.g. "k6"). */
  tool: string;
  timeoutMs: number;
  say?: (line: string) => void;
  /** How often an elapsed-time line is said once the script has started to speak (building). */
  tickMs?: number;
}

/** A script that failed: its stderr, which by the scripts' convention ends with what to change. */
export class EnsureScriptError extends Error {
  override name = "EnsureScriptError";
  readonly stderr: string;

  constructor(message: string, stderr: string) {
    super(message);
    this.stderr = stderr;
  }
}

/** Go's one line per module fetched: counted in the elapsed-time lines instead of flooding the terminal. */
const GO_DOWNLOADING = /^go: downloading /;

/** Runs the script; resolves to the last line of its stdout (the binary's path). */
export function runEnsureScript(script: string, options: EnsureScriptOptions): Promise<string> {
  const say = options.say ?? (() => undefined);
  const tickMs = options.tickMs ?? 15_000;
  return new Promise((resolve, reject) => {
    // Its own process group, so that a timeout or the harness's end stops the build it runs (go build) too.
    const child = ownChild(spawn(script, [], { stdio: ["ignore", "pipe", "pipe"], detached: true }), true);
    const startedAt = Date.now();
    let stdout = "";
    let stderr = "";
    let pending = "";
    let downloads = 0;
    let ticker: NodeJS.Timeout | undefined;
    const tick = () => {
      const seconds = Math.round((Date.now() - startedAt) / 1000);
      const fetched = downloads ? `, ${String(downloads)} Go modules fetched` : "";
      say(`  still building ${options.tool}: ${String(seconds)} s so far${fetched}`);
    };
    const line = (text: string) => {
      if (text.trim() === "") return;
      ticker ??= setInterval(tick, tickMs);
      if (GO_DOWNLOADING.test(text)) downloads += 1;
      else say(`  ${text}`);
    };
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      stderr += text;
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const l of lines) line(l);
    });
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      // Anything of the group that still holds the pipes open must not keep the run waiting: stop reading them.
      child.stdout.destroy();
      child.stderr.destroy();
    }, options.timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      clearInterval(ticker);
      reject(new EnsureScriptError(`${script} did not start (${error.message})`, stderr));
    });
    child.once("close", (code, signal) => {
      line(pending);
      clearTimeout(timer);
      clearInterval(ticker);
      const found = stdout.trim().split("\n").pop();
      if (code === 0 && found) {
        resolve(found);
        return;
      }
      const why =
        signal === "SIGKILL" && Date.now() - startedAt >= options.timeoutMs
          ? `ran past ${String(options.timeoutMs / 1000)} s`
          : code === 0
            ? "printed no path"
            : `exited with ${String(code ?? signal)}`;
      reject(new EnsureScriptError(`${script} ${why}`, stderr.trim()));
    });
  });
}
