/**
 * The dry run's promise: its request count is within 5% of what a real run of the same plan sends. Real runs of the
 * harness against the embedded service, compared with estimateRequests for the same scenario, profile, duration and
 * keys (the service seeds SEEDED_PARTNER_COUNT keys and its catalogue from the default seed).
 */
import { describe, expect, it } from "vitest";
import { referenceCatalogueFacts } from "../../lib/harness/plan/reference-catalogue.ts";
import { estimateRequests } from "../../lib/harness/plan/request-estimate.ts";
import { SEEDED_PARTNER_COUNT } from "../../service/partners.ts";
import { runHarnessProcess } from "./harness-process.ts";

const TOLERANCE = 0.05;

describe("the dry run's request estimate against real runs", () => {
  it.each([
    ["partner-mix", "20s"],
    ["smoke", "10s"],
  ])("should estimate a %s run (smoke profile, %s) within 5% of the requests it sends", async (scenario, duration) => {
    const plan = { scenarios: [scenario], profile: "smoke", duration, keys: SEEDED_PARTNER_COUNT };
    const estimate = estimateRequests({ ...plan, catalogue: referenceCatalogueFacts() });
    const result = await runHarnessProcess(["run", scenario, "--profile", plan.profile, "--duration", duration]);
    expect(result.exitCode, result.output).toBe(0);
    const real = result.summary?.scenarios[0]?.metrics;
    const estimated = estimate.scenarios[0];
    // The measured figures, for the record (the report of the change quotes them).
    console.info(
      `${scenario} ${duration}: estimated ${String(estimated?.total?.toFixed(1))} requests in ${String(estimated?.iterations)} iterations, real ${String(real?.requests)} in ${String(real?.iterations)}`,
    );
    expect(real?.droppedIterations).toBe(0);
    expect(real?.throttles).toBe(0);
    const total = estimated?.total ?? Number.NaN;
    expect(Math.abs((real?.requests ?? 0) - total) / total).toBeLessThanOrEqual(TOLERANCE);
  });
});
