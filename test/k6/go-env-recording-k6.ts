/**
 * k6 as the harness finds it (K6_BIN), writing the Go runtime variables it was started with (GOGC, GOMEMLIMIT, ...)
 * to a file before it runs: what the harness gives k6's garbage collector is seen from outside, as k6 sees it.
 */
import { chmodSync, readFileSync } from "node:fs";
import { findBuiltK6 } from "../../lib/harness/k6-binary.ts";
import { tempFile } from "./harness-process.ts";

export interface GoEnvRecordingK6 {
  /** The environment to run the harness with. */
  env: Record<string, string>;
  /** The GO* variables of k6's last `k6 run`, as NAME=value lines. */
  recorded(): string[];
}

export async function goEnvRecordingK6(): Promise<GoEnvRecordingK6> {
  const built = await findBuiltK6();
  if ("missing" in built) throw new Error(built.missing);
  const record = tempFile("k6-go-env", "");
  const wrapper = tempFile(
    "k6",
    `#!/bin/sh\n[ "$1" = run ] && { env | grep '^GO' || true; } > "${record}"\nexec "${built.path}" "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  return {
    env: { K6_BIN: wrapper },
    recorded: () => readFileSync(record, "utf8").split("\n").filter(Boolean).sort(),
  };
}
