/** Finds (or builds, first time) the pinned k6 binary through scripts/ensure-k6, the one place that knows the pin. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { EXIT, HarnessError } from "./exit-codes.ts";
import { ENSURE_K6 } from "./paths.ts";

const run = promisify(execFile);

let cached: Promise<string> | undefined;

export function resolveK6(): Promise<string> {
  cached ??= run(ENSURE_K6, [], { timeout: 20 * 60_000, maxBuffer: 16 * 1024 * 1024 })
    .then(({ stdout }) => {
      const path = stdout.trim().split("\n").pop();
      if (!path) throw new Error("scripts/ensure-k6 printed no path");
      return path;
    })
    .catch((error: unknown) => {
      cached = undefined;
      const stderr = (error as { stderr?: string }).stderr?.trim();
      throw new HarnessError(
        stderr || `Failed to find k6: ${String(error)}. Please run scripts/ensure-k6.`,
        EXIT.usage,
      );
    });
  return cached;
}
