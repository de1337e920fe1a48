/** The capacity scenario over the profile's twelve steps: knee, plot, gauges and the plot in report.html. */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CAPACITY_STEP_RATES } from "../../lib/contract/profiles.ts";
import { runHarnessProcess } from "./harness-process.ts";
import { harnessReport } from "./reports-processes.ts";

describe("harness run capacity (twelve steps)", () => {
  it("should find the knee, write the plot and the gauges, and show the plot in report.html", async () => {
    // 3 s holds: 12 steps in about a minute. The rate limit is raised so throttling cannot cap the run.
    const result = await runHarnessProcess(
      ["run", "capacity", "--duration", "3s", "--service-args", "--rate-limit 1000000"],
      { timeoutMs: 170_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    const capacity = result.summary?.extensions.find((e) => e.name === "capacity");
    expect(capacity?.checks[0]?.verdict).toBe("pass");
    expect(capacity?.figures.kneeOfferedPerSecond).toBeGreaterThanOrEqual(CAPACITY_STEP_RATES[0] ?? 0);
    expect(capacity?.figures.safeOperatingRatePerSecond).toBeGreaterThan(0);
    const data = JSON.parse(readFileSync(path.join(result.runDir ?? "", "capacity.json"), "utf8")) as {
      steps: { requests: number; p95Ms: number }[];
    };
    expect(data.steps).toHaveLength(CAPACITY_STEP_RATES.length);
    expect(data.steps.every((s) => s.requests > 0 && s.p95Ms > 0)).toBe(true);
    expect(readFileSync(path.join(result.runDir ?? "", "capacity.svg"), "utf8")).toMatch(/^<svg [\s\S]*knee/);
    const prom = readFileSync(path.join(result.runDir ?? "", "metrics.prom"), "utf8");
    expect(prom).toMatch(/atd_capacity_knee_requests_per_second\{[^}]*\} \d/);
    expect(prom).toMatch(/atd_capacity_step_throughput_requests_per_second\{[^}]*offered="100"/);
    expect(prom).toMatch(/atd_capacity_step_latency_seconds\{[^}]*percentile="95"[^}]*\} \d/);
    expect(result.output).not.toMatch(/left out/);

    // report.html shows the capacity plot (inline SVG, the knee marked, a caption with the knee and the safe rate).
    const runDir = result.runDir ?? "";
    const html = readFileSync(path.join(runDir, "report.html"), "utf8");
    const knee = String(capacity?.figures.kneeOfferedPerSecond);
    const safe = Number(capacity?.figures.safeOperatingRatePerSecond).toFixed(0);
    expect(html).toContain('<div class="plot-title">Capacity: throughput and p95 latency against offered load</div>');
    expect(html).toMatch(/<svg [^>]*aria-label="Achieved throughput against offered load"/);
    expect(html).toMatch(/<polyline [^>]*points="[\d., ]+"><title>p95<\/title>/);
    expect(html).toContain(`<title>knee ${knee}/s offered</title>`);
    expect(html).toMatch(
      new RegExp(`<figcaption class="plot-caption">Knee: ${knee}/s offered, [^<]*Safe operating rate: ${safe}/s`),
    );
    // `harness report` draws it again from summary.json alone: the same bytes without capacity.svg or capacity.json.
    rmSync(path.join(runDir, "capacity.svg"));
    rmSync(path.join(runDir, "capacity.json"));
    rmSync(path.join(runDir, "report.html"));
    const rerender = await harnessReport([runDir]);
    expect(rerender.exitCode, rerender.output).toBe(0);
    expect(readFileSync(path.join(runDir, "report.html"), "utf8")).toBe(html);
  });
});
