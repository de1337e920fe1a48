import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  k6OperatorManifests,
  k8sName,
  manifestsYaml,
  type Manifest,
} from "../../lib/harness/k8s/k6-operator-manifests.ts";
import { checkConfigMapSize } from "../../lib/harness/k8s/write-k8s.ts";
import { HarnessError } from "../../lib/harness/exit-codes.ts";
import { validateTestRun } from "../../lib/harness/k8s/validate-testrun.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { initializerScript, operatorArgv, parseOperatorCli, runnerArgs } from "../k6/k6-operator-commands.ts";

const CRD = readFileSync(path.join(REPO_ROOT, "test/data/k6-operator/testrun-crd.excerpt.yaml"), "utf8");

function manifests(extra: { starterImage?: string } = {}): Manifest[] {
  return k6OperatorManifests({
    ...extra,
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

interface TestRunManifest {
  spec: { arguments: string; runner: { env: { name: string; value?: string }[] }; starter?: { image: string } };
}

function testRun(extra: { starterImage?: string } = {}): Manifest & TestRunManifest {
  return manifests(extra).find((m) => m.kind === "TestRun") as Manifest & TestRunManifest;
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
    expect(run.spec.arguments).toContain("--tag testid=atd-mix");
    expect(manifestsYaml(manifests())).toMatch(
      /^apiVersion: v1\nkind: ConfigMap[\s\S]*---\napiVersion: k6.io\/v1alpha1\nkind: TestRun/,
    );
  });

  it("should make a valid Kubernetes name of anything", () => {
    expect(k8sName("ATD_Partner Mix--2026!")).toBe("atd-partner-mix--2026");
    expect(k8sName("x".repeat(80))).toHaveLength(63);
  });

  it("should name a starter image only when one is given, as the CRD's spec.starter.image", () => {
    const withStarter = testRun({ starterImage: "registry.local/k6-starter:1" });
    expect(withStarter.spec.starter).toEqual({ image: "registry.local/k6-starter:1" });
    expect(validateTestRun(CRD, withStarter)).toEqual([]);
    expect(testRun().spec.starter).toBeUndefined();
  });

  it("should turn on native histograms with k6's feature flag, not its legacy variable", () => {
    const env = testRun().spec.runner.env;
    expect(env).toContainEqual({ name: "K6_FEATURES", value: "native-histograms" });
    expect(env.map((e) => e.name)).not.toContain("K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM");
  });
});

describe("the k6-operator's handling of the TestRun's arguments (its v1.6.0 source, ported)", () => {
  it("should keep what k6 archive takes, drop --out, -o and the flags it does not take with their values, and refuse a stray value", () => {
    const cli = parseOperatorCli(
      operatorArgv("--vus 10  --out json -o cloud --linger --tag cloud --user-agent x --verbose -d 5"),
    );
    expect(cli).toEqual({ archiveArgs: ["--vus", "10", "--tag", "cloud", "-d", "5"], hasCloudOut: true });
    expect(parseOperatorCli(["--tag", "", "--vus", "1"]).archiveArgs).toEqual(["--tag", "", "--vus", "1"]);
    expect(() => parseOperatorCli(["run", "--vus", "1"])).toThrow("encountered an invalid value for k6 CLI argument");
  });

  it("should leave the remote-write output out of the initializer's k6 archive", () => {
    const argv = operatorArgv(testRun().spec.arguments);
    const { archiveArgs } = parseOperatorCli(argv);
    expect(archiveArgs).toEqual(["--log-format", "json", "--tag", "testid=atd-mix"]);
    // The form the operator cannot strip: `--out=...` reaches k6 archive, which refuses it (unknown flag: --out).
    expect(parseOperatorCli(["--out=experimental-prometheus-rw"]).archiveArgs).toEqual([
      "--out=experimental-prometheus-rw",
    ]);
    const script = initializerScript({
      script: "/test/partner-mix.js",
      archive: "/tmp/partner-mix.js.archived.tar",
      envNames: ["ATD_API_KEYS"],
      archiveArgs,
    });
    expect(script).toContain(
      'k6 archive /test/partner-mix.js -e ATD_API_KEYS="${ATD_API_KEYS}" -O /tmp/partner-mix.js.archived.tar --log-format json --tag testid=atd-mix',
    );
  });

  it("should give every runner the remote-write output and the testid, after its segment and before its script", () => {
    const argv = operatorArgv(testRun().spec.arguments);
    const args = runnerArgs({
      name: "atd-mix",
      parallelism: 4,
      argv,
      script: "/test/partner-mix.js",
      index: 2,
      address: "0.0.0.0:6565",
      paused: true,
    });
    expect(args.join(" ")).toBe(
      "--quiet --execution-segment=1/4:2/4 --execution-segment-sequence=0,1/4,2/4,3/4,1 --log-format json --out experimental-prometheus-rw --tag testid=atd-mix /test/partner-mix.js --address=0.0.0.0:6565 --paused --tag instance_id=2 --tag testrun_name=atd-mix",
    );
  });

  it("should refuse manifests whose ConfigMap is over the size Kubernetes allows, and keep one just under it", () => {
    const of = (script: string) =>
      k6OperatorManifests({
        scenario: "smoke",
        script,
        parallelism: 1,
        name: "atd-big",
        namespace: undefined,
        baseUrl: "http://api:8080",
        keysSecret: { name: "atd-api-keys", key: "keys" },
        profile: "smoke",
        duration: undefined,
        prometheusRw: undefined,
        image: "grafana/k6:2.2.0",
      });
    const big = "x".repeat(1024 * 1024);
    expect(() => {
      checkConfigMapSize(of(big), big);
    }).toThrow(HarnessError);
    expect(() => {
      checkConfigMapSize(of(big), big);
    }).toThrow(
      /^Failed to write the manifests: the ConfigMap would hold \d+ bytes, over the 1048576 Kubernetes allows .*Please /,
    );
    const fits = "x".repeat(1024 * 1024 - 100);
    expect(() => {
      checkConfigMapSize(of(fits), fits);
    }).not.toThrow();
  });
});
