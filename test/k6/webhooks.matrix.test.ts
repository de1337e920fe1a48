/**
 * The webhook sink against the reference service: the webhooks scenario passes on the correct service and fails on
 * each webhook defect with exactly the check or threshold that names the broken rule; under partner-mix load every
 * kind arrives with its latency percentiles. Runs use a clock time scale of 120 (a first retry after 0.5 s) and run
 * two at a time: each is mostly waiting for deliveries, but a third starves the others of CPU on two cores and
 * their timers (retries, deliveries) slip by seconds.
 */
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../lib/contract/index.ts";
import { WEBHOOK_DEFECTS } from "./defect-catalogue.ts";
import { expectCleanWebhookRun, failures, runWebhooks, sinkOf } from "./webhook-runs.ts";

const CORRECT_RUNS = 5;

describe("webhook delivery against the reference service", () => {
  for (let run = 1; run <= CORRECT_RUNS; run++) {
    it.concurrent(`should pass on the correct service with every check applied (run ${run})`, async () => {
      expectCleanWebhookRun(await runWebhooks());
    });
  }

  for (const [defect, caught] of Object.entries(WEBHOOK_DEFECTS)) {
    it.concurrent(`should fail ${defect} with ${caught.by.join(" and ")}`, async () => {
      const result = await runWebhooks({ defect });
      expect(result.exitCode, result.output).toBe(1);
      const failed = failures(sinkOf(result));
      expect(failed, result.output).toEqual(expect.arrayContaining(caught.by));
      const allowed = new Set([...caught.by, ...(caught.alsoAllowed ?? [])]);
      expect(
        failed.filter((f) => !allowed.has(f)),
        result.output,
      ).toEqual([]);
    });
  }

  it.concurrent("should report all eight kinds with latency percentiles under partner-mix load", async () => {
    const result = await runWebhooks({ scenarios: ["webhooks", "partner-mix"], duration: "8s" });
    expect(result.exitCode, result.output).toBe(0);
    const types = sinkOf(result).figures.types as Record<string, { latency: Record<string, number> | null }>;
    for (const type of WEBHOOK_EVENT_TYPES) {
      expect(types[type]?.latency, type).toMatchObject({
        count: expect.any(Number) as number,
        p50Ms: expect.any(Number) as number,
        p95Ms: expect.any(Number) as number,
        p99Ms: expect.any(Number) as number,
        maxMs: expect.any(Number) as number,
      });
    }
    expect(result.summary?.scenarios.map((s) => s.verdict)).toEqual(["pass", "pass"]);
  });
});
