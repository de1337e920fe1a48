import { isMillisecondMetric } from "./threshold-units.ts";

/** How an observed value reads in junit.xml and report.html: milliseconds for k6 durations, percent for rates. */
export function formatObserved(metric: string, value: number | undefined): string {
  if (value === undefined) return "not recorded";
  // Trends of time (k6's and the webhook sink's latency), not http_req_failed (a rate that shares the prefix).
  if (isMillisecondMetric(metric)) return `${value.toFixed(1)} ms`;
  if (value <= 1 && !Number.isInteger(value)) return `${(value * 100).toFixed(2)}%`;
  return String(Number(value.toFixed(4)));
}
