import { describe, expect, it } from "vitest";
import { runHarnessProcess, runLimiter, tempFile, type HarnessProcessResult } from "./harness-process.ts";

/**
 * Every file and flag of `harness run` is read and validated before the target or k6 starts: a bad one is exit 2 with
 * what to change, fast, and leaves no run directory (so no service.log: the service never started).
 */
const limit = runLimiter(2);

/** Two at a time, so that each one's time is its own on two cores. */
function refused(args: readonly string[]): Promise<HarnessProcessResult & { ms: number }> {
  return limit(async () => {
    const startedAt = Date.now();
    const result = await runHarnessProcess(["run", ...args], { timeoutMs: 60_000 });
    return { ...result, ms: Date.now() - startedAt };
  });
}

function expectRefusedBeforeStart(result: HarnessProcessResult & { ms: number }, message: RegExp): void {
  expect(result.exitCode, result.output).toBe(2);
  expect(result.output).toMatch(message);
  expect(result.output).toMatch(/^Failed to read [^\n]+: [^\n]+\. Please [^\n]+\.$/m);
  // Nothing started: no run directory (service.log, summary.json), no build or target phase.
  expect(result.runDir).toBeUndefined();
  expect(result.output).not.toMatch(/▸ (build|start target)/);
  // Node's start-up and the imports are most of it; a started service and k6 would take far longer.
  expect(result.ms).toBeLessThan(5000);
}

describe("harness run settings, checked before anything starts", () => {
  it.concurrent("should exit 2 on an SLO file with a value that is not a number", async () => {
    const slo = tempFile("slo.json", { latency: { endpoints: { products: { p95: "fast" } } } });
    expectRefusedBeforeStart(
      await refused(["smoke", "--slo", slo]),
      /Failed to read the SLO file .*slo\.json: slo\.latency\.endpoints\.products\.p95 is "fast", not a number >= 0\. Please give a number such as 500\./,
    );
  });

  it.concurrent("should exit 2 on an SLO file that does not exist", async () => {
    const missing = `${tempFile("x", "")}-missing.json`;
    expectRefusedBeforeStart(
      await refused(["smoke", "--slo", missing]),
      /Failed to read the SLO file .*-missing\.json: no such file\. Please give a JSON file \(--slo\)\./,
    );
  });

  it.concurrent("should exit 2 on a traffic file with a ratio above 1", async () => {
    const traffic = tempFile("traffic.json", { booker: { confirmRatio: 3 } });
    expectRefusedBeforeStart(
      await refused(["partner-mix", "--traffic", traffic]),
      /Failed to read the traffic model .*traffic\.json: model\.booker\.confirmRatio is a ratio and must be at most 1\./,
    );
  });

  it.concurrent("should exit 2 on a churn config with a bad value, also when the file is not JSON", async () => {
    const churn = tempFile("churn.json", { ratePerSecond: "fast" });
    expectRefusedBeforeStart(
      await refused(["alternatives", "--churn-config", churn]),
      /Failed to read the churn configuration .*churn\.json: ratePerSecond must be a number >= 0\. Please follow DEFAULT_CHURN/,
    );
    const notJson = tempFile("churn.json", "ratePerSecond: 3");
    expectRefusedBeforeStart(
      await refused(["alternatives", "--churn-config", notJson]),
      /Failed to read the churn configuration .*churn\.json: it is not JSON \(.*\)\. Please fix the file\./,
    );
  });

  it.concurrent("should exit 2 on soak rules with an unknown rule", async () => {
    const soak = tempFile("soak.json", { p95Ration: 2 });
    expectRefusedBeforeStart(
      await refused(["soak", "--duration", "10s", "--soak-config", soak]),
      /Failed to read the soak rules .*soak\.json: p95Ration is not a rule\./,
    );
  });

  it.concurrent("should exit 2 on a chaos file without faults", async () => {
    const chaos = tempFile("chaos.yaml", "recovery:\n  within: 5s\n");
    expectRefusedBeforeStart(
      await refused(["smoke", "--chaos", chaos]),
      /Failed to read the chaos file .*chaos\.yaml: it schedules no faults\./,
    );
  });

  it.concurrent("should exit 2 on a duration k6 would refuse", async () => {
    expectRefusedBeforeStart(
      await refused(["smoke", "--duration", "0s"]),
      /Failed to read --duration "0s": it is no time at all\. Please use k6 syntax such as 30s\./,
    );
    expectRefusedBeforeStart(
      await refused(["capacity", "--duration", "20 s"]),
      /Failed to read --duration "20 s": "20 s" is not a duration such as 30s/,
    );
  });

  it.concurrent("should exit 2 on a rate window, service flags and a sink address that would be refused", async () => {
    expectRefusedBeforeStart(
      await refused(["rate-limit", "--rate-window", "a minute"]),
      /Failed to read --rate-window "a minute": it is not a positive number of seconds\./,
    );
    expectRefusedBeforeStart(
      await refused(["smoke", "--service-args", "--rate-limit lots"]),
      /Failed to read --service-args "--rate-limit lots": --rate-limit must be an integer/,
    );
    expectRefusedBeforeStart(
      await refused(["webhooks", "--webhook-listen", "localhost"]),
      /Failed to read --webhook-listen "localhost": not host:port\./,
    );
  });
});
