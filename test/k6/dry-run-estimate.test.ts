/**
 * The dry run's promise: its request count is within 5% of what a real run of the same plan sends. The same command
 * line is run twice against the embedded service, once with --dry-run (nothing started or sent: the count it
 * prints) and once for real (the count in summary.json).
 */
import { describe, expect, it } from "vitest";
import { runHarnessProcess } from "./harness-process.ts";

const TOLERANCE = 0.05;

describe("the dry run's request estimate against real runs", () => {
  // Concurrent: request counts do not depend on the machine's load, and each run mostly waits.
  it.concurrent.each([
    ["partner-mix", "20s"],
    ["smoke", "10s"],
  ])("should estimate a %s run (smoke profile, %s) within 5% of the requests it sends", async (scenario, duration) => {
    const args = ["run", scenario, "--profile", "smoke", "--duration", duration];
    const plan = await runHarnessProcess([...args, "--dry-run"], { timeoutMs: 30_000 });
    expect(plan.exitCode, plan.output).toBe(0);
    expect(plan.runDir).toBeUndefined();
    const estimated = Number(/requests in all: about ([\d,]+)/.exec(plan.output)?.[1]?.replaceAll(",", ""));
    const result = await runHarnessProcess(args);
    expect(result.exitCode, result.output).toBe(0);
    const real = result.summary?.scenarios[0]?.metrics;
    // The measured figures, for the record (the issue note quotes them).
    console.info(`${scenario} ${duration}: dry run ${String(estimated)} requests, real ${String(real?.requests)}`);
    expect(real?.droppedIterations).toBe(0);
    expect(real?.throttles).toBe(0);
    expect(estimated).toBeGreaterThan(0);
    expect(Math.abs((real?.requests ?? 0) - estimated) / estimated).toBeLessThanOrEqual(TOLERANCE);
  });
});
