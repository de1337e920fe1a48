/**
 * Webhook latency as data: a real webhooks run and a real short soak with the sink leave the delivery latency per event
 * type as a Prometheus histogram in metrics.prom (promtool accepts it) and its plot in report.html, and the soak's
 * follow-on events (supplier decisions, their vouchers, cancellations ending) are expected, not unexpected.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../lib/contract/index.ts";
import { runHarnessProcess, tempFile, type HarnessProcessResult } from "./harness-process.ts";
import { requireProgram } from "./reports-processes.ts";
import { runWebhooks, sinkOf } from "./webhook-runs.ts";

const HISTOGRAM = "atd_webhook_delivery_latency_seconds";

/** The soak rules of soak.test.ts: 20 s on a shared two-core host is mostly warm-up. */
const LOOSE_RULES = tempFile("soak-rules.json", {
  p95ToleranceMs: 50,
  memorySlopeBytesPerMinute: 64 * 1024 * 1024,
});

function reportFiles(result: HarnessProcessResult): { prom: string; html: string; promFile: string } {
  const dir = result.runDir ?? "";
  const promFile = path.join(dir, "metrics.prom");
  return {
    prom: readFileSync(promFile, "utf8"),
    html: readFileSync(path.join(dir, "report.html"), "utf8"),
    promFile,
  };
}

/** Deliveries timed per event type, read off the histogram's _count series. */
function timedPerType(prom: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of prom.matchAll(new RegExp(`^${HISTOGRAM}_count\\{[^}]*type="([a-z_]+)"[^}]*\\} (\\d+)$`, "gm"))) {
    counts.set(m[1] ?? "", Number(m[2]));
  }
  return counts;
}

function expectPromtoolClean(file: string): void {
  const check = spawnSync(requireProgram("promtool", "prometheus"), ["check", "metrics"], {
    input: readFileSync(file),
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
}

describe("webhook delivery latency as a histogram", () => {
  it("should export and plot the latency of every kind a webhooks run triggers", async () => {
    const result = await runWebhooks();
    expect(result.exitCode, result.output).toBe(0);
    const { prom, html, promFile } = reportFiles(result);
    expect(prom).toContain(`# TYPE ${HISTOGRAM} histogram`);
    const timed = timedPerType(prom);
    for (const type of WEBHOOK_EVENT_TYPES) expect(timed.get(type), type).toBeGreaterThan(0);
    expect(prom).toMatch(new RegExp(`^${HISTOGRAM}_bucket\\{le="2",[^}]*extension="webhook sink"\\} \\d+$`, "m"));
    expectPromtoolClean(promFile);
    expect(html).toContain('aria-label="Webhook delivery latency (webhook sink)"');
    expect(html).not.toContain(`reported no ${HISTOGRAM.replace(/^atd_/, "")}`);
    expect(sinkOf(result).figures.unexpected).toBe(0);
  });

  it("should export it from a soak with the sink and expect the follow-on events of its bookings", async () => {
    const result = await runHarnessProcess(["run", "soak", "--duration", "20s", "--soak-config", LOOSE_RULES], {
      timeoutMs: 150_000,
    });
    expect(result.exitCode, result.output).toBe(0);
    const { prom, html, promFile } = reportFiles(result);
    const timed = timedPerType(prom);
    expect(timed.get("booking_status_updated"), prom.slice(0, 2000)).toBeGreaterThan(0);
    expectPromtoolClean(promFile);
    expect(html).toContain('aria-label="Webhook delivery latency (webhook sink)"');
    const sink = sinkOf(result);
    const figures = sink.figures as { followOns: number; unexpected: number; lost: number };
    // Partner traffic confirms supplier-decided types and cancels: their decisions, vouchers and ends are expected.
    const { series: _series, types, ...counts } = sink.figures;
    expect(figures.followOns, JSON.stringify({ counts, types })).toBeGreaterThan(0);
    expect(figures.unexpected, JSON.stringify(sink.findings)).toBe(0);
    expect(figures.lost).toBe(0);
  });
});
