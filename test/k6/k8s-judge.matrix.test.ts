/**
 * `harness judge`: a k6-operator run emulated on this machine (the manifests `harness k8s` wrote, two k6 runners
 * started as the operator starts them, remote write into a real Prometheus), judged from Prometheus by the same
 * verdict code as a local run, with the thresholds of the very script the runners ran.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readK8sRun } from "../../lib/harness/k8s/read-manifests.ts";
import { EmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";
import { HEADER_VALUE_DEFECTS } from "./defect-catalogue.ts";
import { runHarnessProcess } from "./harness-process.ts";
import { runnerArgs } from "./k6-operator-commands.ts";
import { k6 } from "./operator-runner.ts";
import { eventually, startPrometheus } from "./reports-processes.ts";

const RUNNERS = 2;

/** A defect that fails one check of partner-mix on every runner: X-RateLimit-Remaining stays at the limit. */
const [CHECK_DEFECT, DEFECT_CHECK] = HEADER_VALUE_DEFECTS.find(([d]) => d === "rate-limit-remaining-is-limit") as [
  string,
  string,
];

/**
 * Writes the manifests with `harness k8s` and runs them as the operator would: each runner with the operator's own
 * `k6 run` arguments, but without its REST API (no starter job here resumes it) and so not paused.
 */
async function runAsOperator(
  prometheusUrl: string,
  apiUrl: string,
  keys: readonly string[],
  name: string,
  slo: string | undefined,
): Promise<{ manifests: string; requests: number; codes: number[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), "atd-judge-"));
  const sloArgs: string[] = [];
  if (slo !== undefined) {
    writeFileSync(path.join(dir, "slo.json"), slo);
    sloArgs.push("--slo", path.join(dir, "slo.json"));
  }
  const written = await runHarnessProcess(
    [
      "k8s",
      "partner-mix",
      "--base-url",
      apiUrl,
      "--parallelism",
      String(RUNNERS),
      "--profile",
      "smoke",
      "--duration",
      "4s",
      "--prometheus-rw",
      `${prometheusUrl}/api/v1/write`,
      "--name",
      name,
      ...sloArgs,
    ],
    { timeoutMs: 60_000 },
  );
  expect(written.exitCode, written.output).toBe(0);
  const manifests = path.resolve(/manifests: (\S+)/.exec(written.output)?.[1] ?? "");
  const run = await readK8sRun(manifests);
  // The operator mounts the ConfigMap's files beside each other; the TestRun's arguments and env, the Secret's keys.
  for (const [file, text] of Object.entries(run.files)) writeFileSync(path.join(dir, file), text);
  const results = await Promise.all(
    Array.from({ length: RUNNERS }, (_, i) =>
      k6(
        runnerArgs({
          name: run.name,
          parallelism: run.parallelism,
          argv: run.args,
          script: run.scriptFile,
          index: i + 1,
          address: "",
          paused: false,
        }),
        {
          ...run.env,
          ATD_API_KEYS: keys.join(","),
          ATD_SUMMARY_PATH: path.join(dir, `summary-${String(i)}.json`),
        },
        dir,
      ),
    ),
  );
  let requests = 0;
  for (let i = 0; i < RUNNERS; i++) {
    const summary = JSON.parse(readFileSync(path.join(dir, `summary-${String(i)}.json`), "utf8")) as {
      metrics: { http_reqs: { values: { count: number } } };
    };
    requests += summary.metrics.http_reqs.values.count;
  }
  // Remote write pushes every few seconds: wait until both runners' last counts are in.
  await eventually(
    async () => {
      const query = encodeURIComponent(`sum(k6_http_reqs_total{testid="${name}"})`);
      const response = await fetch(`${prometheusUrl}/api/v1/query?query=${query}`);
      const body = (await response.json()) as { data: { result: { value: [number, string] }[] } };
      return Number(body.data.result[0]?.value[1]) === requests ? true : undefined;
    },
    30_000,
    `every runner's requests of ${name} in Prometheus`,
  );
  return { manifests, requests, codes: results.map((r) => r.code) };
}

