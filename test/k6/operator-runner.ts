/**
 * k6 started the way a k6-operator runner pod starts it, for the tests of `harness k8s` manifests: the TestRun's
 * environment, and the arguments the operator gives a runner (k6-operator-commands.ts).
 */
import { execFile } from "node:child_process";
import { resolveK6 } from "../../lib/harness/k6-binary.ts";

export interface K6Result {
  code: number;
  output: string;
}

/** `k6 run <args>` with the environment on top of this process's, bounded to a minute. */
export function k6(args: readonly string[], env: Record<string, string>, cwd?: string): Promise<K6Result> {
  return resolveK6().then(
    (bin) =>
      new Promise((resolve) => {
        execFile(
          bin,
          ["run", ...args],
          { cwd, env: { ...process.env, K6_NO_USAGE_REPORT: "true", ...env }, timeout: 60_000 },
          (error, stdout, stderr) => {
            const code: unknown = error?.code;
            resolve({ code: error ? (typeof code === "number" ? code : 1) : 0, output: stdout + stderr });
          },
        );
      }),
  );
}
