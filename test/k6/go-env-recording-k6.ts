/**
 * k6 as the harness finds it (K6_BIN), writing the Go runtime variables it was started with (GOGC, GOMEMLIMIT, ...)
 * to a file before it runs: what the harness gives k6's garbage collector is seen from outside, as k6 sees it.
 */
import { readFileSync } from "node:fs";
import { tempFile } from "./harness-process.ts";
import { wrappedK6 } from "./wrapped-k6.ts";

export interface GoEnvRecordingK6 {
  /** The environment to run the harness with. */
  env: Record<string, string>;
  /** The GO* variables of k6's last `k6 run`, as NAME=value lines. */
  recorded(): string[];
}

export async function goEnvRecordingK6(): Promise<GoEnvRecordingK6> {
  const record = tempFile("k6-go-env", "");
  return {
    env: await wrappedK6(`[ "$1" = run ] && { env | grep '^GO' || true; } > "${record}"`),
    recorded: () => readFileSync(record, "utf8").split("\n").filter(Boolean).sort(),
  };
}
