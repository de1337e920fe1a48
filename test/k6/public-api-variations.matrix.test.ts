/**
 * Issue 27 at the public-API level: the reference service taking the other legal choice of every freedom
 * (--variations all), reached by URL with no control URL, passes every scenario that runs there, judging from outside
 * what it can and saying what it cannot. The same service with the required hooks is required-hooks-target.test.ts
 * (default tier); each variation alone is the wire-, webhook-, hooks- and lists-variations matrix files.
 */
import { describe, expect, it } from "vitest";
import { VARIATIONS } from "../../service/variations/index.ts";
import { runWithoutHooks } from "./public-api-runs.ts";

const RUNS: { scenarios: string[] }[] = [
  { scenarios: ["partner-mix", "alternatives", "invariants", "webhooks"] },
  { scenarios: ["smoke", "booking-flow", "catalogue", "conformance"] },
];

describe("every variation on, through the public API alone", { timeout: 200_000 }, () => {
  it.each(RUNS)("should pass $scenarios, skipping only what the level cannot judge", async ({ scenarios }) => {
    const { result, leftReserved, variationsOn } = await runWithoutHooks({ scenarios, variations: "all" });
    expect(variationsOn.sort()).toEqual(VARIATIONS.map((v) => v.name).sort());
    expect(result.exitCode, result.output).toBe(0);
    expect(result.summary?.run.level).toBe("public-api");
    expect(result.summary?.scenarios.map((s) => `${s.scenario} ${s.verdict}`).sort()).toEqual(
      scenarios.map((s) => `${s} pass`).sort(),
    );
    // Every skip is a check this level cannot judge, never a scenario or an extension.
    expect(result.summary?.skipped?.every((s) => s.kind === "check" || s.kind === "by-design")).toBe(true);
    expect(result.summary?.extensions.every((e) => e.verdict === "pass")).toBe(true);
    expect(leftReserved).toEqual([]);
  });
});
