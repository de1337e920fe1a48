import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHarnessProcess } from "./harness-process.ts";
import { eventually, freePort, harnessReport, startPrometheus, startPushgateway } from "./reports-processes.ts";

interface PushgatewayGroup {
  labels: Record<string, string>;
  [metric: string]: unknown;
}

describe("Prometheus export", () => {
  it("should push the run's metrics to a real Pushgateway, grouped by run id", async () => {
    await using pushgateway = await startPushgateway();
    const run = await runHarnessProcess(["run", "smoke", "--duration", "3s", "--pushgateway", pushgateway.url]);
    expect(run.exitCode, run.output).toBe(0);
    const runId = path.basename(run.runDir ?? "");
    expect(run.output).toContain(`▸ export: Pushgateway ${pushgateway.url}/ (job atd-harness, run_id ${runId})`);

    const groups = await fetch(`${pushgateway.url}/api/v1/metrics`, { signal: AbortSignal.timeout(5000) })
      .then((r) => r.json() as Promise<{ data: PushgatewayGroup[] }>)
      .then((b) => b.data);
    const group = groups.find((g) => g.labels.job === "atd-harness" && g.labels.run_id === runId);
    expect(group, JSON.stringify(groups).slice(0, 2000)).toBeDefined();

    const scraped = await fetch(`${pushgateway.url}/metrics`, { signal: AbortSignal.timeout(5000) }).then((r) =>
      r.text(),
    );
    const mine = scraped.split("\n").filter((l) => l.includes(`run_id="${runId}"`));
    expect(mine.find((l) => l.startsWith("atd_run_passed{"))).toMatch(/ 1$/);
    expect(
      mine.some((l) => /^atd_http_request_duration_seconds_count\{.*endpoint="products".* [1-9]\d*$/.test(l)),
    ).toBe(true);
    expect(mine.some((l) => l.startsWith("atd_throttles_total{"))).toBe(true);
    // The same registry as metrics.prom: nothing in it names a partner's key.
    expect(scraped).not.toMatch(/atd-partner-\d\d/);
  });

  it("should exit 1 with what to check when the Pushgateway does not answer", async () => {
    const run = await runHarnessProcess(["run", "smoke", "--duration", "1s"]);
    expect(run.exitCode, run.output).toBe(0);
    const closed = `http://127.0.0.1:${String(await freePort())}`;
    const result = await harnessReport([run.runDir ?? "", "--pushgateway", closed]);
    expect(result.exitCode, result.output).toBe(1);
    expect(result.output).toContain(`Failed to push the metrics to the Pushgateway at ${closed}/: `);
    expect(result.output).toContain("Please check --pushgateway (HARNESS_PUSHGATEWAY)");
  });

  it("should exit 2 on a --prometheus-rw that is not an http URL", async () => {
    const run = await runHarnessProcess(["run", "smoke", "--prometheus-rw", "prometheus:9090"]);
    expect(run.exitCode).toBe(2);
    expect(run.output).toMatch(
      /--prometheus-rw <url>' argument 'prometheus:9090' is invalid\. must be an http\(s\) URL/,
    );
  });

  it("should stream k6's samples into a real Prometheus by remote write, tagged with the run id", async () => {
    await using prometheus = await startPrometheus();
    const run = await runHarnessProcess([
      "run",
      "smoke",
      "--duration",
      "3s",
      "--prometheus-rw",
      `${prometheus.url}/api/v1/write`,
    ]);
    expect(run.exitCode, run.output).toBe(0);
    const runId = path.basename(run.runDir ?? "");
    const query = async (promql: string) => {
      const url = `${prometheus.url}/api/v1/query?query=${encodeURIComponent(promql)}`;
      const body = (await fetch(url, { signal: AbortSignal.timeout(5000) }).then((r) => r.json())) as {
        data: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      return body.data.result;
    };
    const requests = await eventually(
      async () => {
        const result = await query(`sum(k6_http_reqs_total{testid="${runId}"})`);
        return result.length ? Number(result[0]?.value[1]) : undefined;
      },
      20_000,
      `k6_http_reqs_total{testid="${runId}"} in Prometheus\n${prometheus.output()}`,
    );
    expect(requests).toBe(run.summary?.scenarios[0]?.metrics.requests);
    // Trends arrive as native histograms: histogram_count works on them without _bucket series.
    const latency = await query(`histogram_count(k6_http_req_duration_seconds{testid="${runId}"})`);
    expect(latency.length, prometheus.output()).toBeGreaterThan(0);
    expect(latency.map((r) => r.metric.endpoint)).toEqual(expect.arrayContaining(["products", "product"]));
  });
});
