import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  k6OperatorManifests,
  k8sName,
  manifestsYaml,
  type Manifest,
} from "../../lib/harness/k8s/k6-operator-manifests.ts";
import { validateTestRun } from "../../lib/harness/k8s/validate-testrun.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";

const CRD = readFileSync(path.join(REPO_ROOT, "test/data/k6-operator/testrun-crd.excerpt.yaml"), "utf8");

function manifests(): Manifest[] {
  return k6OperatorManifests({
    scenario: "partner-mix",
    script: "export default function () {}\n",
    parallelism: 4,
    name: "atd-mix",
    namespace: "load",
    baseUrl: "http://api.internal:8080",
    keysSecret: { name: "atd-api-keys", key: "keys" },
    profile: "average",
    duration: "10m",
    prometheusRw: "http://prometheus:9090/api/v1/write",
    image: "grafana/k6:2.2.0",
  });
}

function testRun(): Manifest {
  return manifests().find((m) => m.kind === "TestRun") as Manifest;
}

describe("k6-operator manifests", () => {
  it("should validate against the TestRun CRD schema", () => {
    expect(validateTestRun(CRD, testRun())).toEqual([]);
  });

  it("should fail validation on a wrong type, a missing required field and an unknown field", () => {
    const run = testRun() as { spec: Record<string, unknown> };
    expect(validateTestRun(CRD, { ...run, spec: { ...run.spec, parallelism: "4" } }).join(" ")).toMatch(
      /parallelism: must be integer/,
    );
    const { script: _script, ...noScript } = run.spec;
    expect(validateTestRun(CRD, { ...run, spec: noScript }).join(" ")).toMatch(/must have required property 'script'/);
    expect(validateTestRun(CRD, { ...run, spec: { ...run.spec, paralelism: 4 } }).join(" ")).toMatch(
      /additional properties \(paralelism\)/,
    );
    expect(validateTestRun(CRD, { ...run, spec: { ...run.spec, cleanup: "always" } }).join(" ")).toMatch(
      /allowed values/,
    );
  });

  it("should reference the API keys through a Secret and never carry them inline", () => {
    const env = (testRun() as { spec: { runner: { env: { name: string; value?: string; valueFrom?: unknown }[] } } })
      .spec.runner.env;
    const keys = env.find((e) => e.name === "ATD_API_KEYS");
    expect(keys).toEqual({ name: "ATD_API_KEYS", valueFrom: { secretKeyRef: { name: "atd-api-keys", key: "keys" } } });
    expect(env.find((e) => e.name === "ATD_BASE_URL")?.value).toBe("http://api.internal:8080");
    // Every runner reads all keys: each must take its own slice by its execution segment.
    expect(env.find((e) => e.name === "ATD_KEYS_BY_SEGMENT")?.value).toBe("1");
    expect(env.find((e) => e.name === "K6_PROMETHEUS_RW_SERVER_URL")?.value).toBe(
      "http://prometheus:9090/api/v1/write",
    );
  });

  it("should put the bundled script in the ConfigMap the TestRun names, and tag samples with the run's name", () => {
    const [configMap, run] = manifests() as [
      Manifest & { data: Record<string, string> },
      Manifest & {
        spec: { script: { configMap: { name: string; file: string } }; arguments: string; parallelism: number };
      },
    ];
    expect(run.spec.script.configMap).toEqual({ name: "atd-mix", file: "partner-mix.js" });
    expect(configMap.data["partner-mix.js"]).toBe("export default function () {}\n");
    expect(run.spec.parallelism).toBe(4);
    expect(run.spec.arguments).toContain("--tag=testid=atd-mix");
    expect(manifestsYaml(manifests())).toMatch(
      /^apiVersion: v1\nkind: ConfigMap[\s\S]*---\napiVersion: k6.io\/v1alpha1\nkind: TestRun/,
    );
  });

  it("should make a valid Kubernetes name of anything", () => {
    expect(k8sName("ATD_Partner Mix--2026!")).toBe("atd-partner-mix--2026");
    expect(k8sName("x".repeat(80))).toHaveLength(63);
  });
});