describe("harness judge", { timeout: 240_000 }, () => {
  it("should judge all runners' samples from Prometheus with the script's thresholds, and fail on a crossed one", async () => {
    await using prometheus = await startPrometheus();
    await using target = await new EmbeddedTarget().withServiceArgs(["--rate-limit", "100000"]).start();
    const keys = (await target.control.partners()).slice(0, 6).map((p) => p.apiKey);

    const passing = await runAsOperator(prometheus.url, target.apiUrl, keys, "atd-judge-pass", undefined);
    expect(passing.codes).toEqual([0, 0]);
    const judged = await runHarnessProcess(["judge", passing.manifests, "--prometheus", prometheus.url]);
    expect(judged.exitCode, judged.output).toBe(0);
    const verdict = judged.summary?.scenarios[0];
    expect(verdict?.metrics.requests).toBe(passing.requests);
    expect(verdict?.findings).toContainEqual({
      rule: "k8s runners",
      finding: "2 runner(s) wrote samples (parallelism 2)",
    });
    // The script's own thresholds, all of them: per-endpoint latency, errors, checks, dropped iterations.
    const judgedThresholds = verdict?.thresholds.map((t) => `${t.metric} ${t.expression}`) ?? [];
    expect(judgedThresholds).toContain("http_req_duration{endpoint:priceListDate} p(95)<300");
    expect(judgedThresholds).toContain("checks rate>=1");
    expect(judgedThresholds).toContain("http_req_failed rate<=0.01");
    const priceListDate = verdict?.thresholds.find(
      (t) => t.metric === "http_req_duration{endpoint:priceListDate}" && t.expression.startsWith("p(95)"),
    );
    expect(priceListDate?.observed).toBeGreaterThan(0);
    expect(judged.output).toMatch(/PASS {2}run atd-judge-pass \(exit 0\)/);
    // The checks by name, each counted once per runner that ran it, none failed.
    const checks = verdict?.checks ?? [];
    expect(checks.find((c) => c.name === DEFECT_CHECK)).toMatchObject({ verdict: "pass", passes: 2, fails: 0 });
    expect(checks.filter((c) => c.verdict !== "pass" || c.passes < 1 || c.passes > RUNNERS)).toEqual([]);
    expect(judged.output).toContain(`PASS  ${String(checks.length)} of ${String(checks.length)} checks`);

    // The same runners' settings with an SLO no service meets, against a service whose rate-limit headers break one
    // check: the judge takes the SLO from the manifests' slo.json, and fails the check by name on both runners.
    const slo = JSON.stringify({ latency: { endpoints: { priceListDate: { p95: 0.001 } } } });
    await target.control.setDefects({ [CHECK_DEFECT]: true });
    const failing = await runAsOperator(prometheus.url, target.apiUrl, keys, "atd-judge-fail", slo);
    expect(failing.codes).toContain(99);
    const crossed = await runHarnessProcess(["judge", failing.manifests, "--prometheus", prometheus.url]);
    expect(crossed.exitCode, crossed.output).toBe(1);
    expect(crossed.output).toMatch(/FAIL {2}threshold http_req_duration\{endpoint:priceListDate\} p\(95\)<0\.001/);
    expect(crossed.output).toContain(`FAIL  check ${DEFECT_CHECK}: 2 of 2 failed`);
    expect(crossed.output).toMatch(/- runner 1: \d+\.\d% of its samples of this check passed/);
    const failedChecks = crossed.summary?.scenarios[0]?.checks.filter((c) => c.verdict === "fail").map((c) => c.name);
    expect(failedChecks).toContain(DEFECT_CHECK);

    // A runner that never wrote: the verdict would cover part of the load, so it fails saying so.
    const three = path.join(path.dirname(passing.manifests), "atd-judge-three.yaml");
    writeFileSync(three, readFileSync(passing.manifests, "utf8").replace(/parallelism: 2/, "parallelism: 3"));
    const partial = await runHarnessProcess(["judge", three, "--prometheus", prometheus.url]);
    expect(partial.exitCode, partial.output).toBe(1);
    expect(partial.output).toContain("only 2 of 3 runners wrote samples");
  });

  it("should exit 2 on a file that is not manifests, and 3 when Prometheus does not answer", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-judge-bad-"));
    const notManifests = path.join(dir, "notes.yaml");
    writeFileSync(notManifests, "just: notes\n");
    const bad = await runHarnessProcess(["judge", notManifests, "--prometheus", "http://127.0.0.1:9"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.output).toMatch(/Failed to read the manifests .*holds no ConfigMap and TestRun\. Please give the file/);

    const written = await runHarnessProcess(
      ["k8s", "smoke", "--base-url", "http://api:8080", "--prometheus-rw", "http://127.0.0.1:9/api/v1/write"],
      { timeoutMs: 60_000 },
    );
    const manifests = path.resolve(/manifests: (\S+)/.exec(written.output)?.[1] ?? "");
    const down = await runHarnessProcess(["judge", manifests, "--prometheus", "http://127.0.0.1:9"]);
    expect(down.exitCode, down.output).toBe(3);
    expect(down.output).toMatch(/Failed to read the results from Prometheus: .*did not answer/);
  });
});
