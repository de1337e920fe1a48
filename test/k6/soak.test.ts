/**
 * A short soak on the correct service: the scenario runs with churn and the webhook sink as every soak does, the
 * scraper samples the service, the drift figures reach summary.json and metrics.prom, and the sink expects the
 * follow-on events of the soak's own bookings (supplier decisions, their vouchers, cancellations ending) and exports
 * their latency, and k6 exports no web dashboard and keeps Go's garbage collector target. The rules are loose here
 * (20 s on a shared two-core host is mostly warm-up); soak.matrix.test.ts proves each drift check fails on its defect.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { goEnvRecordingK6 } from "./go-env-recording-k6.ts";
import { runHarnessProcess, tempFile } from "./harness-process.ts";
import { expectLatencyHistogram, timedPerType } from "./webhook-latency-files.ts";
import { sinkOf } from "./webhook-runs.ts";

const LOOSE_RULES = tempFile("soak-rules.json", {
  p95ToleranceMs: 50,
  memorySlopeBytesPerMinute: 64 * 1024 * 1024,
});

describe("harness run soak (short)", () => {
  it("should pass with churn, the sink and the scraper, export the drift figures and expect follow-on events", async () => {
    const k6 = await goEnvRecordingK6();
    const result = await runHarnessProcess(["run", "soak", "--duration", "20s", "--soak-config", LOOSE_RULES], {
      timeoutMs: 150_000,
      env: k6.env,
    });
    expect(result.exitCode, result.output).toBe(0);
    const extensions = result.summary?.extensions ?? [];
    expect(extensions.map((e) => e.name).sort()).toEqual(["churn", "soak", "webhook sink"]);
    const figures = extensions.find((e) => e.name === "soak")?.figures ?? {};
    expect(figures.scrapes).toBeGreaterThan(5);
    expect(figures.rssSlopeBytesPerMinute).toEqual(expect.any(Number));
    expect(readFileSync(path.join(result.runDir ?? "", "soak-resources.jsonl"), "utf8")).toMatch(/"source":"service"/);
    // No web-dashboard export: over an hours-long soak it would hold every trend value in k6's memory a second time.
    expect(existsSync(path.join(result.runDir ?? "", "k6-dashboard-soak.html"))).toBe(false);
    // Go's own garbage collector target: the harness's (GOGC=200) trades memory for CPU; a soak is judged on memory.
    expect(k6.recorded()).toEqual([]);
    const prom = expectLatencyHistogram(result);
    expect(prom).toMatch(/atd_soak_p95_drift_ratio\{[^}]*extension="soak"/);
    // Base units: the memory slope is exported in bytes per second, never per minute.
    expect(prom).toMatch(/atd_soak_memory_slope_bytes_per_second\{[^}]*memory="rss"/);
    expect(prom).not.toMatch(/_per_minute/);
    expect(timedPerType(prom).get("booking_status_updated")).toBeGreaterThan(0);
    // Partner traffic confirms supplier-decided types and cancels: their decisions, vouchers and ends are expected.
    const sink = sinkOf(result).figures as { followOns: number; unexpected: number; lost: number };
    expect(sink.followOns).toBeGreaterThan(0);
    expect(sink.unexpected).toBe(0);
    expect(sink.lost).toBe(0);
  });
});
