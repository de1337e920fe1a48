/**
 * The environment's ceiling holds at run time: the harness hands each k6 process its share as k6's own `rps` option
 * (ATD_MAX_RPS), so the same smoke plan that sends about 300 requests/min per key without rails sends no more than
 * the ceiling per key with them. Figures: requests from summary.json, their span from the run's raw k6 samples.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../lib/harness/exit-codes.ts";
import type { EnvironmentRails } from "../../lib/harness/plan/environment-rails.ts";
import { readRawSamples, rawResultsFile } from "../../lib/harness/reports/raw-samples.ts";
import { runHarness, type RunRequest } from "../../lib/harness/run.ts";

/** Two of the embedded service's seeded keys: smoke (5 iterations/s, 2 requests each) sends ~300/min on each. */
const KEYS = ["atd-partner-01", "atd-partner-02"];
/** Per key and minute. k6's cap: floor(130 x 2 / 60) = 4 requests/s, 120 per key per minute. */
const CEILING = 130;

interface Measured {
  exitCode: number;
  requests: number;
  perKeyPerMinute: number;
  environmentLine: string | undefined;
  k6Rps: Record<string, number> | undefined;
  failedThresholds: string[];
}

async function smokeRun(environment: EnvironmentRails | undefined): Promise<Measured> {
  const said: string[] = [];
  const request: RunRequest = {
    scenarios: ["smoke"],
    target: "embedded",
    baseUrl: undefined,
    controlUrl: undefined,
    controlToken: undefined,
    apiKeys: KEYS,
    profile: "smoke",
    duration: "10s",
    sloFile: undefined,
    outDir: await mkdtemp(path.join(tmpdir(), "atd-rails-")),
    seed: undefined,
    serviceArgs: [],
    trafficFile: undefined,
    pushgateway: undefined,
    prometheusRw: undefined,
    k6Settings: {},
    extensions: [],
    progress: false,
    signal: new AbortController().signal,
    say: (line) => said.push(line),
    ...(environment === undefined ? {} : { environment }),
  };
  const outcome = await runHarness(request);
  const times: number[] = [];
  await readRawSamples(path.join(outcome.runDir, rawResultsFile("smoke")), new Set(["http_reqs"]), (s) =>
    times.push(s.time),
  );
  const requests = outcome.summary.scenarios[0]?.metrics.requests ?? 0;
  // k6's limiter lets request n start no sooner than n / rps after the first: (n - 1) / span is the rate it held.
  const spanMinutes = (Math.max(...times) - Math.min(...times)) / 60_000;
  return {
    exitCode: outcome.exitCode,
    requests: times.length === requests ? requests : Number.NaN,
    perKeyPerMinute: (requests - 1) / spanMinutes / KEYS.length,
    environmentLine: said.find((line) => line.includes("environment demo")),
    k6Rps: outcome.summary.run.environment?.k6Rps,
    failedThresholds: (outcome.summary.scenarios[0]?.thresholds ?? [])
      .filter((t) => t.verdict === "fail")
      .map((t) => t.metric),
  };
}

describe("an environment's ceiling at run time", { timeout: 170_000 }, () => {
  it("should keep a k6 process under the ceiling per key per minute that the same plan exceeds without it", async () => {
    const free = await smokeRun(undefined);
    const demo: EnvironmentRails = { name: "demo", production: false, shared: true, ceilingPerKeyPerMinute: CEILING };
    const capped = await smokeRun(demo);

    expect(free.exitCode).toBe(EXIT.pass);
    expect(free.k6Rps).toBeUndefined();
    expect(free.perKeyPerMinute).toBeGreaterThan(250);

    expect(capped.k6Rps).toEqual({ smoke: 4 });
    expect(capped.environmentLine).toBe(
      "  environment demo (shared): ceiling 130 requests/min per key, k6 rps smoke 4/s",
    );
    expect(capped.requests).toBeGreaterThan(30);
    expect(capped.perKeyPerMinute).toBeLessThanOrEqual(CEILING);
    expect(capped.perKeyPerMinute).toBeLessThan(free.perKeyPerMinute / 2);
    // The plan asks for more than the cap lets through (the budget check refuses such a plan before a real run): the
    // iterations k6 could not start are dropped, and nothing else fails.
    expect(capped.failedThresholds).toEqual(["dropped_iterations"]);
    console.log(
      `rails figures: without ${String(free.requests)} requests, ${free.perKeyPerMinute.toFixed(1)}/min per key; with ceiling ${String(CEILING)}: ${String(capped.requests)} requests, ${capped.perKeyPerMinute.toFixed(1)}/min per key (exit ${String(capped.exitCode)}, failed ${capped.failedThresholds.join(", ")})`,
    );
  });
});
