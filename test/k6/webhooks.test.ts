/**
 * The webhooks scenario with the sink passes on the correct service with every webhook check applied, and leaves the
 * latency of every kind it triggered as a histogram in metrics.prom and a plot in report.html. Five runs in a row,
 * the defect matrix and the run under partner-mix load are in webhooks.matrix.test.ts.
 */
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../lib/contract/index.ts";
import { DEFAULT_KEY_PREFIX } from "../../service/options.ts";
import { secretLeaks } from "./harness-process.ts";
import { expectLatencyHistogram, timedPerType, WEBHOOK_HISTOGRAM } from "./webhook-latency-files.ts";
import { expectCleanWebhookRun, runWebhooks, sinkOf } from "./webhook-runs.ts";

describe("webhook delivery against the reference service", () => {
  it("should pass on the correct service with every check applied, and export and plot the latency", async () => {
    const result = await runWebhooks();
    expectCleanWebhookRun(result);
    expect(sinkOf(result).figures.unexpected).toBe(0);
    // The sink's secrets, the control token in setup data and the seeded keys stay out of the run directory.
    expect(secretLeaks(result, [DEFAULT_KEY_PREFIX])).toEqual([]);
    expect(result.summary?.run.redacted).toBeUndefined();
    const prom = expectLatencyHistogram(result);
    const timed = timedPerType(prom);
    for (const type of WEBHOOK_EVENT_TYPES) expect(timed.get(type), type).toBeGreaterThan(0);
    expect(prom).toMatch(
      new RegExp(`^${WEBHOOK_HISTOGRAM}_bucket\\{le="2",[^}]*extension="webhook sink"\\} \\d+$`, "m"),
    );
  });
});
