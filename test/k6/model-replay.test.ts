/** --arrival-curve and a fitted model in the plan: refused without what it needs, shown by --dry-run. */
import { describe, expect, it } from "vitest";
import { DEFAULT_TRAFFIC_MODEL } from "../../lib/contract/traffic-model.ts";
import { fittedModel } from "../unit/fitted-models.ts";
import { runHarnessProcess, tempFile } from "./harness-process.ts";

describe("--arrival-curve", () => {
  it.concurrent.each([
    [
      "a model without a fitted section",
      [],
      DEFAULT_TRAFFIC_MODEL.weights,
      /the traffic model has no fitted arrival curve/,
    ],
    ["--duration beside it", ["--duration", "30s"], undefined, /--duration 30s was given too/],
  ])("should exit 2 before anything starts on %s", async (_, extra, weights, message) => {
    const traffic = tempFile("traffic.json", weights ? { weights } : { fitted: fittedModel() });
    const result = await runHarnessProcess(["run", "partner-mix", "--traffic", traffic, "--arrival-curve", ...extra]);
    expect(result.exitCode, result.output).toBe(2);
    expect(result.output).toMatch(message);
    expect(result.output).toMatch(/^Failed to plan --arrival-curve: .*\. Please /m);
    expect(result.runDir).toBeUndefined();
  });

  it("should show the curve's length and iterations, and the fitted mix, in --dry-run", async () => {
    // 4 buckets of 60 s at 1, 2, 4, 2 sessions/s, 24 times faster (2.5 s each) and twice the rate: 45 sessions in 10 s.
    const traffic = tempFile("traffic.json", { fitted: fittedModel() });
    const result = await runHarnessProcess(
      ["run", "partner-mix", "--traffic", traffic, "--arrival-curve", "--rate-multiplier", "2", "--dry-run"],
      { timeoutMs: 30_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toMatch(/scenario partner-mix: profile arrival-curve, 10 ?s, 45 iterations/);
    expect(result.output).toMatch(
      /fitted model: personas shopper 50\.0%, booker 30\.0%, cluster-3 20\.0%; expected endpoint mix priceListDate 42\.9%/,
    );
  });
});
