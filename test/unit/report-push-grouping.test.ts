import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { Registry } from "prom-client";
import { RunMetrics } from "../../lib/harness/reports/run-metrics.ts";
import { pushGroupProblem } from "../../lib/harness/reports/push-group-problem.ts";
import { exportMetrics, pushGrouping } from "../../lib/harness/reports/push-to-gateway.ts";
import { failingSummary } from "./report-fixtures.ts";
import { useMswServer } from "./msw-server.ts";

function registry(scenarios = ["partner-mix", "webhooks"]): Registry {
  const summary = failingSummary();
  summary.run.scenarios = scenarios;
  return new RunMetrics(summary).finish().registry;
}

describe("Pushgateway grouping", () => {
  const server = useMswServer();

  it("should group by what identifies the job, never by run id", async () => {
    expect(await pushGrouping(registry(), undefined)).toEqual({ scenarios: "partner-mix,webhooks", target: "url" });
    expect(await pushGrouping(registry(), "staging")).toEqual({
      scenarios: "partner-mix,webhooks",
      target: "url",
      push_group: "staging",
    });
  });

  it("should PUT to the job's group, so the next run of the job replaces it", async () => {
    const seen: { method: string; url: string; body: string }[] = [];
    server.use(
      http.all("http://pushgateway.test/*", async ({ request }) => {
        seen.push({ method: request.method, url: request.url, body: await request.text() });
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const lines: string[] = [];
    const ok = await exportMetrics(
      "http://pushgateway.test",
      registry(),
      "20260101T000000Z-smoke-abcd",
      (l) => lines.push(l),
      "staging",
    );
    expect(ok, lines.join("\n")).toBe(true);
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      [
        "PUT",
        "http://pushgateway.test/metrics/job/atd-harness/scenarios/partner-mix%2Cwebhooks/target/url/push_group/staging",
      ],
    ]);
    // The run id travels as a label of the series, not in the URL.
    expect(seen[0]?.body).toContain('run_id="20260101T000000Z-smoke-abcd"');
    expect(lines[0]).toBe(
      '▸ export: Pushgateway http://pushgateway.test/ (group job="atd-harness", scenarios="partner-mix,webhooks", target="url", push_group="staging"; replaces that group, run_id 20260101T000000Z-smoke-abcd)',
    );
  });

  it("should refuse a push group the Pushgateway's URL cannot carry as it is", async () => {
    expect(pushGroupProblem("staging-eu.1")).toBeUndefined();
    expect(pushGroupProblem("a/b")).toMatch(/is not 1-63 letters/);
    expect(pushGroupProblem("")).toMatch(/is not 1-63 letters/);
    const lines: string[] = [];
    expect(await exportMetrics("http://pushgateway.test", registry(), "r", (l) => lines.push(l), "a/b")).toBe(false);
    expect(lines.join("\n")).toContain("Failed to push the metrics: --push-group");
  });
});
