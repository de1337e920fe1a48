/**
 * report.html: the verdict page (run metadata, every check and threshold, plots of latency over time per endpoint,
 * throughput, throttles, the sections extensions feature (reports/report-pieces.ts: the webhook latency
 * distribution) and the plots they contribute, such as the capacity plot) with k6's own web-dashboard report of each scenario embedded below it. One self-contained file:
 * inline CSS and SVG, the dashboards in iframes by srcdoc, nothing fetched from anywhere, so it opens the same from a
 * CI artifact as on the machine that ran it.
 */
import { isRecord } from "../../contract/index.ts";
import { isScenarioName, scenarioSpec } from "../../contract/scenarios.ts";
import { EXTENSION_REPORTS } from "../extension-reports.ts";
import type { RunSummary } from "./summary.ts";
import type { CheckVerdict, ThresholdVerdict } from "../verdict.ts";
import { plotsOf, type ExtensionPlot } from "./extension-plots.ts";
import { numericFigures, seriesOf, type HistogramSeries } from "./extension-series.ts";
import type { FeaturedHistogram, ReportSection } from "./report-pieces.ts";
import { formatObserved } from "./format-observed.ts";
import { barChart, escapeXml as esc, lineChart, type Bar } from "./svg-chart.ts";
import type { Timeline } from "./timeline.ts";
import type { Comparison } from "../compare/compare-runs.ts";
import {
  COLUMNS,
  compareRow,
  comparisonNotes,
  describeSide,
  GROUP_TITLES,
  metricsByGroup,
} from "../compare/compare-markdown.ts";

