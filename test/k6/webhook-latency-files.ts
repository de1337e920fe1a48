/**
 * What a run with the webhook sink leaves as data: the delivery latency per event type as a Prometheus histogram in
 * metrics.prom (promtool must accept it) and its plot in report.html.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { HarnessProcessResult } from "./harness-process.ts";
import { requireProgram } from "./reports-processes.ts";

export const WEBHOOK_HISTOGRAM = "atd_webhook_delivery_latency_seconds";

/** Deliveries timed per event type, read off the histogram's _count series in metrics.prom. */
export function timedPerType(prom: string): Map<string, number> {
  const counts = new Map<string, number>();
  const series = new RegExp(`^${WEBHOOK_HISTOGRAM}_count\\{[^}]*type="([a-z_]+)"[^}]*\\} (\\d+)$`, "gm");
  for (const m of prom.matchAll(series)) counts.set(m[1] ?? "", Number(m[2]));
  return counts;
}

/** The run's metrics.prom passes `promtool check metrics`, report.html plots the histogram; returns metrics.prom. */
export function expectLatencyHistogram(result: HarnessProcessResult): string {
  const dir = result.runDir ?? "";
  const promFile = path.join(dir, "metrics.prom");
  const prom = readFileSync(promFile, "utf8");
  expect(prom).toContain(`# TYPE ${WEBHOOK_HISTOGRAM} histogram`);
  const check = spawnSync(requireProgram("promtool", "prometheus"), ["check", "metrics"], {
    input: readFileSync(promFile),
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
  const html = readFileSync(path.join(dir, "report.html"), "utf8");
  expect(html).toContain('aria-label="Webhook delivery latency (webhook sink)"');
  expect(html).not.toContain(`reported no ${WEBHOOK_HISTOGRAM.replace(/^atd_/, "")}`);
  return prom;
}
