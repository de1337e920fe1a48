import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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

  it("should ship an SLO override beside the script, and refuse one with a key the SLO table does not have", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-k8s-slo-"));
    const good = path.join(dir, "slo.json");
    writeFileSync(good, JSON.stringify({ errorRate: 0.005 }));
    const result = await runHarnessProcess(
      ["k8s", "partner-mix", "--base-url", "http://api.internal:8080", "--name", "atd-slo", "--slo", good],
      { timeoutMs: 60_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    const file = /manifests: (\S+)/.exec(result.output)?.[1] ?? "";
    const text = readFileSync(path.resolve(REPO_ROOT, file), "utf8");
    const [configMap, testRun] = parseAllDocuments(text).map((d) => d.toJS() as Record<string, unknown>);
    expect((configMap?.data as Record<string, string>)["slo.json"]).toBe(JSON.stringify({ errorRate: 0.005 }));
    expect(JSON.stringify(testRun)).toContain('{"name":"ATD_SLO_FILE","value":"slo.json"}');

    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ errorRatio: 0.005 }));
    const refused = await runHarnessProcess(["k8s", "partner-mix", "--base-url", "http://api:8080", "--slo", bad], {
      timeoutMs: 60_000,
    });
    expect(refused.exitCode).toBe(2);
    expect(refused.output).toMatch(/Failed to read the SLO file .*bad\.json: unknown key slo\.errorRatio/);
  });

  it("should refuse to split the rate-limit scenario over runners", async () => {
    const result = await runHarnessProcess(["k8s", "rate-limit", "--base-url", "http://api:8080"], {
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/Failed to write the manifests: rate-limit must see every request of its keys/);
  });
});
