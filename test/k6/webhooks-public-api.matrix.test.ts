/**
 * Webhooks without registration hooks fail on the defects a sink exists for (the pass on the correct service is the
 * default tier's webhooks-public-api.test.ts): lost events by the loss threshold, bad signatures by the signature check.
 */
import { describe, expect, it } from "vitest";
import { WEBHOOK_CHECKS, WEBHOOK_METRICS } from "../../lib/harness/webhooks/verdict.ts";
import { failures, runWebhooksWithoutHooks, sinkOf } from "./webhook-runs.ts";

// The two runs side by side: each has a service and a sink of its own, and mostly waits on the service's clock.
describe("webhooks on a target without test hooks, on a wrong service", { timeout: 100_000 }, () => {
  it.concurrent("should fail on lost events by the loss threshold", async () => {
    const result = await runWebhooksWithoutHooks({ defect: "webhook-drop" });
    expect(result.exitCode, result.output).toBe(1);
    expect(failures(sinkOf(result))).toEqual([WEBHOOK_METRICS.lost]);
  });

  it.concurrent("should fail on bad signatures by the signature check", async () => {
    const result = await runWebhooksWithoutHooks({ defect: "webhook-bad-signature" });
    expect(result.exitCode, result.output).toBe(1);
    expect(failures(sinkOf(result))).toContain(WEBHOOK_CHECKS.signature);
  });
});
