import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";
import { extensionVerdict } from "../../lib/harness/run-extension.ts";
import { htmlReport } from "../../lib/harness/reports/html-report.ts";
import { rawResultsFile } from "../../lib/harness/reports/raw-samples.ts";
import { writeReports } from "../../lib/harness/reports/write-reports.ts";
import { WEBHOOK_SINK_EXTENSION } from "../../lib/harness/webhooks/types.ts";

const T0 = Date.parse("2026-01-01T00:00:00.000Z");

/** A run of 200 s whose k6 samples come 150-170 s in (a first run builds k6 first) and end long before the run. */
function summary(scenarios: string[] = ["smoke"]): RunSummary {
  return {
    run: {
      id: "20260101T000000Z-smoke-abcd",
      startedAt: new Date(T0).toISOString(),
      finishedAt: new Date(T0 + 200_000).toISOString(),
      durationSeconds: 200,
      target: { kind: "embedded", apiUrl: undefined },
      profile: "smoke",
      duration: "20s",
      scenarios,
      k6: "k6",
      node: "v24.0.0",
    },
    verdict: "pass",
    exitCode: 0,
    errors: [],
    scenarios: [],
    extensions: [],
  };
}

function point(metric: string, seconds: number, value: number, tags: Record<string, string>): string {
  return JSON.stringify({
    metric,
    type: "Point",
    data: { time: new Date(T0 + seconds * 1000).toISOString(), value, tags },
  });
}

function runDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "atd-plot-range-"));
  const lines: string[] = [];
  for (let s = 150; s <= 170; s++) {
    lines.push(point("http_reqs", s, 1, { endpoint: "products", status: "200" }));
    lines.push(point("http_req_duration", s, 20, { endpoint: "products" }));
  }
  writeFileSync(path.join(dir, rawResultsFile("smoke")), gzipSync(`${lines.join("\n")}\n`));
  return dir;
}

/** The x-axis tick labels and the first point of the first line of the chart with this title. */
function chart(html: string, title: string): { ticks: number[]; firstX: number } {
  const at = html.indexOf(`aria-label="${title}"`);
  const svg = html.slice(at, html.indexOf("</svg>", at));
  const ticks = [...svg.matchAll(/text-anchor="(?:middle|end)" class="tick">([\d.]+)<\/text>/g)].map((m) =>
    Number(m[1]),
  );
  const points = /<polyline [^>]*points="([\d.]+),/.exec(svg)?.[1];
  return { ticks, firstX: Number(points) };
}

describe("report.html plots over time", () => {
  it("should start at the first sample and end at the last, not span the whole run", async () => {
    const dir = runDir();
    await writeReports(dir, summary());
    const html = readFileSync(path.join(dir, "report.html"), "utf8");
    const throughput = chart(html, "Throughput per scenario");
    // The plot's left edge (56 px, after the y axis) is the first sample; the run's 150 s before it are not drawn.
    expect(throughput.firstX).toBe(56);
    expect(Math.max(...throughput.ticks)).toBeLessThanOrEqual(20);
    expect(chart(html, "Latency p95 per endpoint").firstX).toBe(56);
    expect(html).toContain("seconds since the first sample (slots of 1 s)");
  });
});

describe("report.html webhook notes", () => {
  const render = (s: RunSummary) => htmlReport({ summary: s, timeline: undefined, dashboards: new Map(), notes: [] });

  it("should say nothing about webhooks in a run that did not ask for them", () => {
    expect(render(summary()).toLowerCase()).not.toContain("webhook");
  });

  it("should say the distribution is missing in a run that asked for the sink", () => {
    const note = "the webhook sink reported no webhook_delivery_latency_seconds";
    expect(render(summary(["webhooks"]))).toContain(note);
    const skipped = summary(["partner-mix"]);
    skipped.skipped = [{ kind: "extension", name: WEBHOOK_SINK_EXTENSION, reason: "no control API" }];
    expect(render(skipped)).toContain(note);
    const crashed = summary(["soak"]);
    crashed.extensions = [extensionVerdict(WEBHOOK_SINK_EXTENSION, { errors: ["The webhook sink was not started."] })];
    expect(render(crashed)).toContain(note);
  });
});
