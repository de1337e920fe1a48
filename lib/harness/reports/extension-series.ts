/**
 * How an extension (webhook sink, alternatives checker, capacity search...) puts its own series into metrics.prom,
 * the Pushgateway push and report.html. The series travel inside ExtensionVerdict.figures under the key "series", so
 * they are saved in summary.json and `harness report` renders them again without the extension running.
 *
 *     import { withSeries } from "./reports/extension-series.ts";
 *     return extensionVerdict("webhook-sink", {
 *       checks,
 *       figures: withSeries({ deliveries: 120 }, [
 *         { type: "histogram", name: "webhook_delivery_latency_seconds", help: "Event to delivery, seconds.",
 *           buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], samples: [{ observations: latenciesSeconds }] },
 *       ]),
 *     });
 *
 * Every series gets the prefix atd_ and the label extension="<name>"; names are snake_case in base units (seconds,
 * bytes, ratio) as Prometheus wants them. Numeric figures outside "series" are exported too, as the generic gauge
 * atd_extension_figure{extension, figure="<dotted path>"}, so a plain count needs no declaration at all (lists
 * are left out there: they are data, not figures).
 */
import { isRecord } from "../../contract/index.ts";
import type { ExtensionVerdict } from "../run-extension.ts";
import { PLOTS_FIGURE } from "./extension-plots.ts";
import { msToSeconds } from "./ms-to-seconds.ts";

export type SeriesLabels = Readonly<Record<string, string>>;

/** A value that can go up and down, or a figure measured once (alternatives accuracy, capacity knee in req/s). */
export interface GaugeSeries {
  type: "gauge";
  name: string;
  help: string;
  samples: readonly { labels?: SeriesLabels; value: number }[];
}

/** A count since the start of the run (deliveries, retries). */
export interface CounterSeries {
  type: "counter";
  /** Without the _total suffix: it is added. */
  name: string;
  help: string;
  samples: readonly { labels?: SeriesLabels; value: number }[];
}

/** A distribution (webhook delivery latency): every observation, bucketed by the upper bounds given. */
export interface HistogramSeries {
  type: "histogram";
  name: string;
  help: string;
  /** Upper bounds in the series' unit, ascending; +Inf is implied. */
  buckets: readonly number[];
  /** Keep it below ~100,000 observations per run: summary.json carries them. */
  samples: readonly { labels?: SeriesLabels; observations: readonly number[] }[];
}

export type ExtensionSeries = GaugeSeries | CounterSeries | HistogramSeries;

/** The figures key the series live under. */
export const SERIES_FIGURE = "series";

const NAME = /^[a-z_][a-z0-9_]*$/;
const LABEL = /^[a-z_][a-z0-9_]*$/;
/** Labels the report sets itself: an extension cannot override them. */
const RESERVED_LABELS = new Set(["extension", "run_id", "le", "quantile"]);

/** Adds series to an extension's figures (keeps the figures JSON-serialisable). */
export function withSeries(
  figures: Record<string, unknown>,
  series: readonly ExtensionSeries[],
): Record<string, unknown> {
  const existing = Array.isArray(figures[SERIES_FIGURE]) ? (figures[SERIES_FIGURE] as unknown[]) : [];
  return { ...figures, [SERIES_FIGURE]: [...existing, ...series] };
}

function labelsProblem(labels: unknown): string | undefined {
  if (labels === undefined) return undefined;
  if (!isRecord(labels)) return "labels is not an object";
  for (const [key, value] of Object.entries(labels)) {
    if (!LABEL.test(key) || RESERVED_LABELS.has(key)) return `label ${key} is not allowed`;
    if (typeof value !== "string") return `label ${key} is not a string`;
  }
  return undefined;
}

