/**
 * `harness run conformance` against the reference service: every rule of its own is judged and passes, each as a
 * check named by the rule's id with a junit.xml case of its own; on a service without hooks the rules that need them
 * are not judged by design, with why, and the run passes without --allow-skips; a defect that breaks one rule fails that
 * rule's check and no other. Every rule's
 * own defect, and the run against the required-hooks service with renamed keys: conformance.matrix.test.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFORMANCE_RULES } from "../../lib/contract/conformance-rules.ts";
import { runHarnessProcess } from "./harness-process.ts";
import { failedConformanceRules } from "./conformance-runs.ts";
import { startPublicApiService } from "./public-api-service.ts";

describe("harness run conformance", { timeout: 150_000 }, () => {
  it("should judge and pass every rule of its own on the reference service, one junit case per rule", async () => {
    const result = await runHarnessProcess(["run", "conformance"]);
    expect(result.exitCode, result.output).toBe(0);
    const scenario = result.summary?.scenarios[0];
    const judged = (scenario?.checks ?? []).map((c) => c.name.split(":")[0] ?? c.name);
    expect(scenario?.checks.every((c) => c.verdict === "pass")).toBe(true);
    // Every rule the inventory gives this scenario is judged here, with the hooks the embedded service has.
    const own = CONFORMANCE_RULES.filter((r) => r.judgedBy.scenario === "conformance").map((r) => r.id);
    expect([...judged].sort()).toEqual([...own].sort());
    expect(result.summary?.skipped ?? []).toEqual([]);
    const junit = readFileSync(path.join(result.runDir ?? "", "junit.xml"), "utf8");
    for (const id of own) expect(junit).toContain(`${id}:`);
  });

  it("should call the rules that need hooks not judged by design, with why, and pass a service without them", async () => {
    await using service = await startPublicApiService();
    const args = ["run", "conformance", "--target", "url", "--base-url", service.deployment.apiUrl];
    const keys = service.targetArgs[service.targetArgs.indexOf("--keys") + 1] ?? "";
    // No --allow-skips: what the level cannot judge by design does not fail the run.
    const strict = await runHarnessProcess([...args, "--keys", keys]);
    expect(strict.exitCode, strict.output).toBe(0);
    expect((strict.summary?.skipped ?? []).filter((s) => s.kind !== "by-design")).toEqual([]);
    expect(strict.output).toMatch(/N\/A {3}gaps-error-410-gone: .*not judged by design at the public-api level/);
    const notJudged = (strict.summary?.skipped ?? []).filter((s) => /needs the test hooks/.test(s.reason));
    const needHooks = CONFORMANCE_RULES.filter(
      (r) => r.judgedBy.scenario === "conformance" && r.level === "required-hooks",
    ).map((r) => r.id);
    expect(notJudged.map((s) => s.name.split(":")[0]).sort()).toEqual(expect.arrayContaining(needHooks.sort()));
    // The reference service's own limit on body size is in no other service's verdict.
    const names = [...(strict.summary?.scenarios[0]?.checks ?? []), ...(strict.summary?.skipped ?? [])].map(
      (c) => c.name.split(":")[0],
    );
    expect(names).not.toContain("gaps-error-413");
    expect(strict.summary?.scenarios[0]?.checks.every((c) => c.verdict === "pass")).toBe(true);
    // Judged through the public API alone: the run's key sells a slot out and reads it back.
    const judged = (strict.summary?.scenarios[0]?.checks ?? []).map((c) => c.name.split(":")[0]);
    expect(judged).toContain("2.6-real-time");
  });

  it("should fail a cacheable single-date answer by 2.6-no-cache alone", async () => {
    const result = await runHarnessProcess([
      "run",
      "conformance",
      "--allow-skips",
      "--service-args",
      "--defects conformance-single-date-cacheable",
    ]);
    expect(result.exitCode, result.output).toBe(1);
    expect(failedConformanceRules(result.summary)).toEqual(["2.6-no-cache"]);
    const failed = result.summary?.scenarios[0]?.checks.find((c) => c.name.startsWith("2.6-no-cache"));
    // The evidence: the request and what came back.
    expect(failed?.problems.join(" ")).toMatch(/GET \/v2\/product-types\/.*\/price-lists\/\d{4}-\d{2}-\d{2}/);
  });
});
