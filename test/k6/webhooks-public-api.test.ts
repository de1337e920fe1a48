/**
 * Webhooks without registration hooks (issue 17, item 4): against the reference service reached with `--target url`
 * and no control URL, the sink is registered by the operator's command (a script only the test knows how to write:
 * it calls the service's partner hook itself), a first event the harness causes proves the registration, and the run
 * judges what its own booking calls caused. It passes on the correct service; expiry and the catalogue kinds are
 * reported as not judged, never passed. That it fails on lost events and bad signatures is the matrix tier's proof
 * (webhooks-public-api.matrix.test.ts).
 */
import { describe, expect, it } from "vitest";
import { PUBLIC_API_WEBHOOK_CHECKS, WEBHOOK_CHECKS } from "../../lib/harness/webhooks/verdict.ts";
import { failures, runWebhooksWithoutHooks, sinkOf } from "./webhook-runs.ts";

describe("webhooks on a target without test hooks", { timeout: 100_000 }, () => {
  it.concurrent("should register by the operator's command, prove it, and pass on the correct service", async () => {
    const result = await runWebhooksWithoutHooks();
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toContain("registering the webhook sink for 10 keys with --webhook-register-cmd");
    const sink = sinkOf(result);
    expect(failures(sink), result.output).toEqual([]);
    expect(sink.checks.map((c) => c.name).sort()).toEqual(
      [
        WEBHOOK_CHECKS.signature,
        WEBHOOK_CHECKS.timestamp,
        WEBHOOK_CHECKS.retried,
        WEBHOOK_CHECKS.schedule,
        WEBHOOK_CHECKS.sameId,
        WEBHOOK_CHECKS.gone,
        PUBLIC_API_WEBHOOK_CHECKS.bookingKinds,
      ].sort(),
    );
    const figures = sink.figures as {
      expected: number;
      registrationProbes: number;
      retries: { retried: number };
    };
    expect(figures.registrationProbes).toBe(1);
    expect(figures.expected).toBeGreaterThan(20);
    expect(figures.retries.retried, "the sink refused some first attempts").toBeGreaterThan(0);
    // What cannot be judged without hooks is said, as skipped checks, never passed.
    expect((result.summary?.skipped ?? []).map((s) => s.name).sort()).toEqual(
      [PUBLIC_API_WEBHOOK_CHECKS.expiry, WEBHOOK_CHECKS.allKinds].sort(),
    );
    expect(result.output).toMatch(/please remove its URL from the 10 keys' webhook settings/);
  });
});
