/**
 * Issue 17, end to end and repeated on fresh services: against the reference service reached by URL with no control
 * URL, partner-mix, alternatives, invariants and webhooks run with churn through the public API alone, judge what that
 * level can judge, say what it cannot, pass on the correct service, and leave no reservation of theirs behind. CI runs
 * it twice (the matrix tier's budget); the "5 runs out of 5" figure comes from `ATD_PROOF_REPEATS=5 npx vitest run
 * --project matrix test/k6/public-api-only.matrix.test.ts`. The defects visible from outside are proven per area:
 * alternatives-public-api.matrix.test.ts and invariants-public-api.matrix.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runFiles, secretLeaks } from "./harness-process.ts";
import { runWithoutHooks } from "./public-api-runs.ts";

const REPEATS = Number(process.env.ATD_PROOF_REPEATS ?? "2");

describe("a run through the public API alone, repeated", { timeout: 200_000 }, () => {
  it.each(Array.from({ length: REPEATS }, (_, i) => i + 1))(
    "should run all four scenarios with churn, pass on the correct service and leave nothing reserved (run %i)",
    async () => {
      const { result, leftReserved, keys } = await runWithoutHooks();
      expect(result.exitCode, result.output).toBe(0);
      expect(result.summary?.run.level).toBe("public-api");
      expect(result.summary?.scenarios.map((s) => `${s.scenario} ${s.verdict}`).sort()).toEqual([
        "alternatives pass",
        "invariants pass",
        "partner-mix pass",
        "webhooks pass",
      ]);
      const extensions = result.summary?.extensions ?? [];
      expect(extensions.map((e) => `${e.name} ${e.verdict}`).sort()).toEqual([
        "alternatives accuracy pass",
        "churn pass",
        "invariants pass",
        "reservation cleanup pass",
        "webhook sink pass",
      ]);
      // Every skip is a check this level cannot judge, never a scenario or an extension.
      expect(result.summary?.skipped?.every((s) => s.kind === "check" || s.kind === "by-design")).toBe(true);
      const churn = extensions.find((e) => e.name === "churn")?.figures;
      expect(churn?.mode).toBe("black-box");
      const accuracy = extensions.find((e) => e.name === "alternatives accuracy")?.figures;
      expect(accuracy?.judgedBy).toBe("public-api");
      expect(Number(accuracy?.judged)).toBeGreaterThan(0);
      expect(leftReserved).toEqual([]);
      // No API key or webhook secret in any file of the run directory (k6's raw samples and logs included) nor on the
      // terminal, and none had to be redacted: the harness's own files never held one.
      expect(runFiles(result.runDir ?? "").length).toBeGreaterThan(10);
      expect(secretLeaks(result, keys)).toEqual([]);
      expect(result.summary?.run.redacted).toBeUndefined();
    },
  );
});
