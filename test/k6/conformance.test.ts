/**
 * `harness run conformance` against the reference service: every rule it can judge passes, each as a check named by
 * the rule's id with a junit.xml case of its own; what it cannot judge is listed as not judged with why (and fails
 * the run without --allow-skips); a defect that breaks one rule fails that rule's check and no other. Every rule's
 * own defect, and the run against the required-hooks service with renamed keys: conformance.matrix.test.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFORMANCE_RULES } from "../../lib/contract/conformance-rules.ts";
import { runHarnessProcess } from "./harness-process.ts";
import { failedConformanceRules } from "./conformance-runs.ts";

describe("harness run conformance", { timeout: 150_000 }, () => {
  it("should pass every rule it judges on the correct service, one junit case per rule, the rest not judged with why", async () => {
    const result = await runHarnessProcess(["run", "conformance", "--allow-skips"]);
    expect(result.exitCode, result.output).toBe(0);
    const scenario = result.summary?.scenarios[0];
    const judged = (scenario?.checks ?? []).map((c) => c.name.split(":")[0]);
    expect(judged.length).toBeGreaterThan(15);
    expect(scenario?.checks.every((c) => c.verdict === "pass")).toBe(true);
    const ids = new Set(CONFORMANCE_RULES.map((r) => r.id));
    for (const id of judged) expect(ids.has(id ?? ""), `${String(id)} is a rule of the inventory`).toBe(true);
    const notJudged = (result.summary?.skipped ?? []).filter((s) => s.kind === "check");
    expect(notJudged.every((s) => s.reason.length > 0)).toBe(true);
    // Every rule the scenario judges or leaves has its case in junit.xml, named by its id.
    const junit = readFileSync(path.join(result.runDir ?? "", "junit.xml"), "utf8");
    for (const id of [...judged, ...notJudged.map((s) => s.name.split(":")[0])]) {
      expect(junit).toContain(`${String(id)}:`);
    }
    // Without --allow-skips the same run fails, naming what it could not judge.
    const strict = await runHarnessProcess(["run", "conformance"]);
    expect(strict.exitCode).toBe(1);
    expect(strict.output).toMatch(/NOT JUDGED /);
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
