/**
 * The unit of a threshold's values. k6 evaluates time trends in milliseconds (http_req_duration p(95)<300), and the
 * webhook sink writes its latency thresholds the same way; Prometheus wants base units, so metrics.prom converts those
 * to seconds and keeps them apart from the dimensionless ones (ratios, counts) under names that end in their unit.
 */
import { thresholdStatistic } from "../verdict.ts";

/** k6's built-in time trends and the harness's own latency metrics, all in milliseconds. */
const TIME_METRICS: ReadonlySet<string> = new Set([
  "http_req_duration",
  "http_req_blocked",
  "http_req_connecting",
  "http_req_tls_handshaking",
  "http_req_sending",
  "http_req_waiting",
  "http_req_receiving",
  "iteration_duration",
  "group_duration",
  "webhook_latency",
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

/** Milliseconds as seconds, without the binary-fraction tail a division leaves (0.098367, not 0.09836700000000001). */
export function msToSeconds(ms: number): number {
  return Number((ms / 1000).toPrecision(15));
}
