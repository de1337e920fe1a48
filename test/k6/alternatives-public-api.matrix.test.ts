/**
 * Issue 17, item 2: the alternatives checks through the public API alone, against the reference service by URL with
 * a lapsing reservation hold and no control URL. Each alternatives defect of the reference service is visible from
 * outside and fails the check named for it (the same table as with hooks); without a stated hold, nothing can be
 * provoked and every check is reported as not judged, never passed.
 */
import { describe, expect, it } from "vitest";
import { ACCURACY_CHECKS } from "../../lib/harness/alternatives/accuracy.ts";
import { runHarnessProcess } from "./harness-process.ts";
import { ALTERNATIVES_DEFECTS } from "./defect-catalogue.ts";
import { runWithoutHooks } from "./public-api-runs.ts";
import { startPublicApiService } from "./public-api-service.ts";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";

function failedChecks(summary: RunSummary | undefined): string[] {
  return [
    ...(summary?.scenarios ?? []).flatMap((s) => s.checks),
    ...(summary?.extensions ?? []).flatMap((e) => e.checks),
  ]
    .filter((c) => c.verdict === "fail")
    .map((c) => c.name);
}

describe("alternatives through the public API alone", { timeout: 150_000 }, () => {
  it.each(ALTERNATIVES_DEFECTS)("should catch %s by %s", async (defect, check) => {
    const { result } = await runWithoutHooks({ scenarios: ["alternatives"], defects: [defect] });
    expect(result.exitCode, result.output).toBe(1);
    expect(failedChecks(result.summary)).toContain(check);
  });

  it("should judge nothing, and say so, when the operator states no reservation hold", async () => {
    await using service = await startPublicApiService();
    const args = service.targetArgs.filter(
      (a, i, all) => a !== "--reservation-hold" && all[i - 1] !== "--reservation-hold",
    );
    const result = await runHarnessProcess(["run", "alternatives", "--no-churn", ...args, "--duration", "4s"], {
      timeoutMs: 120_000,
    });
    expect(result.exitCode, result.output).toBe(1);
    const skipped = (result.summary?.skipped ?? []).map((s) => s.name);
    expect(skipped).toEqual(expect.arrayContaining(Object.values(ACCURACY_CHECKS)));
    expect(result.summary?.extensions.find((e) => e.name === "alternatives accuracy")?.checks).toEqual([]);
  });
});
