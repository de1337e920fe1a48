/**
 * The unit of a threshold's values. k6 evaluates time trends in milliseconds (http_req_duration p(95)<300), and
 * extensions write their latency thresholds the same way (the webhook sink's webhook_latency: its report piece's
 * millisecondMetrics); Prometheus wants base units, so metrics.prom converts those
 * to seconds and keeps them apart from the dimensionless ones (ratios, counts) under names that end in their unit.
 */
import { EXTENSION_REPORTS } from "../extension-reports.ts";
import { thresholdStatistic } from "../verdict.ts";

export { msToSeconds } from "./ms-to-seconds.ts";

/** k6's built-in time trends and the extensions' latency metrics, all in milliseconds. */
const TIME_METRICS: ReadonlySet<string> = new Set([
  ...EXTENSION_REPORTS.flatMap((report) => report.millisecondMetrics ?? []),
  "http_req_duration",
  "http_req_blocked",
  "http_req_connecting",
  "http_req_tls_handshaking",
  "http_req_sending",
  "http_req_waiting",
  "http_req_receiving",
  "iteration_duration",
  "group_duration",
]);

/** Statistics of a trend that keep its unit (count and rate do not). */
const TIME_STATISTIC = /^(avg|min|max|med|p\(\d+(\.\d+)?\))$/;

/** Whether a metric (tags such as {endpoint:x} allowed) holds durations in milliseconds. */
export function isMillisecondMetric(metric: string): boolean {
  const base = metric.replace(/\{.*$/, "");
  return TIME_METRICS.has(base) || base.endsWith("_ms");
}

/** Whether a threshold's observed value and limit are durations in milliseconds (to be shown or exported as such). */
export function isDurationThreshold(metric: string, expression: string): boolean {
  return isMillisecondMetric(metric) && TIME_STATISTIC.test(thresholdStatistic(expression));
}

/** The bound of a threshold expression (`p(95)<300` -> 300), when it is a plain comparison with a number. */
export function thresholdLimit(expression: string): number | undefined {
  const match = /(?:<=|>=|<|>|===|==|!=)\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*$/i.exec(expression);
  return match ? Number(match[1]) : undefined;
}

