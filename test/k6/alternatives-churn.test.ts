/**
 * The issue-6 run: partner-mix, alternatives and invariants at once under inventory churn, at a short profile. It
 * must pass, and its summary.json must carry precision, recall, qty exactness and every invariant with counts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { INVARIANT_CHECKS } from "../../lib/harness/invariants/history.ts";
import { CHURN_LOG, parseChurnLog } from "../../lib/harness/churn/log.ts";
import { DEFAULT_KEY_PREFIX } from "../../service/options.ts";
import { runHarnessProcess, secretLeaks } from "./harness-process.ts";

describe("churn run of partner-mix + alternatives + invariants", { timeout: 240_000 }, () => {
  it("should pass and report accuracy, churn and every invariant with counts", async () => {
    const result = await runHarnessProcess(["run", "partner-mix", "alternatives", "invariants", "--duration", "10s"], {
      timeoutMs: 200_000,
    });
    expect(result.exitCode, result.output).toBe(0);
    const extensions = result.summary?.extensions ?? [];
    const accuracy = extensions.find((e) => e.name === "alternatives accuracy")?.figures;
    expect(accuracy).toMatchObject({ precision: 1, recall: 1, qtyExactness: 1 });
    expect(accuracy).toHaveProperty("explainedByChurn");
    const counts = extensions.find((e) => e.name === "invariants")?.figures.invariants as Record<string, unknown>;
    for (const name of Object.keys(INVARIANT_CHECKS)) {
      expect(counts[name], name).toMatchObject({ fails: 0, indeterminate: expect.any(Number) as unknown });
    }
    const churn = extensions.find((e) => e.name === "churn")?.figures;
    expect(Number(churn?.changes)).toBeGreaterThan(5);
    const log = parseChurnLog(readFileSync(path.join(result.runDir ?? "", CHURN_LOG), "utf8"));
    expect(log.filter((e) => e.phase === "apply")).toHaveLength(Number(churn?.changes));
    // The alternatives summary's setup data held the control token and the seeded keys until issue 26: none now.
    expect(secretLeaks(result, [DEFAULT_KEY_PREFIX])).toEqual([]);
    expect(result.summary?.run.redacted).toBeUndefined();
  });
});
