/**
 * The webhooks scenario with the sink passes on the correct service with every webhook check applied. Five runs in a
 * row, the defect matrix and the run under partner-mix load are in webhooks.matrix.test.ts.
 */
import { describe, it } from "vitest";
import { expectCleanWebhookRun, runWebhooks } from "./webhook-runs.ts";

describe("webhook delivery against the reference service", () => {
  it("should pass on the correct service with every check applied", async () => {
    expectCleanWebhookRun(await runWebhooks());
  });
});
