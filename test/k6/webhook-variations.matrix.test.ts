/**
 * A correct service that makes the contract's other webhook choices passes (docs/contract-freedoms.md): the webhooks
 * scenario with the sink against the reference service with each webhook variation alone and with all of them, with
 * test hooks and through the public API alone, and partner-mix with --webhooks with all of them. The retry defects,
 * whose judge takes the run's own clock advances into account for a service that retries on its clock, are still
 * caught by the check that names them with the retries on the service clock. Runs are short and go two at a time
 * (webhook-runs.ts).
 */
import { describe, expect, it } from "vitest";
import { WEBHOOK_CHECKS } from "../../lib/harness/webhooks/verdict.ts";
import { VARIATIONS } from "../../service/variations/index.ts";
import { WEBHOOK_DEFECTS } from "./defect-catalogue.ts";
import { expectCleanWebhookRun, failures, runWebhooks, runWebhooksWithoutHooks, sinkOf } from "./webhook-runs.ts";

const WEBHOOK_VARIATIONS = VARIATIONS.filter((v) => v.freedom.startsWith("webhooks-")).map((v) => v.name);
const SERVICE_CLOCK = "webhooks-retries-on-service-clock";
/** The defects a retry check catches: where the judge of retries changed. */
const RETRY_CHECKS: readonly string[] = [
  WEBHOOK_CHECKS.retried,
  WEBHOOK_CHECKS.schedule,
  WEBHOOK_CHECKS.sameId,
  WEBHOOK_CHECKS.gone,
];
const RETRY_DEFECTS = Object.entries(WEBHOOK_DEFECTS).filter(([, caught]) =>
  caught.by.some((check) => RETRY_CHECKS.includes(check)),
);

describe("webhook variations of the reference service", () => {
  it("should cover every freedom of webhooks that the reference service does not take, and the retry defects", () => {
    expect(WEBHOOK_VARIATIONS).toContain(SERVICE_CLOCK);
    expect(WEBHOOK_VARIATIONS.length).toBeGreaterThanOrEqual(6);
    expect(RETRY_DEFECTS.map(([defect]) => defect).sort()).toEqual([
      "webhook-ignore-410",
      "webhook-new-id-on-retry",
      "webhook-no-retry",
      "webhook-retry-too-early",
    ]);
  });

  for (const variation of WEBHOOK_VARIATIONS) {
    it.concurrent(`should pass the webhooks scenario with ${variation}`, async () => {
      const result = await runWebhooks({ variations: [variation] });
      expectCleanWebhookRun(result);
      if (variation === "webhooks-unordered-concurrent") {
        // Messages did arrive out of order, and that was reported, not failed.
        const sink = sinkOf(result);
        expect(sink.figures.outOfOrder).toBeGreaterThan(0);
        expect(sink.findings.join("\n")).toMatch(/arrived after a later event about the same resource/);
      }
    });
  }

  it.concurrent("should pass the webhooks scenario with every webhook variation at once", async () => {
    const result = await runWebhooks({ variations: WEBHOOK_VARIATIONS });
    expectCleanWebhookRun(result);
    // The creates emitted nothing, and that was not counted as lost.
    expect(sinkOf(result).figures.optionalAbsent).toBeGreaterThan(0);
  });

  it.concurrent("should pass partner-mix with --webhooks with every webhook variation at once", async () => {
    const result = await runWebhooks({
      scenarios: ["partner-mix"],
      args: ["--webhooks"],
      variations: WEBHOOK_VARIATIONS,
    });
    expect(result.exitCode, result.output).toBe(0);
    expect(failures(sinkOf(result))).toEqual([]);
  });

  it.concurrent(
    "should pass the webhooks scenario without test hooks with every webhook variation at once",
    async () => {
      const result = await runWebhooksWithoutHooks({ variations: WEBHOOK_VARIATIONS });
      expect(result.exitCode, result.output).toBe(0);
      const sink = sinkOf(result);
      expect(failures(sink)).toEqual([]);
      expect((sink.figures as { expected: number }).expected).toBeGreaterThan(10);
    },
  );

  for (const [defect, caught] of RETRY_DEFECTS) {
    it.concurrent(
      `should still fail ${defect} with ${caught.by.join(" and ")} when retries run on the service clock`,
      async () => {
        const result = await runWebhooks({ defect, variations: [SERVICE_CLOCK] });
        expect(result.exitCode, result.output).toBe(1);
        const failed = failures(sinkOf(result));
        expect(failed, result.output).toEqual(expect.arrayContaining(caught.by));
        const allowed = new Set([...caught.by, ...(caught.alsoAllowed ?? [])]);
        expect(
          failed.filter((f) => !allowed.has(f)),
          result.output,
        ).toEqual([]);
      },
    );
  }
});
