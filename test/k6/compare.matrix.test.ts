/**
 * Release comparison at the sizes, once each (npm run bench:compare repeats them 20 times for the figures in
 * docs/performance.md): a 20% slower endpoint on steady 30 s runs is regressed there and nowhere else; webhook
 * deliveries delayed by the webhook-delay defect are a webhook latency regression.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Comparison } from "../../lib/harness/compare/compare-runs.ts";
import { runHarnessProcess, tempFile, type HarnessProcessResult } from "./harness-process.ts";

function comparisonOf(result: HarnessProcessResult): Comparison {
  return JSON.parse(readFileSync(path.join(result.runDir ?? "", "compare.json"), "utf8")) as Comparison;
}

const flagged = (c: Comparison) => c.metrics.filter((m) => m.verdict === "regressed" || m.verdict === "improved");

describe("release comparison at full size", { timeout: 240_000 }, () => {
  it("should judge priceListDate 20% slower regressed there and nowhere else", async () => {
    const base = { latencyMs: 20 };
    const run = ["run", "partner-mix", "--profile", "steady", "--duration", "30s", "--seed", "1", "--service-args"];
    const baseline = await runHarnessProcess([...run, `--faults ${JSON.stringify({ default: base })}`]);
    expect(baseline.exitCode, baseline.output).toBe(0);
    const slow = JSON.stringify({ default: base, routes: { priceListDate: { ...base, latencyFactor: 1.2 } } });
    // One pair, not the benchmark's twenty: between two 30 s runs in a clean-clone CI the tails of an endpoint with no
    // fault moved by up to +27% (priceList p95, interval 17-31%), so this pair judges p95 and p99 against 30% and p50
    // against the default 10%; `npm run bench:compare` keeps the default tolerances for all three.
    const tolerances = tempFile("tolerances.json", { latency: { p95: 0.3, p99: 0.3 } });
    const candidate = await runHarnessProcess([
      ...run,
      `--faults ${slow}`,
      "--baseline",
      baseline.runDir ?? "",
      "--tolerances",
      tolerances,
    ]);
    expect(candidate.exitCode, candidate.output).toBe(1);
    // The benchmark's criterion: a latency percentile of priceListDate regressed, and nothing else flagged. Not p95 in
    // particular: at 30 s its interval is about ±6%, so a +20% p95 whose baseline tail was noisy can be judged "no
    // significant change" against the 10% tolerance, by design, while p50 (±1%) never misses.
    const changes = flagged(comparisonOf(candidate));
    expect(changes.map((m) => m.id)).toContainEqual(expect.stringMatching(/^latency\/priceListDate\/p\d+$/));
    expect(
      changes.every((m) => m.group === "latency" && m.subject === "priceListDate" && m.verdict === "regressed"),
      JSON.stringify(changes),
    ).toBe(true);
  });

  it("should judge delayed webhook deliveries a webhook latency regression", async () => {
    const run = ["run", "webhooks", "--profile", "smoke", "--duration", "15s", "--seed", "1"];
    const baseline = await runHarnessProcess(run);
    expect(baseline.exitCode, baseline.output).toBe(0);
    const delayed = await runHarnessProcess([
      ...run,
      "--service-args",
      "--defects webhook-delay",
      "--baseline",
      baseline.runDir ?? "",
    ]);
    const latency = comparisonOf(delayed).metrics.filter((m) => m.group === "webhook latency");
    expect(
      latency.map((m) => m.verdict),
      JSON.stringify(latency),
    ).toContain("regressed");
    expect(delayed.summary?.comparison?.verdict).toBe("regressed");
    expect(delayed.exitCode, delayed.output).toBe(1);
  });
});
