/**
 * Issue 17's "5 runs out of 5": the public-API-only run repeated on fresh services. CI runs it twice (the matrix
 * tier's budget); the figure in the issue note comes from `ATD_PROOF_REPEATS=5 npx vitest run --project matrix
 * test/k6/public-api-only.matrix.test.ts`. The defects visible from outside are proven per area:
 * alternatives-public-api.matrix.test.ts and invariants-public-api.matrix.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runWithoutHooks } from "./public-api-runs.ts";

const REPEATS = Number(process.env.ATD_PROOF_REPEATS ?? "2");

describe("the public-API-only run, repeated", { timeout: 200_000 }, () => {
  it.each(Array.from({ length: REPEATS }, (_, i) => i + 1))(
    "should pass on the correct service and leave nothing reserved (run %i)",
    async () => {
      const { result, leftReserved } = await runWithoutHooks();
      expect(result.exitCode, result.output).toBe(0);
      expect(result.summary?.skipped?.every((s) => s.kind === "check" || s.kind === "by-design")).toBe(true);
      expect(leftReserved).toEqual([]);
    },
  );
});
