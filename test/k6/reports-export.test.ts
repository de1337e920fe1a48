import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { describe, expect, it } from "vitest";
import { runHarnessProcess } from "./harness-process.ts";
import {
  eventually,
  freePort,
  harnessReport,
  requireProgram,
  startPrometheus,
  startPushgateway,
} from "./reports-processes.ts";

interface PushgatewayGroup {
  labels: Record<string, string>;
  [metric: string]: unknown;
}

describe("Prometheus export", () => {
  it("should push the run's metrics to a real Pushgateway, grouped by job with the run id as a label", async () => {
    await using pushgateway = await startPushgateway();
    const run = await runHarnessProcess(["run", "smoke", "--duration", "3s", "--pushgateway", pushgateway.url]);
    expect(run.exitCode, run.output).toBe(0);
    const runId = path.basename(run.runDir ?? "");
    expect(run.output).toContain(
      `▸ export: Pushgateway ${pushgateway.url}/ (group job="atd-harness", scenarios="smoke", target="embedded"; replaces that group, run_id ${runId})`,
    );

    const groups = await fetch(`${pushgateway.url}/api/v1/metrics`, { signal: AbortSignal.timeout(5000) })
      .then((r) => r.json() as Promise<{ data: PushgatewayGroup[] }>)
      .then((b) => b.data);
    const group = groups.find((g) => g.labels.job === "atd-harness");
    expect(group?.labels, JSON.stringify(groups).slice(0, 2000)).toEqual({
      job: "atd-harness",
      scenarios: "smoke",
      target: "embedded",
    });

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
      /^Failed to read --prometheus-rw "prometheus:9090": its scheme is prometheus, and the harness speaks http and https only\./m,
    );
  });

  it("should stream k6's samples into a real Prometheus by remote write, tagged with the run id", async () => {
    await using prometheus = await startPrometheus();
    // k6 pushes every 5 s by default; a short run needs more than one push for rate() in the dashboard's panels.
    // The setting reaches k6 through the harness's environment, as any K6_PROMETHEUS_RW_* setting does.
    process.env.K6_PROMETHEUS_RW_PUSH_INTERVAL = "1s";
    const run = await runHarnessProcess([
      "run",
      "smoke",
      "--duration",
      "3s",
      "--prometheus-rw",
      `${prometheus.url}/api/v1/write`,
    ]);
    delete process.env.K6_PROMETHEUS_RW_PUSH_INTERVAL;
    expect(run.exitCode, run.output).toBe(0);
    const runId = path.basename(run.runDir ?? "");
    const query = async (promql: string) => {
      const url = `${prometheus.url}/api/v1/query?query=${encodeURIComponent(promql)}`;
      const body = (await fetch(url, { signal: AbortSignal.timeout(5000) }).then((r) => r.json())) as {
        status: string;
        error?: string;
        data: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      if (body.status !== "success") throw new Error(`Failed to query ${promql}: ${String(body.error)}`);
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
    // The compose stack's dashboard queries are valid PromQL, and its live panels find this run by testid.
    const dashboard = JSON.parse(
      readFileSync(path.join(REPO_ROOT, "deploy/grafana/dashboards/atd-harness.json"), "utf8"),
    ) as { panels: { title: string; targets?: { expr: string }[] }[] };
    for (const panel of dashboard.panels) {
      for (const target of panel.targets ?? []) {
        const expr = target.expr
          .replaceAll("$run_id", ".*")
          .replaceAll("$testid", runId)
          .replaceAll("$__rate_interval", "1m");
        const result = await query(expr);
        if (/Latency p95 per endpoint|Requests per second/.test(panel.title) && expr.includes("k6_")) {
          expect(result.length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
        }
      }
    }
  });

  it("should give the compose stack a Prometheus configuration promtool accepts", () => {
    const promtool = requireProgram("promtool", "prometheus");
    const check = spawnSync(promtool, ["check", "config", path.join(REPO_ROOT, "deploy/prometheus/prometheus.yml")], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
  });
});
