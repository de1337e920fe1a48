/**
 * `harness k8s <scenario>`: the manifests that run a scenario on a cluster with the k6-operator, which splits the test
 * over `parallelism` runner pods with execution segments (the same mechanism as `harness run --segments`).
 *
 * - A ConfigMap holds the bundled script (dist/k6/<scenario>.js: one self-contained file, as k6 needs it).
 * - A TestRun (k6.io/v1alpha1) runs it; the runners get the target and the run's settings as ATD_* variables, and the
 *   API keys from a Secret by reference (secretKeyRef), never inline: manifests end up in repositories and CI logs.
 * - The TestRun's `arguments` are split on whitespace by the operator, which also builds its initializer's `k6 archive`
 *   from them, leaving out `--out <value>` only when flag and value are separate words: `--out=x` would reach
 *   `k6 archive`, which has no --out, and the TestRun would end in stage error. So every flag here is written with
 *   its value as a separate word (test/k6/k6-operator-commands.ts mirrors the operator's handling).
 * - The starter (the job that un-pauses the runners with curl) uses the operator's own image unless `starterImage`
 *   names one: a cluster that cannot pull from that registry needs its own image with sh and curl.
 * - Results come back through Prometheus remote write: every runner streams its samples tagged testid=<name> (and the
 *   operator's instance_id), trends as native histograms, and `harness judge` (judge-k8s-run.ts) reads them back and
 *   judges them with the same verdict code as a local run: thresholds on all runners' samples together. Each runner
 *   also evaluates the thresholds on its own share (k6 knows no other way); its exit code is not the verdict.
 * - Every runner pod reads the same Secret, and ATD_KEYS_BY_SEGMENT=1 makes each take its own slice of the keys by
 *   the execution segment the operator starts it with: the same split as `harness run --segments` (partitionKeys in
 *   lib/contract/execution-segments.ts), so no two runners spend one key's allowance. A runner whose slice would be
 *   empty (fewer keys than parallelism) aborts the test saying so.
 */
import { stringify } from "yaml";
import { K6_ENV } from "../../contract/index.ts";
import { SLO_FILE, type SloTable } from "../../contract/slo.ts";
import { TRAFFIC_FILE, type TrafficModel } from "../../contract/traffic-model.ts";

export interface K6OperatorRequest {
  scenario: string;
  /** The bundled script's text. */
  script: string;
  parallelism: number;
  /** DNS-1123 name for the ConfigMap and TestRun; also the testid the samples are tagged with. */
  name: string;
  namespace: string | undefined;
  /** The partner API as the runner pods reach it. */
  baseUrl: string;
  /** The Secret (and key in it) holding the comma-separated API keys. */
  keysSecret: { name: string; key: string };
  profile: string;
  duration: string | undefined;
  /** Prometheus remote-write URL the runners push to. */
  prometheusRw: string | undefined;
  /** The runner image: a k6 build with the same extensions as .tools/bin/k6 (none beyond k6's own outputs). */
  image: string;
  /** The starter image (sh and curl); undefined: the operator's default, pulled from its registry. */
  starterImage?: string;
  /**
   * The SLO table with --slo merged (the same readSloFile as `harness run`): shipped whole beside the script in the
   * ConfigMap, which k6 reads as is. Undefined: no --slo, k6 judges by the default table.
   */
  slo?: SloTable;
  /** The traffic model with --traffic merged, shipped whole the same way (traffic.json). Undefined: the default model. */
  traffic?: TrafficModel;
}

export type Manifest = Record<string, unknown>;

/** Kubernetes names: lower-case alphanumerics and '-', at most 63 characters. */
export function k8sName(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");
  return name || "atd-run";
}

export function k6OperatorManifests(request: K6OperatorRequest): Manifest[] {
  const file = `${request.scenario}.js`;
  const metadata = {
    name: request.name,
    ...(request.namespace ? { namespace: request.namespace } : {}),
    labels: { "app.kubernetes.io/part-of": "atd-harness", "atd-harness/scenario": request.scenario },
  };
  const env: Manifest[] = [
    { name: K6_ENV.baseUrl, value: request.baseUrl },
    { name: K6_ENV.profile, value: request.profile },
    ...(request.duration ? [{ name: K6_ENV.duration, value: request.duration }] : []),
    { name: K6_ENV.summaryPath, value: "/tmp/k6-summary.json" },
    ...(request.slo === undefined ? [] : [{ name: K6_ENV.sloFile, value: SLO_FILE }]),
    ...(request.traffic === undefined ? [] : [{ name: K6_ENV.trafficFile, value: TRAFFIC_FILE }]),
    {
      name: K6_ENV.apiKeys,
      valueFrom: { secretKeyRef: { name: request.keysSecret.name, key: request.keysSecret.key } },
    },
    { name: K6_ENV.keysBySegment, value: "1" },
    { name: "K6_NO_USAGE_REPORT", value: "true" },
  ];
  const args = ["--log-format", "json"];
  if (request.prometheusRw) {
    args.push("--out", "experimental-prometheus-rw", "--tag", `testid=${request.name}`);
    env.push(
      { name: "K6_PROMETHEUS_RW_SERVER_URL", value: request.prometheusRw },
      // k6 2.x's feature flag for trends as native histograms (K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM is its
      // legacy alias, warned about at every start).
      { name: "K6_FEATURES", value: "native-histograms" },
    );
  }
  return [
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata,
      data: {
        [file]: request.script,
        ...(request.slo === undefined ? {} : { [SLO_FILE]: JSON.stringify(request.slo) }),
        ...(request.traffic === undefined ? {} : { [TRAFFIC_FILE]: JSON.stringify(request.traffic) }),
      },
    },
    {
      apiVersion: "k6.io/v1alpha1",
      kind: "TestRun",
      metadata,
      spec: {
        parallelism: request.parallelism,
        script: { configMap: { name: request.name, file } },
        arguments: args.join(" "),
        // Runners may share a node: a small run should not need as many nodes as runners (separate: true spreads them).
        separate: false,
        cleanup: "post",
        runner: { image: request.image, env },
        ...(request.starterImage === undefined ? {} : { starter: { image: request.starterImage } }),
      },
    },
  ];
}

/** The manifests as one YAML stream (kubectl apply -f). */
export function manifestsYaml(manifests: readonly Manifest[]): string {
  return manifests.map((m) => stringify(m, { lineWidth: 0 })).join("---\n");
}