export interface HtmlReportInput {
  summary: RunSummary;
  /** Undefined when no raw results were left (the run ended before k6 ran). */
  timeline: Timeline | undefined;
  /** k6's web-dashboard export per scenario, when k6 wrote one. */
  dashboards: ReadonlyMap<string, string>;
  /** Lines about what the report had to leave out (malformed extension series, truncated raw results). */
  notes: readonly string[];
  /** The comparison with a baseline (compare.json), when the run has one. */
  comparison?: Comparison | undefined;
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px 24px;color:#1b1b1b}
h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;margin:6px 0 12px;width:100%}th,td{border-bottom:1px solid #eee;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f6f6f6;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:1px 10px;border-radius:10px;color:#fff;font-weight:700}
.pass{background:#1a7f37}.fail{background:#cf222e}.fail-text{color:#cf222e;font-weight:700}.pass-text{color:#1a7f37;font-weight:700}
.problems{margin:2px 0 0 16px;padding:0;color:#82071e}.note{color:#6e5600}
.charts{display:grid;grid-template-columns:1fr;gap:8px}
figure.chart{margin:0}figure.chart svg{max-width:100%;height:auto}
.chart-title{font-weight:600;font-size:13px}.tick,.legend{font-size:11px;fill:#555}.chart-empty{fill:#888;font-size:13px}
.grid{stroke:#eee}.axis{stroke:#999}
figcaption.legend{font-size:12px;color:#444;margin:0 0 0 56px}.key{margin-right:14px;white-space:nowrap}
.key i{display:inline-block;width:12px;height:3px;margin:0 4px 3px 0}
figure.plot{margin:8px 0 12px}.plot-title{font-weight:600;font-size:14px;margin:0 0 4px}
figcaption.plot-caption{font-size:13px;color:#1b1b1b;margin:4px 0 0 56px}
iframe.dashboard{width:100%;height:900px;border:1px solid #ddd}
`;

function badge(verdict: string): string {
  return `<span class="badge ${verdict === "pass" ? "pass" : "fail"}">${verdict.toUpperCase()}</span>`;
}

function num(value: number | undefined, digits = 1): string {
  return value === undefined ? "" : value.toFixed(digits);
}

function checksTable(checks: readonly CheckVerdict[]): string {
  if (checks.length === 0) return "<p>No checks.</p>";
  const rows = checks.map((c) => {
    const observed = "observed" in c && typeof c.observed === "string" ? c.observed : "";
    const problems = c.problems.length
      ? `<ul class="problems">${c.problems.map((p) => `<li>${esc(p)}</li>`).join("")}</ul>`
      : "";
    return `<tr><td>${badge(c.verdict)}</td><td>${esc(c.name)}${problems}</td><td class="num">${String(c.passes)}</td><td class="num">${String(c.fails)}</td><td>${esc(observed)}</td></tr>`;
  });
  return `<table><tr><th></th><th>check</th><th>passes</th><th>fails</th><th>observed</th></tr>${rows.join("")}</table>`;
}

function thresholdsTable(thresholds: readonly ThresholdVerdict[]): string {
  if (thresholds.length === 0) return "<p>No thresholds.</p>";
  const rows = thresholds.map(
    (t) =>
      `<tr><td>${badge(t.verdict)}</td><td>${esc(t.metric)}</td><td>${esc(t.expression)}</td><td class="num">${esc(formatObserved(t.metric, t.observed))}</td></tr>`,
  );
  return `<table><tr><th></th><th>metric</th><th>expression</th><th>observed</th></tr>${rows.join("")}</table>`;
}

function list(items: readonly string[], cls = ""): string {
  return items.length ? `<ul class="${cls}">${items.map((i) => `<li>${esc(i)}</li>`).join("")}</ul>` : "";
}

/** Findings, where the verdict carries them (ScenarioVerdict.findings: {rule, finding}; ExtensionVerdict: strings). */
function findingsOf(verdict: object): string[] {
  if (!("findings" in verdict) || !Array.isArray(verdict.findings)) return [];
  return (verdict.findings as unknown[]).map((f) =>
    typeof f === "string"
      ? f
      : isRecord(f) && typeof f.rule === "string"
        ? `${f.rule}: ${String(f.finding)}`
        : JSON.stringify(f),
  );
}

/** Counts per bucket (not cumulative), labelled by upper bound, plus the overflow. */
function histogramBars(series: HistogramSeries): Bar[] {
  const observations = series.samples.flatMap((s) => s.observations);
  const bounds = series.buckets;
  const counts = new Array<number>(bounds.length + 1).fill(0);
  for (const o of observations) {
    const i = bounds.findIndex((b) => o <= b);
    const at = i === -1 ? bounds.length : i;
    counts[at] = (counts[at] ?? 0) + 1;
  }
  return counts.map((value, i) => ({
    label: i < bounds.length ? `≤${String(bounds[i])}` : `>${String(bounds[bounds.length - 1])}`,
    value,
  }));
}

/** Nearest-rank percentile (0-1) of ascending values. */
function rank(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? 0;
}

/** Per value of the breakdown's label: how many observations and their percentiles, in the series' unit. */
function breakdownTable(series: HistogramSeries, breakdown: NonNullable<FeaturedHistogram["breakdown"]>): string {
  const rows = series.samples
    .filter((s) => s.observations.length > 0)
    .map((s) => {
      const sorted = [...s.observations].sort((a, b) => a - b);
      const cells = [rank(sorted, 0.5), rank(sorted, 0.95), rank(sorted, 0.99), sorted[sorted.length - 1] ?? 0];
      return `<tr><td>${esc(s.labels?.[breakdown.label] ?? "(all)")}</td><td class="num">${String(sorted.length)}</td>${cells.map((c) => `<td class="num">${c.toFixed(3)}</td>`).join("")}</tr>`;
    });
  const unit = esc(breakdown.unit);
  const stats = ["p50", "p95", "p99", "max"].map((p) => `<th>${p} ${unit}</th>`).join("");
  return rows.length
    ? `<table><tr><th>${esc(breakdown.header)}</th><th>${esc(breakdown.countHeader)}</th>${stats}</tr>${rows.join("")}</table>`
    : "";
}

/** A section an extension features (reports/report-pieces.ts): its histogram and breakdown, or its note. */
function featuredSection(section: ReportSection): string {
  if (section.kind === "note") return `<p class="note">${esc(section.text)}</p>`;
  const { series, breakdown } = section;
  const chart = barChart(histogramBars(series), {
    title: section.title,
    yUnit: section.yUnit,
    xUnit: section.xUnit,
    emptyText: section.emptyText,
  });
  return chart + (breakdown ? breakdownTable(series, breakdown) : "");
}

/** k6's plots over time: latency per endpoint, throughput, throttles. */
function timelineCharts(t: Timeline | undefined): string[] {
  if (!t) return ["<p>No raw k6 results in this run directory: nothing to plot over time.</p>"];
  const x = `seconds since the first sample (slots of ${String(t.slotSeconds)} s)`;
  return [
    lineChart(t.latencySeries(0.95), { title: "Latency p95 per endpoint", yUnit: "ms", xUnit: x }),
    lineChart(t.latencySeries(0.5), { title: "Latency p50 per endpoint", yUnit: "ms", xUnit: x }),
    lineChart(t.throughputSeries(), { title: "Throughput per scenario", yUnit: "requests/s", xUnit: x }),
    lineChart(t.throttleSeries(), {
      title: "Throttled (429) per endpoint",
      yUnit: "answers/s",
      xUnit: x,
      emptyText: "no 429 answers in this run",
    }),
  ];
}

function plots(input: HtmlReportInput): string {
  const charts = timelineCharts(input.timeline);
  const featured = EXTENSION_REPORTS.flatMap((report) => report.sections?.(input.summary) ?? []);
  charts.push(...featured.map(featuredSection));
  const shown = new Set(featured.flatMap((s) => (s.kind === "histogram" ? [s.series] : [])));
  // Every other histogram an extension reports, under its own help text.
  for (const e of input.summary.extensions) {
    for (const series of seriesOf(e).series) {
      if (series.type !== "histogram" || shown.has(series)) continue;
      charts.push(
        barChart(histogramBars(series), {
          title: `${series.help} (${e.name}: ${series.name})`,
          yUnit: "count",
          xUnit: "bucket upper bound",
        }),
      );
    }
  }
  return `<div class="charts">${charts.join("")}</div>`;
}

function scenarioSections(summary: RunSummary): string {
  return summary.scenarios
    .map((s) => {
      const m = s.metrics;
      const endpoints = Object.entries(s.endpoints)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(
          ([name, f]) =>
            `<tr><td>${esc(name)}</td><td class="num">${String(f.requests)}</td><td class="num">${(f.share * 100).toFixed(1)}%</td><td class="num">${num(f.p95Ms)}</td><td class="num">${num(f.p99Ms)}</td></tr>`,
        );
      return [
        `<h3>${badge(s.verdict)} scenario ${esc(s.scenario)}</h3>`,
        `<p>${String(m.iterations)} iterations, ${String(m.requests)} requests, ${String(m.throttles)} throttled, ${String(m.droppedIterations)} dropped iterations</p>`,
        list(s.errors, "problems"),
        endpoints.length
          ? `<table><tr><th>endpoint</th><th>requests</th><th>share</th><th>p95 ms</th><th>p99 ms</th></tr>${endpoints.join("")}</table>`
          : "",
        checksTable(s.checks),
        thresholdsTable(s.thresholds),
        list(findingsOf(s), "note"),
      ].join("");
    })
    .join("");
}

/**
 * A plot an extension contributed (extension-plots.ts): one line chart per panel over the shared x axis, the markers
 * on each, the caption under them. Drawn by the same lineChart as the plots over time; every text is escaped there
 * or here, and plotsOf has checked every number, so nothing from summary.json reaches the page as markup.
 */
function extensionPlot(plot: ExtensionPlot): string {
  const charts = plot.panels.map((panel) =>
    lineChart(
      panel.lines.map((l) => ({ name: l.name, points: l.points.map((p) => ({ x: p.x, y: p.y })), reference: l.reference })),
      { title: panel.title, yUnit: panel.yUnit, xUnit: plot.xUnit, markers: plot.markers ?? [] },
    ),
  );
  return `<figure class="plot"><div class="plot-title">${esc(plot.title)}</div>${charts.join("")}<figcaption class="plot-caption">${esc(plot.caption)}</figcaption></figure>`;
}

function extensionSections(summary: RunSummary): string {
  return summary.extensions
    .map((e) => {
      const figures = numericFigures(e.figures).map(
        ([name, value]) => `<tr><td>${esc(name)}</td><td class="num">${String(value)}</td></tr>`,
      );
      return [
        `<h3>${badge(e.verdict)} ${esc(e.name)}</h3>`,
        list(e.errors, "problems"),
        checksTable(e.checks),
        thresholdsTable(e.thresholds),
        list(findingsOf(e), "note"),
        plotsOf(e).plots.map(extensionPlot).join(""),
        figures.length ? `<table><tr><th>figure</th><th>value</th></tr>${figures.join("")}</table>` : "",
      ].join("");
    })
    .join("");
}

function dashboards(input: HtmlReportInput): string {
  const scenarios = input.summary.run.scenarios;
  return scenarios
    .map((scenario) => {
      const html = input.dashboards.get(scenario);
      if (html === undefined) {
        return isScenarioName(scenario) && scenarioSpec(scenario).traits.noWebDashboard
          ? `<p>No web-dashboard report for ${esc(scenario)}, by design: over a long run it would hold every trend value in k6's memory a second time. The plots above cover the whole run.</p>`
          : `<p>k6 left no web-dashboard report for ${esc(scenario)}.</p>`;
      }
      // srcdoc keeps the dashboard (its own scripts and styles) in one file with the verdict, isolated from it.
      return `<details${scenarios.length === 1 ? " open" : ""}><summary>k6 web dashboard: ${esc(scenario)}</summary><iframe class="dashboard" title="k6 web dashboard ${esc(scenario)}" srcdoc="${esc(html)}"></iframe></details>`;
    })
    .join("");
}

const VERDICT_CLASS: Record<string, string> = { regressed: "fail", improved: "pass" };

/** The comparison with the baseline: its verdict, a table per group, and both latency distributions overlaid. */
function comparisonSection(c: Comparison): string {
  const tables = metricsByGroup(c).map(([group, metrics]) => {
    const rows = metrics.map((m) => {
      const cells = compareRow(m).map((text, i) => {
        const cls = i === 6 && VERDICT_CLASS[m.verdict] ? ` class="${VERDICT_CLASS[m.verdict] ?? ""}-text"` : i > 0 && i < 6 ? ' class="num"' : "";
        return `<td${cls}>${esc(text)}</td>`;
      });
      return `<tr title="${esc(m.note ?? "")}">${cells.join("")}</tr>`;
    });
    return `<h3>${esc(GROUP_TITLES[group])}</h3><table><tr>${COLUMNS.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>${rows.join("")}</table>`;
  });
  const charts = c.distributions.map((d) =>
    lineChart(
      [
        { name: `baseline ${c.baseline.identity.runId}`, points: d.baseline.map(([x, y]) => ({ x, y })) },
        { name: `candidate ${c.candidate.identity.runId}`, points: d.candidate.map(([x, y]) => ({ x, y })) },
      ],
      { title: `${d.subject}: latency by percentile`, yUnit: "ms", xUnit: "percentile", emptyText: "no samples" },
    ),
  );
  const notes = comparisonNotes(c);
  return [
    `<h2>Comparison with the baseline</h2>`,
    `<p><span class="badge ${c.verdict === "regressed" ? "fail" : "pass"}">${esc(c.verdict.toUpperCase())}</span> against ${esc(describeSide(c.baseline))}; this run: ${esc(describeSide(c.candidate))}.</p>`,
    tables.join(""),
    `<h3>Latency distributions, baseline and candidate</h3><div class="charts">${charts.join("")}</div>`,
    notes.length ? `<h3>Comparison notes</h3>${list(notes, "note")}` : "",
  ].join("");
}

export function htmlReport(input: HtmlReportInput): string {
  const { summary } = input;
  const run = summary.run;
  const meta: [string, string][] = [
    ["run", run.id],
    ["started", run.startedAt],
    ["finished", run.finishedAt],
    ["took", `${run.durationSeconds.toFixed(1)} s`],
    ["target", run.target.kind],
    ["profile", run.profile + (run.duration ? ` (${run.duration})` : "")],
    ["scenarios", run.scenarios.join(", ")],
    ["exit code", String(summary.exitCode)],
    ["k6 / node", `${run.k6 ?? "-"} / ${run.node}`],
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>atd-harness ${esc(summary.verdict.toUpperCase())} ${esc(run.id)}</title><style>${CSS}</style></head>
<body>
<h1>${badge(summary.verdict)} atd-harness run ${esc(run.id)}</h1>
<table>${meta.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join("")}</table>
${list(summary.errors, "problems")}
<h2>Over time</h2>
${plots(input)}
<h2>Scenarios</h2>
${scenarioSections(summary) || "<p>No scenario ran.</p>"}
${summary.extensions.length ? `<h2>Extensions</h2>${extensionSections(summary)}` : ""}
${input.comparison ? comparisonSection(input.comparison) : ""}
${input.notes.length ? `<h2>Report notes</h2>${list(input.notes, "note")}` : ""}
<h2>k6 web dashboard</h2>
${dashboards(input)}
</body></html>
`;
}
