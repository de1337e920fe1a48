import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { validateTestRun } from "../../lib/harness/k8s/validate-testrun.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { runHarnessProcess } from "./harness-process.ts";

const CRD = readFileSync(path.join(REPO_ROOT, "test/data/k6-operator/testrun-crd.excerpt.yaml"), "utf8");

describe("harness k8s", () => {
  it("should write a ConfigMap with the bundled scenario and a TestRun that validates against the CRD", async () => {
    const result = await runHarnessProcess(
      ["k8s", "partner-mix", "--base-url", "http://api.internal:8080", "--parallelism", "3", "--name", "atd-mix"],
      { timeoutMs: 60_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    const file = /manifests: (\S+)/.exec(result.output)?.[1] ?? "";
    const docs = parseAllDocuments(readFileSync(path.resolve(REPO_ROOT, file), "utf8")).map(
      (d) => d.toJS() as Record<string, unknown>,
    );
    expect(docs.map((d) => d.kind)).toEqual(["ConfigMap", "TestRun"]);
    const script = (docs[0]?.data as Record<string, string>)["partner-mix.js"];
    expect(script).toContain("handleSummary");
    expect(validateTestRun(CRD, docs[1])).toEqual([]);
    expect(JSON.stringify(docs)).not.toMatch(/atd-partner-\d/);
  });

  it("should refuse to split the rate-limit scenario over runners", async () => {
    const result = await runHarnessProcess(["k8s", "rate-limit", "--base-url", "http://api:8080"], {
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/Failed to write the manifests: rate-limit must see every request of its keys/);
  });
});
