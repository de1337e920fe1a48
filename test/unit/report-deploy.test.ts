import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { RunMetrics } from "../../lib/harness/reports/run-metrics.ts";
import { failingSummary } from "./report-fixtures.ts";

interface Dashboard {
  panels: { title: string; targets?: { expr: string }[] }[];
}

const dashboard = JSON.parse(
  readFileSync(path.join(REPO_ROOT, "deploy/grafana/dashboards/atd-harness.json"), "utf8"),
) as Dashboard;
const expressions = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

describe("compose stack files", () => {
  it("should chart only atd_* series that metrics.prom has", async () => {
    const metrics = new RunMetrics(failingSummary()).finish();
    metrics.observe("smoke", { metric: "http_req_duration", value: 1, time: 0, tags: { endpoint: "a" } });
    metrics.observe("smoke", { metric: "http_reqs", value: 1, time: 0, tags: { endpoint: "a", status: "200" } });
    const text = await metrics.text();
    const used = new Set(expressions.flatMap((e) => e.expr.match(/\batd_\w+/g) ?? []));
    expect(used.size).toBeGreaterThan(5);
    for (const name of used) expect(text, name).toMatch(new RegExp(`^${name}[{ ]`, "m"));
  });

  it("should mount files that exist and turn the remote-write receiver on", () => {
    const compose = parse(readFileSync(path.join(REPO_ROOT, "docker-compose.yml"), "utf8")) as {
      services: Record<string, { image: string; command?: string[]; volumes?: string[]; network_mode?: string }>;
    };
    const { prometheus, pushgateway, grafana } = compose.services;
    expect(prometheus?.command).toContain("--web.enable-remote-write-receiver");
    expect(prometheus?.command).toContain("--enable-feature=native-histograms");
    for (const service of [prometheus, pushgateway, grafana]) {
      expect(service?.network_mode).toBe("host");
      expect(service?.image).toMatch(/^[\w/.-]+:v?\d+\.\d+\.\d+$/);
      for (const volume of service?.volumes ?? []) {
        const source = volume.split(":")[0] ?? "";
        if (source.startsWith("./")) expect(existsSync(path.join(REPO_ROOT, source)), source).toBe(true);
      }
    }
  });
});