function seriesProblem(series: unknown): string | undefined {
  if (!isRecord(series)) return "not an object";
  if (typeof series.name !== "string" || !NAME.test(series.name)) return "name is not snake_case";
  if (typeof series.help !== "string" || series.help.length === 0) return "help is missing";
  if (!Array.isArray(series.samples)) return "samples is not a list";
  for (const sample of series.samples as unknown[]) {
    if (!isRecord(sample)) return "a sample is not an object";
    const labels = labelsProblem(sample.labels);
    if (labels) return labels;
    if (series.type === "histogram") {
      if (!Array.isArray(sample.observations) || !sample.observations.every((o) => Number.isFinite(o))) {
        return "a histogram sample has no list of finite observations";
      }
    } else if (typeof sample.value !== "number" || !Number.isFinite(sample.value)) {
      return "a sample value is not a finite number";
    } else if (series.type === "counter" && sample.value < 0) {
      return "a counter is negative";
    }
  }
  if (series.type === "histogram") {
    const b = series.buckets;
    if (!Array.isArray(b) || b.length === 0 || !b.every((x, i) => typeof x === "number" && (i === 0 || x > b[i - 1]))) {
      return "buckets are not ascending numbers";
    }
    return undefined;
  }
  return series.type === "gauge" || series.type === "counter" ? undefined : "type is not gauge, counter or histogram";
}

/**
 * The valid series of an extension's verdict (read back from summary.json, so checked), and a line for each one
 * left out: a malformed series is reported, never dropped silently.
 */
export function seriesOf(verdict: ExtensionVerdict): { series: ExtensionSeries[]; problems: string[] } {
  const raw = verdict.figures[SERIES_FIGURE];
  if (raw === undefined) return { series: [], problems: [] };
  if (!Array.isArray(raw)) return { series: [], problems: [`${verdict.name}: figures.series is not a list`] };
  const series: ExtensionSeries[] = [];
  const problems: string[] = [];
  for (const [i, s] of (raw as unknown[]).entries()) {
    const problem = seriesProblem(s);
    const name = isRecord(s) && typeof s.name === "string" ? s.name : `#${String(i)}`;
    if (problem) problems.push(`${verdict.name}: series ${name} left out: ${problem}`);
    else series.push(s as ExtensionSeries);
  }
  return { series, problems };
}

/**
 * The numeric leaves of the figures outside "series" and "plots" (extension-plots.ts), as dotted paths (nested objects
 * flattened, lists left out).
 */
export function numericFigures(figures: Record<string, unknown>): [string, number][] {
  const out: [string, number][] = [];
  const walk = (value: unknown, at: string) => {
    if (typeof value === "number" && Number.isFinite(value)) out.push([at, value]);
    else if (typeof value === "boolean") out.push([at, value ? 1 : 0]);
    // Lists are left out: they are raw data (latencies, ids), not figures; distributions belong in series.
    else if (isRecord(value)) for (const [k, v] of Object.entries(value)) walk(v, at ? `${at}.${k}` : k);
  };
  for (const [key, value] of Object.entries(figures)) {
    if (key !== SERIES_FIGURE && key !== PLOTS_FIGURE) walk(value, key);
  }
  return out;
}

/**
 * A figure as metrics.prom exports it: in base units, renamed to say so. Figures are named as summary.json has them
 * (camelCase with the unit at the end): milliseconds (`p95Ms`, `latency_ms`) become seconds (`p95Seconds`,
 * `latency_seconds`), per-minute rates (`rssSlopeBytesPerMinute`) per-second ones. Anything else is left as it is.
 */
export function figureInBaseUnits(path: string, value: number): [string, number] {
  if (/[a-z0-9]Ms$/.test(path)) return [`${path.slice(0, -2)}Seconds`, msToSeconds(value)];
  if (/_ms$/.test(path)) return [`${path.slice(0, -3)}_seconds`, msToSeconds(value)];
  const perSecond = Number((value / 60).toPrecision(15));
  if (/PerMinute$/.test(path)) return [`${path.slice(0, -"PerMinute".length)}PerSecond`, perSecond];
  if (/_per_minute$/.test(path)) return [`${path.slice(0, -"_per_minute".length)}_per_second`, perSecond];
  return [path, value];
}
