/**
 * Every conformance rule with a defect of its own fails on it by that rule's check (and no rule beyond those the
 * catalogue allows), with every variation of the reference service on, and the scenario passes against the reference service in required-hooks mode with renamed keys,
 * a smaller catalogue and another seed, as a user's own service reached by URL.
 */
import { describe, expect, it } from "vitest";
import { DEFECTS } from "../../service/defects/index.ts";
import { failedConformanceRules } from "./conformance-runs.ts";
import { CONFORMANCE_DEFECTS, EVERY_VARIATION } from "./defect-catalogue.ts";
import { runHarnessProcess, runLimiter } from "./harness-process.ts";
import { startPublicApiService } from "./public-api-service.ts";
import { startRequiredHooksService } from "./required-hooks-service.ts";

const limit = runLimiter(2);

describe("conformance defects", { timeout: 600_000 }, () => {
  it("should have a row for every conformance defect of the switchboard", () => {
    const switchboard = DEFECTS.filter((d) => d.area === "conformance").map((d) => d.name);
    expect(Object.keys(CONFORMANCE_DEFECTS).sort()).toEqual([...switchboard].sort());
  });

  it.concurrent.each(Object.entries(CONFORMANCE_DEFECTS))("should catch %s by its rule", async (defect, caught) => {
    const result = await limit(() =>
      runHarnessProcess([
        ...["run", "conformance", "--allow-skips"],
        ...["--service-args", `--defects ${defect} ${EVERY_VARIATION}`],
      ]),
    );
    expect(result.exitCode, result.output).toBe(1);
    const failed = failedConformanceRules(result.summary);
    for (const rule of caught.by) expect(failed, `${defect} must fail ${rule}`).toContain(rule);
    const allowed = new Set([...caught.by, ...(caught.alsoAllowed ?? [])]);
    const others = (result.summary?.scenarios[0]?.checks ?? []).filter(
      (c) => c.verdict === "fail" && !allowed.has(c.name.split(":")[0] ?? ""),
    );
    expect(
      others.map((c) => c.name.split(":")[0]),
      `${defect} failed other rules: ${JSON.stringify(others.map((c) => c.problems))}`,
    ).toEqual([]);
  });

  it("should pass against the required-hooks service with renamed keys, naming what that level does not judge", async () => {
    await using service = await startRequiredHooksService();
    // No --allow-skips: what the level cannot judge by design is listed, not a failure.
    const result = await runHarnessProcess(["run", "conformance", ...service.targetArgs]);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.summary?.run.level).toBe("required-hooks");
    expect(result.summary?.scenarios[0]?.checks.length).toBeGreaterThan(25);
    expect(result.summary?.skipped?.map((s) => `${s.kind} ${s.name.split(":")[0] ?? ""}`)).toEqual([
      "by-design gaps-error-500",
    ]);
    expect(result.output).toMatch(/N\/A {3}gaps-error-500: .*not judged by design at the required-hooks level/);
    // The reference service's own body limit is no other service's rule.
    expect(result.summary?.scenarios[0]?.checks.map((c) => c.name)).not.toContainEqual(
      expect.stringMatching(/^gaps-error-413:/),
    );
  });

  it("should catch a single-date answer cached for a few seconds by 2.6-real-time alone without the test hooks", async () => {
    await using service = await startPublicApiService(["--defects", "conformance-single-date-stale"]);
    const keys = service.targetArgs[service.targetArgs.indexOf("--keys") + 1] ?? "";
    const result = await limit(() =>
      runHarnessProcess([
        ...["run", "conformance", "--allow-skips", "--target", "url"],
        ...["--base-url", service.deployment.apiUrl, "--keys", keys],
      ]),
    );
    expect(result.exitCode, result.output).toBe(1);
    expect(result.summary?.run.level).toBe("public-api");
    expect(failedConformanceRules(result.summary)).toEqual(["2.6-real-time"]);
  });
});
