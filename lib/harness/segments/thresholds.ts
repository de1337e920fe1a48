/**
 * k6's thresholds evaluated by the harness on merged samples (k6 evaluates them per runner only): the statistics of
 * k6's threshold syntax (p(N), avg, min, med, max, count, rate, value) computed the way k6 computes them (its trend
 * percentile interpolates linearly between the closest ranks), and the comparison operators it accepts.
 */

export type MetricType = "trend" | "counter" | "rate" | "gauge";

/** A metric's merged values, as k6's summary writes them. */
export type MetricValues = Record<string, number>;

/** k6's trend percentile: linear interpolation at pct * (count - 1) over the sorted values. */
export function k6Percentile(sorted: readonly number[], pct: number): number {
  if (sorted.length === 0) return 0;
  if (sorted.length === 1) return sorted[0] as number;
  const i = pct * (sorted.length - 1);
  const lo = sorted[Math.floor(i)] as number;
  const hi = sorted[Math.ceil(i)] as number;
  return lo + (hi - lo) * (i - Math.floor(i));
}

/** The summary values of a metric from its samples, for the statistics the summary and thresholds use. */
export function metricValues(
  type: MetricType,
  values: readonly number[],
  testSeconds: number,
  trendStats: readonly string[],
): MetricValues {
  if (type === "trend") {
    const sorted = [...values].sort((a, b) => a - b);
    const out: MetricValues = {};
    const sum = sorted.reduce((a, b) => a + b, 0);
    for (const stat of new Set([...trendStats, "avg", "min", "med", "max", "count"])) {
      const p = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
      if (p) out[stat] = k6Percentile(sorted, Number(p[1]) / 100);
      else if (stat === "avg") out.avg = sorted.length ? sum / sorted.length : 0;
      else if (stat === "min") out.min = sorted[0] ?? 0;
      else if (stat === "max") out.max = sorted.at(-1) ?? 0;
      else if (stat === "med") out.med = k6Percentile(sorted, 0.5);
      else if (stat === "count") out.count = sorted.length;
    }
    return out;
  }
  if (type === "counter") {
    const count = values.reduce((a, b) => a + b, 0);
    return { count, rate: testSeconds > 0 ? count / testSeconds : 0 };
  }
  if (type === "rate") {
    const passes = values.filter((v) => v !== 0).length;
    return { rate: values.length ? passes / values.length : 0, passes, fails: values.length - passes };
  }
  return { value: values.at(-1) ?? 0, min: Math.min(...values), max: Math.max(...values) };
}

const EXPRESSION =
  /^\s*(p\(\d+(?:\.\d+)?\)|avg|min|med|max|count|rate|value)\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;

export interface ThresholdResult {
  ok: boolean;
  statistic: string;
  observed: number | undefined;
}

/** Evaluates one threshold expression on a metric's values; an expression it cannot read fails (never passes). */
export function evaluateThreshold(expression: string, values: MetricValues): ThresholdResult {
  const m = EXPRESSION.exec(expression);
  if (!m) return { ok: false, statistic: expression, observed: undefined };
  const [, statistic = "", op, limitText] = m;
  const observed = values[statistic];
  if (observed === undefined) return { ok: false, statistic, observed };
  const limit = Number(limitText);
  const ok =
    op === "<"
      ? observed < limit
      : op === "<="
        ? observed <= limit
        : op === ">"
          ? observed > limit
          : op === ">="
            ? observed >= limit
            : op === "!="
              ? observed !== limit
              : observed === limit;
  return { ok, statistic, observed };
}

/** "http_req_duration{endpoint:priceListDate}" -> the metric and its tag filter. */
export function parseMetricName(name: string): { metric: string; tags: Record<string, string> } {
  const m = /^([^{]+)(?:\{(.*)\})?$/.exec(name);
  const tags: Record<string, string> = {};
  for (const pair of (m?.[2] ?? "").split(",").filter((p) => p.length > 0)) {
    const at = pair.indexOf(":");
    tags[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return { metric: m?.[1] ?? name, tags };
}
