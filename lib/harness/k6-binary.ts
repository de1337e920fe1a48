/** Finds (or builds, first time) the pinned k6 binary through scripts/ensure-k6, the one place that knows the pin. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { EnsureScriptError, runEnsureScript } from "./ensure-script.ts";
import { EXIT, HarnessError } from "./exit-codes.ts";
import { ENSURE_K6 } from "./paths.ts";

let cached: Promise<string> | undefined;

/**
 * The k6 binary's path. A first build takes minutes: `say` gets the script's own lines ("Building k6 ... first run
 * only") and an elapsed-time line every 15 s; with k6 already there it gets nothing.
 */
export function resolveK6(say?: (line: string) => void): Promise<string> {
  cached ??= runEnsureScript(ENSURE_K6, { tool: "k6", timeoutMs: 20 * 60_000, say }).catch((error: unknown) => {
    cached = undefined;
    const stderr = error instanceof EnsureScriptError ? error.stderr : "";
    throw new HarnessError(stderr || `Failed to find k6: ${String(error)}. Please run scripts/ensure-k6.`, EXIT.usage);
  });
  return cached;
}

/** The k6 a run would use and its version line, or why there is none yet; never builds (harness --version). */
export async function findBuiltK6(): Promise<{ path: string; version: string } | { missing: string }> {
  let found: string;
  try {
    found = (await promisify(execFile)(ENSURE_K6, ["--no-build"], { timeout: 30_000 })).stdout.trim();
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    return { missing: stderr || String(error) };
  }
  const k6 = found.split("\n").pop() ?? found;
  const { stdout } = await promisify(execFile)(k6, ["version"], { timeout: 30_000 });
  return { path: k6, version: stdout.trim().split("\n")[0] ?? "" };
}
