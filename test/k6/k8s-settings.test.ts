/**
 * `harness k8s` takes --profile, --duration, --slo and --traffic from the same settings table as `harness run`
 * (lib/harness/run-file/run-file-schema.ts): the same default, the same HARNESS_* mirror, and the same checks, refused
 * with the same words and exit code before anything is written.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { runHarnessProcess, tempFile } from "./harness-process.ts";

const K8S = ["k8s", "smoke", "--base-url", "http://api:8080"];

/** The first line that says what went wrong: the one-line refusal, or commander's error before its help. */
function refusalOf(output: string): string {
  return output.split("\n").find((line) => /^(Failed to|error:)/.test(line)) ?? output;
}

/** The profile the runners of the written manifests get (ATD_PROFILE). */
function manifestProfile(output: string): string | undefined {
  const file = /manifests: (\S+)/.exec(output)?.[1] ?? "";
  const testRun = parseAllDocuments(readFileSync(path.resolve(REPO_ROOT, file), "utf8"))[1]?.toJS() as {
    spec: { runner: { env: { name: string; value?: string }[] } };
  };
  return testRun.spec.runner.env.find((e) => e.name === "ATD_PROFILE")?.value;
}

describe("harness k8s and harness run, one settings table", () => {
  it.concurrent.each([
    [["--duration", "0s"]],
    [["--profile", "heavy"]],
    [["--slo", tempFile("slo.json", { errorRatio: 0.005 })]],
    [["--slo", tempFile("slo.json", "{ not json")]],
    [["--traffic", tempFile("traffic.json", "{ not json")]],
    [["--traffic", tempFile("traffic.json", { weights: { shopper: -1 } })]],
  ])("should refuse %j with the same message and exit code in both commands", async (args) => {
    const [run, k8s] = await Promise.all([
      runHarnessProcess(["run", "smoke", ...args], { timeoutMs: 30_000 }),
      runHarnessProcess([...K8S, ...args], { timeoutMs: 30_000 }),
    ]);
    expect(run.exitCode, run.output).toBe(2);
    expect(k8s.exitCode, k8s.output).toBe(2);
    expect(refusalOf(k8s.output)).toBe(refusalOf(run.output));
    expect(refusalOf(k8s.output)).toMatch(
      /^(Failed to read (--duration|the SLO file|the traffic model)|error: option '--profile)/,
    );
  });

  it("should take the same default profile (smoke) and the same HARNESS_PROFILE mirror", async () => {
    const [run, k8s, runEnv, k8sEnv] = await Promise.all([
      runHarnessProcess(["run", "smoke", "--dry-run"], { timeoutMs: 60_000 }),
      runHarnessProcess([...K8S, "--name", "atd-default-profile"], { timeoutMs: 60_000 }),
      runHarnessProcess(["run", "smoke", "--dry-run"], { timeoutMs: 60_000, env: { HARNESS_PROFILE: "average" } }),
      runHarnessProcess([...K8S, "--name", "atd-env-profile"], {
        timeoutMs: 60_000,
        env: { HARNESS_PROFILE: "average" },
      }),
    ]);
    for (const result of [run, k8s, runEnv, k8sEnv]) expect(result.exitCode, result.output).toBe(0);
    expect(run.output).toMatch(/\(profile smoke\b/);
    expect(manifestProfile(k8s.output)).toBe("smoke");
    expect(runEnv.output).toMatch(/\(profile average\b/);
    expect(manifestProfile(k8sEnv.output)).toBe("average");
  });

  it("should ship the traffic model merged as harness run merges it, and read by the runners", async () => {
    const traffic = tempFile("traffic.json", { weights: { shopper: 2 } });
    const k8s = await runHarnessProcess(
      [
        "k8s",
        "partner-mix",
        "--base-url",
        "http://api:8080",
        "--parallelism",
        "1",
        "--name",
        "atd-traffic",
        "--traffic",
        traffic,
      ],
      { timeoutMs: 60_000 },
    );
    expect(k8s.exitCode, k8s.output).toBe(0);
    const file = /manifests: (\S+)/.exec(k8s.output)?.[1] ?? "";
    const [configMap, testRun] = parseAllDocuments(readFileSync(path.resolve(REPO_ROOT, file), "utf8")).map(
      (d) => d.toJS() as unknown,
    );
    const shipped = JSON.parse((configMap as { data: Record<string, string> }).data["traffic.json"] ?? "{}") as {
      weights: Record<string, number>;
    };
    expect(shipped.weights).toEqual({ catalogueSync: 0.15, shopper: 2, booker: 0.15, backOffice: 0.1 });
    const env = (testRun as { spec: { runner: { env: { name: string; value?: string }[] } } }).spec.runner.env;
    expect(env.find((e) => e.name === "ATD_TRAFFIC_FILE")?.value).toBe("traffic.json");
  });
});
