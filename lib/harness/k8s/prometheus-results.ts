/**
 * A k6-operator run's results as k6's end-of-test summary would have them, read back from the Prometheus its runners
 * remote-wrote to (every sample tagged testid=<TestRun name>, one series per runner through the operator's
 * instance_id tag, trends as native histograms), so that the ordinary verdict code (verdict.ts) judges all runners'
 * samples at once, never one runner's share.
 *
 * What remote write keeps decides how exact each statistic is:
 * - counters (`k6_<m>_total`): the runners' last values summed: exact; no series means no sample: 0.
 * - trends (native histograms): count and avg exact; p(N) and med from the summed histograms, within one bucket's
 *   width (k6 writes fine-grained exponential buckets); min and max are not kept, so a threshold on them is not judged.
 * - rates (`k6_<m>_rate`, a ratio per series, no counts): http_req_failed is weighted exactly by k6_http_reqs_total
 *   of the same series (k6 tags both alike); any other rate (checks) is judged on its worst series, which is exact for
 *   `rate>=1` (the SLO table's checks threshold) and conservative otherwise: it may fail a run whose merged rate
 *   would pass, never pass one that would fail.
 * - gauges: the largest last value of the runners.
 * - checks, by name (the `check` tag of k6_checks_rate): each runner's share of passed samples, not counts, so each
 *   check is counted once per runner, a pass when none of that runner's samples of it failed. A check fails exactly
 *   when a local run's would: when any sample of it failed.
 */
import { parseMetricName, evaluateThreshold, type MetricType, type MetricValues } from "../segments/thresholds.ts";
import { thresholdStatistic } from "../verdict.ts";

/** One element of an instant vector with float values (the only kind this module asks for). */
export interface PromSample {
  metric: Record<string, string>;
  value: number;
}

/** What this module needs of Prometheus's HTTP API. */
export interface PromApi {
  /** Names and labels of the series that hold samples within the window (a Prometheus duration back from now). */
  series(match: string, window: string): Promise<Record<string, string>[]>;
  /** An instant query, at a time (UNIX seconds) or now. */
  query(promql: string, time?: number): Promise<PromSample[]>;
  /** The time (UNIX seconds) of the newest raw sample of a selector within the window. */
  lastSampleTime(selector: string, window: string): Promise<number | undefined>;
}

export interface PrometheusResultsRequest {
  api: PromApi;
  testId: string;
  /** k6's thresholds as `k6 inspect` prints them: metric (with tag filter) -> expressions. */
  thresholds: Record<string, string[]>;
  /** How far back the runs' samples may lie, in Prometheus duration syntax (e.g. 24h). */
  window: string;
}

/** One check of the run: its passes and fails are runners (see the module comment). */
export interface PromCheck {
  name: string;
  passes: number;
  fails: number;
  /** Per failed runner, the share of its samples of the check that passed. */
  problems: string[];
}

export interface PrometheusResults {
  /** Shaped like k6's handleSummary data: what verdict.ts reads (the checks in root_group, without problems). */
  summary: Record<string, unknown>;
  /** Every check by name, sorted, with the problems the verdict shows. */
  checks: PromCheck[];
  /** How each statistic was read, where it is not exact (for the verdict's findings). */
  notes: string[];
  /** Distinct runners (instance_id values) that wrote samples. */
  runners: number;
  /** Series found for the test: 0 means nothing came back (wrong testid, window or Prometheus). */
  series: number;
}

/** Metrics the verdict reads besides those with thresholds (verdict.ts counterValue). */
const VERDICT_COUNTERS = ["http_reqs", "iterations", "dropped_iterations", "atd_throttles"];
const ENDPOINT_TREND_STATS = ["count", "p(95)", "p(99)"];

function labelValue(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

function selector(name: string, testId: string, tags: Record<string, string>): string {
  const matchers = [`testid=${labelValue(testId)}`, ...Object.entries(tags).map(([k, v]) => `${k}=${labelValue(v)}`)];
  return `${name}{${matchers.join(",")}}`;
}

interface SeriesKind {
  type: MetricType;
  promName: string;
  /** Trend values in seconds are k6 milliseconds. */
  toK6: number;
}

/** k6's remote-write names: k6_<metric> plus _total (counter), _rate (rate), or a unit suffix (trend, gauge). */
function kindOf(metric: string, names: ReadonlySet<string>, statistic: string): SeriesKind | undefined {
  const base = `k6_${metric}`;
  if (names.has(`${base}_total`)) return { type: "counter", promName: `${base}_total`, toK6: 1 };
  if (names.has(`${base}_rate`)) return { type: "rate", promName: `${base}_rate`, toK6: 1 };
  const type: MetricType = statistic === "value" ? "gauge" : "trend";
  if (names.has(`${base}_seconds`)) return { type, promName: `${base}_seconds`, toK6: 1000 };
  for (const suffix of ["_bytes", ""]) {
    if (names.has(`${base}${suffix}`)) return { type, promName: `${base}${suffix}`, toK6: 1 };
  }
  return undefined;
}

/** A metric without samples, as k6 sees it: every statistic 0. */
function noSamples(statistics: readonly string[]): MetricValues {
  return Object.fromEntries(statistics.map((s) => [s, 0]));
}

async function scalar(api: PromApi, promql: string, time: number | undefined): Promise<number | undefined> {
  const result = await api.query(promql, time);
  const value = result[0]?.value;
  return value === undefined || Number.isNaN(value) ? undefined : value;
}

/** Reads one metric's statistics; a statistic that cannot be read stays out (its threshold then fails). */
async function readValues(
  request: PrometheusResultsRequest,
  metric: string,
  kind: SeriesKind | undefined,
  statistics: readonly string[],
  notes: string[],
  end: number | undefined,
): Promise<{ type: MetricType; values: MetricValues }> {
  const { testId, window } = request;
  const value = (promql: string) => scalar(request.api, promql, end);
  const { metric: base, tags } = parseMetricName(metric);
  const last = (name: string) => `last_over_time(${selector(name, testId, tags)}[${window}])`;
  const values: MetricValues = {};
  if (kind === undefined) {
    // No series at all: k6 wrote no sample of it, and judges such a metric on zeros (as merge-segments.ts does).
    return { type: "counter", values: noSamples(statistics) };
  }
  if (kind.type === "counter") {
    values.count = (await value(`sum(${last(kind.promName)})`)) ?? 0;
    if (statistics.includes("rate")) notes.push(`${metric}: a counter's rate is not judged from Prometheus.`);
  } else if (kind.type === "trend") {
    // Prometheus's *_over_time functions skip native histograms: the runners' newest histograms are read at the
    // time of the test's last sample instead (within Prometheus's 5-minute look-back).
    const hist = `sum(${selector(kind.promName, testId, tags)})`;
    for (const statistic of statistics) {
      const p = /^p\((\d+(?:\.\d+)?)\)$/.exec(statistic);
      const q = p ? Number(p[1]) / 100 : statistic === "med" ? 0.5 : undefined;
      if (q !== undefined) {
        const seconds = await value(`histogram_quantile(${String(q)}, ${hist})`);
        if (seconds !== undefined) values[statistic] = seconds * kind.toK6;
      } else if (statistic === "count") {
        values.count = (await value(`histogram_count(${hist})`)) ?? 0;
      } else if (statistic === "avg") {
        const avg = await value(`histogram_sum(${hist}) / histogram_count(${hist})`);
        if (avg !== undefined) values.avg = avg * kind.toK6;
      } else {
        notes.push(`${metric}: ${statistic} is not kept by remote write (native histograms), so it is not judged.`);
      }
    }
    if (!values.count) return { type: kind.type, values: noSamples(statistics) };
  } else if (kind.type === "rate") {
    if (base === "http_req_failed") {
      const requests = last("k6_http_reqs_total");
      values.rate =
        (await value(`sum(${last(kind.promName)} * ${requests}) / sum(${requests})`)) ??
        (await value(`max(${last(kind.promName)})`)) ??
        0;
    } else {
      // No counts behind a k6 rate in Prometheus: the worst series stands for all (see the module comment).
      const lower = request.thresholds[metric]?.some((e) => /^\s*rate\s*(<|<=)/.test(e)) ?? false;
      const worst = await value(`${lower ? "max" : "min"}(${last(kind.promName)})`);
      values.rate = worst ?? 0;
      notes.push(
        `${metric}: judged on its worst series (runner and tag set), as Prometheus keeps no counts of a rate.`,
      );
    }
  } else {
    const gauge = await value(`max(${last(kind.promName)})`);
    if (gauge !== undefined) values.value = gauge * kind.toK6;
  }
  return { type: kind.type, values };
}

/** Every check by name from each runner's worst series of it (a runner may run it in several scenarios). */
async function readChecks(request: PrometheusResultsRequest, end: number | undefined): Promise<PromCheck[]> {
  const last = `last_over_time(${selector("k6_checks_rate", request.testId, {})}[${request.window}])`;
  const byName = new Map<string, PromCheck>();
  for (const { metric, value } of await request.api.query(`min by (check, instance_id) (${last})`, end)) {
    if (metric.check === undefined || Number.isNaN(value)) continue;
    const check = byName.get(metric.check) ?? { name: metric.check, passes: 0, fails: 0, problems: [] };
    if (value >= 1) {
      check.passes++;
    } else {
      check.fails++;
      const runner = metric.instance_id === undefined ? "without instance_id" : metric.instance_id;
      check.problems.push(`runner ${runner}: ${(value * 100).toFixed(1)}% of its samples of this check passed`);
    }
    byName.set(metric.check, check);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Reads the run back from Prometheus and evaluates every threshold once, on all runners' samples. */
export async function readPrometheusResults(request: PrometheusResultsRequest): Promise<PrometheusResults> {
  const labelSets = await request.api.series(
    `{__name__=~"k6_.+",testid=${labelValue(request.testId)}}`,
    request.window,
  );
  const names = new Set(labelSets.map((l) => l.__name__ ?? ""));
  const runners = new Set(labelSets.map((l) => l.instance_id ?? "")).size;
  const end = labelSets.length
    ? await request.api.lastSampleTime(
        `{__name__=~"k6_(iterations|http_reqs)_total",testid=${labelValue(request.testId)}}`,
        request.window,
      )
    : undefined;
  const notes: string[] = [];
  const metrics: Record<string, unknown> = {};
  const wanted = new Map<string, string[]>(Object.entries(request.thresholds));
  for (const counter of VERDICT_COUNTERS) if (!wanted.has(counter)) wanted.set(counter, []);
  for (const [metric, expressions] of wanted) {
    const statistics = [...new Set(expressions.map(thresholdStatistic))];
    const isEndpoint = /^http_req_duration\{endpoint:\w+\}$/.test(metric);
    const all = [...new Set([...statistics, ...(isEndpoint ? ENDPOINT_TREND_STATS : []), "count"])];
    const { metric: base } = parseMetricName(metric);
    const kind = kindOf(base, names, statistics[0] ?? "count");
    const { type, values } = await readValues(request, metric, kind, all, notes, end);
    const entry: Record<string, unknown> = { type, values };
    if (expressions.length > 0) {
      entry.thresholds = Object.fromEntries(expressions.map((e) => [e, { ok: evaluateThreshold(e, values).ok }]));
    }
    metrics[metric] = entry;
  }
  const checks = names.has("k6_checks_rate") ? await readChecks(request, end) : [];
  if (checks.length > 0) {
    notes.push(
      "the checks by name: counted per runner (a pass when none of its samples of the check failed), as remote write keeps each runner's share of passed samples, not counts.",
    );
  }
  const rootChecks = checks.map(({ name, passes, fails }) => ({ name, passes, fails }));
  return {
    summary: {
      prometheus: { testId: request.testId, runners },
      root_group: { checks: rootChecks, groups: [] },
      metrics,
    },
    checks,
    notes: [...new Set(notes)],
    runners,
    series: labelSets.length,
  };
}

/** PromApi over Prometheus's HTTP API (`/api/v1/series`, `/api/v1/query`), bounded in time. */
export function prometheusApi(baseUrl: string, timeoutMs = 30_000): PromApi {
  const root = baseUrl.replace(/\/+$/, "");
  const get = async (pathAndQuery: string): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(`${root}${pathAndQuery}`, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new PrometheusError(`${root} did not answer (${(error as Error).message})`);
    }
    const body = (await response.json().catch(() => undefined)) as
      { status?: string; error?: string; data?: unknown } | undefined;
    if (!response.ok || body?.status !== "success") {
      throw new PrometheusError(
        `${root} answered ${String(response.status)}: ${body?.error ?? "not a Prometheus API"}`,
      );
    }
    return body.data;
  };
  return {
    async series(match, window) {
      const seconds = durationSeconds(window);
      const end = Date.now() / 1000;
      const data = await get(
        `/api/v1/series?match[]=${encodeURIComponent(match)}&start=${String(end - seconds)}&end=${String(end)}`,
      );
      return Array.isArray(data) ? (data as Record<string, string>[]) : [];
    },
    async lastSampleTime(selector, range) {
      const data = (await get(`/api/v1/query?query=${encodeURIComponent(`${selector}[${range}]`)}`)) as {
        result?: { values?: [number, string][] }[];
      };
      let newest: number | undefined;
      for (const series of data.result ?? []) {
        for (const [time] of series.values ?? []) newest = Math.max(newest ?? time, time);
      }
      return newest;
    },
    async query(promql, time) {
      const at = time === undefined ? "" : `&time=${String(time)}`;
      const data = (await get(`/api/v1/query?query=${encodeURIComponent(promql)}${at}`)) as {
        result?: { metric?: Record<string, string>; value?: [number, string] }[];
      };
      return (data.result ?? [])
        .filter((r) => Array.isArray(r.value))
        .map((r) => ({ metric: r.metric ?? {}, value: Number(r.value?.[1]) }));
    },
  };
}

export class PrometheusError extends Error {
  override name = "PrometheusError";
}

/** Prometheus durations as the judge takes them: a number and one unit (s, m, h, d). */
export function durationSeconds(text: string): number {
  const m = /^(\d+)(s|m|h|d)$/.exec(text);
  if (!m) return Number.NaN;
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as "s" | "m" | "h" | "d"];
}
