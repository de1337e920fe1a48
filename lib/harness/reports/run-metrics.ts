/**
 * The run as Prometheus metrics (metrics.prom and the Pushgateway push), made with prom-client in a registry of its
 * own: latency histograms, requests and throttles per endpoint from k6's raw samples; checks and thresholds from the
 * verdict; extension figures and series; what was skipped; run metadata as labels. Base units everywhere (seconds,
 * bytes, ratios; k6's milliseconds are converted, threshold-units.ts), names prefixed atd_ and ending in their unit,
 * and every series labelled with the run id so runs can be told apart wherever the metrics end up. No URL, API key or
 * token is ever a label.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { RunSummary } from "./summary.ts";
import type { Comparison } from "../compare/compare-runs.ts";
import { figureInBaseUnits, numericFigures, seriesOf, type ExtensionSeries } from "./extension-series.ts";
import type { RawSample } from "./raw-samples.ts";
import { isDurationThreshold, msToSeconds, thresholdLimit } from "./threshold-units.ts";

/** The raw k6 metrics the registry (and the timeline) read. */
export const RAW_METRICS: ReadonlySet<string> = new Set(["http_req_duration", "http_reqs", "atd_throttles"]);

/** Seconds; the SLO table's limits (0.3, 0.5, 0.8, 1, 1.5 s) are bucket bounds so an SLO can be read off exactly. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.5, 2.5, 5, 10, 30, 60];

type Kind = "scenario" | "extension";

export class RunMetrics {
  readonly registry = new Registry();
  /** Extension series that could not be exported, one line each (shown in report.html). */
  readonly problems: string[] = [];
  private readonly latency: Histogram<"scenario" | "endpoint">;
  private readonly requests: Counter<"scenario" | "endpoint" | "status">;
  private readonly throttles: Counter<"scenario" | "endpoint">;

  private readonly summary: RunSummary;

  constructor(summary: RunSummary) {
    this.summary = summary;
    this.registry.setDefaultLabels({ run_id: summary.run.id });
    const registers = [this.registry];
    this.latency = new Histogram({
      name: "atd_http_request_duration_seconds",
      help: "Time from sending a request to the end of its answer (k6 http_req_duration), per endpoint.",
      labelNames: ["scenario", "endpoint"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.requests = new Counter({
      name: "atd_http_requests_total",
      help: "Requests sent (k6 http_reqs), per endpoint and status.",
      labelNames: ["scenario", "endpoint", "status"],
      registers,
    });
    this.throttles = new Counter({
      name: "atd_throttles_total",
      help: "429 answers (the scenarios' atd_throttles counter), per endpoint.",
      labelNames: ["scenario", "endpoint"],
      registers,
    });
  }

  /** Feeds one raw k6 sample of a scenario (only the metrics of RAW_METRICS matter). */
  observe(scenario: string, sample: RawSample): void {
    const endpoint = sample.tags.endpoint ?? "untagged";
    if (sample.metric === "http_req_duration") {
      this.latency.observe({ scenario, endpoint }, sample.value / 1000);
    } else if (sample.metric === "http_reqs") {
      this.requests.inc({ scenario, endpoint, status: sample.tags.status ?? "" }, sample.value);
      // Endpoints that were never throttled still get a zero series, so rate() and dashboards see them.
      this.throttles.inc({ scenario, endpoint }, 0);
    } else if (sample.metric === "atd_throttles") {
      this.throttles.inc({ scenario, endpoint }, sample.value);
    }
  }

  /** Adds everything that comes from summary.json; call once, after the raw samples. */
  finish(): this {
    const registers = [this.registry];
    this.addRunInfo(registers);
    this.addIterations(registers);
    this.addVerdicts(registers);
    this.addSkipped(registers);
    this.addExtensionFigures(registers);
    return this;
  }

  /** The run's metadata, verdict, exit code, start and length. */
  private addRunInfo(registers: Registry[]): void {
    const { run } = this.summary;
    new Gauge({
      name: "atd_run_info",
      help: "The run's metadata as labels (always 1).",
      labelNames: ["scenarios", "profile", "duration", "target", "k6", "verdict"],
      registers,
    }).set(
      {
        scenarios: run.scenarios.join(","),
        profile: run.profile,
        duration: run.duration ?? "",
        target: run.target.kind,
        k6: run.k6 ?? "",
        verdict: this.summary.verdict,
      },
      1,
    );
    const gauge = (name: string, help: string, value: number) => {
      new Gauge({ name, help, registers }).set(value);
    };
    gauge("atd_run_passed", "1 when every check and threshold passed (exit code 0), else 0.", this.summary.verdict === "pass" ? 1 : 0);
    gauge("atd_run_exit_code", "The harness's exit code (0 pass, 1 failed, 2 usage, 3 target, 4 harness, 130/143 interrupted).", this.summary.exitCode);
    gauge("atd_run_start_timestamp_seconds", "When the run started, Unix time.", Date.parse(run.startedAt) / 1000);
    gauge("atd_run_duration_seconds", "How long the whole run took, build to report.", run.durationSeconds);
  }

  /** Iterations completed and dropped, per scenario. */
  private addIterations(registers: Registry[]): void {
    const { scenarios } = this.summary;
    const iterations = new Counter({
      name: "atd_iterations_total",
      help: "Scenario iterations k6 completed.",
      labelNames: ["scenario"],
      registers,
    });
    const dropped = new Counter({
      name: "atd_dropped_iterations_total",
      help: "Iterations the open model could not start (no free VU).",
      labelNames: ["scenario"],
      registers,
    });
    for (const s of scenarios) {
      iterations.inc({ scenario: s.scenario }, s.metrics.iterations);
      dropped.inc({ scenario: s.scenario }, s.metrics.droppedIterations);
    }
  }

  /** Every check's passes and fails and every threshold's outcome, observed value and bound, of scenarios and extensions. */
  private addVerdicts(registers: Registry[]): void {
    const { scenarios, extensions } = this.summary;
    const checks = new Counter({
      name: "atd_checks_total",
      help: "Check results by check, of scenarios and extensions (result pass or fail).",
      labelNames: ["kind", "source", "check", "result"],
      registers,
    });
    const thresholdPassed = new Gauge({
      name: "atd_threshold_passed",
      help: "1 when the threshold held, 0 when it was crossed.",
      labelNames: ["kind", "source", "metric", "expression"],
      registers,
    });
    const thresholdLabels = ["kind", "source", "metric", "expression"] as const;
    // One unit per metric name: durations (k6 evaluates them in ms) in seconds, everything else dimensionless.
    const thresholdGauge = (name: string, help: string) =>
      new Gauge({ name, help, labelNames: thresholdLabels, registers });
    const observedSeconds = thresholdGauge(
      "atd_threshold_observed_seconds",
      "The duration a latency threshold was evaluated on (k6's p(95) etc.), seconds.",
    );
    const limitSeconds = thresholdGauge(
      "atd_threshold_limit_seconds",
      "The bound of a latency threshold, seconds (the expression label keeps k6's milliseconds).",
    );
    const observed = thresholdGauge(
      "atd_threshold_observed",
      "The value a dimensionless threshold was evaluated on: a ratio (0-1) for rates, a count for counts.",
    );
    const limit = thresholdGauge("atd_threshold_limit", "The bound of a dimensionless threshold, as in its expression.");
    const sources: [Kind, string, RunSummary["scenarios"][number] | RunSummary["extensions"][number]][] = [
      ...scenarios.map((s) => ["scenario", s.scenario, s] as [Kind, string, typeof s]),
      ...extensions.map((e) => ["extension", e.name, e] as [Kind, string, typeof e]),
    ];
    for (const [kind, source, verdict] of sources) {
      for (const c of verdict.checks) {
        checks.inc({ kind, source, check: c.name, result: "pass" }, c.passes);
        checks.inc({ kind, source, check: c.name, result: "fail" }, c.fails);
      }
      for (const t of verdict.thresholds) {
        const labels = { kind, source, metric: t.metric, expression: t.expression };
        thresholdPassed.set(labels, t.verdict === "pass" ? 1 : 0);
        const seconds = isDurationThreshold(t.metric, t.expression);
        const bound = thresholdLimit(t.expression);
        if (t.observed !== undefined) {
          if (seconds) observedSeconds.set(labels, msToSeconds(t.observed));
          else observed.set(labels, t.observed);
        }
        if (bound !== undefined) {
          if (seconds) limitSeconds.set(labels, msToSeconds(bound));
          else limit.set(labels, bound);
        }
      }
    }
  }

  /** What the run asked for and did not run or judge. */
  private addSkipped(registers: Registry[]): void {
    // The reason is free text (a sentence per skip): as a label it would make a new series for every wording.
    const skipped = new Gauge({
      name: "atd_skipped",
      help: "A scenario or extension the run asked for that did not run, or a check not judged (kind by-design: by design, never a failure); always 1, the reason is in summary.json.",
      labelNames: ["kind", "name"],
      registers,
    });
    for (const s of this.summary.skipped ?? []) skipped.set({ kind: s.kind, name: s.name }, 1);
    new Gauge({
      name: "atd_run_skipped",
      help: "How many scenarios, extensions and checks the run asked for did not run or judge, by-design entries left out (0 when everything ran).",
      registers,
    }).set((this.summary.skipped ?? []).filter((s) => s.kind !== "by-design").length);
  }

  /** The extensions' numeric figures, and their series. */
  private addExtensionFigures(registers: Registry[]): void {
    const { extensions } = this.summary;
    const figure = new Gauge({
      name: "atd_extension_figure",
      help: "A numeric figure an extension reported (figure = its dotted path in summary.json; milliseconds and per-minute figures converted to seconds and per-second, renamed to say so).",
      labelNames: ["extension", "figure"],
      registers,
    });
    for (const e of extensions) {
      for (const [path, value] of numericFigures(e.figures).map(([p, v]) => figureInBaseUnits(p, v))) {
        figure.set({ extension: e.name, figure: path }, value);
      }
      const { series, problems } = seriesOf(e);
      this.problems.push(...problems);
      for (const s of series) this.addSeries(e.name, s);
    }
  }

  /**
   * A release comparison's figures: both runs' values labelled run="baseline"/"candidate" (latencies in seconds, other
   * values in their own base unit: ratios, requests per second, bytes per minute as a rate per second), the change as
   * a ratio, 1 per regressed metric, and the overall verdict (1 regressed, 0 no significant change, -1 improved).
   */
  addComparison(c: Comparison): this {
    const registers = [this.registry];
    const labelNames = ["group", "subject", "statistic", "run"] as const;
    const latency = new Gauge({
      name: "atd_compare_latency_seconds",
      help: "A latency percentile of the baseline and the candidate run of a release comparison, seconds.",
      labelNames,
      registers,
    });
    const value = new Gauge({
      name: "atd_compare_value",
      help: "A compared figure of the baseline and the candidate run (ratios 0-1, requests per second, bytes per second).",
      labelNames,
      registers,
    });
    const metricLabels = ["group", "subject", "statistic"] as const;
    const change = new Gauge({
      name: "atd_compare_change_ratio",
      help: "The candidate's change against the baseline: relative (0.1 = 10% more) or, for shares, absolute (0.001 = 0.1 point).",
      labelNames: metricLabels,
      registers,
    });
    const regressed = new Gauge({
      name: "atd_compare_regressed",
      help: "1 when the metric regressed beyond its tolerance with the comparison's confidence, else 0.",
      labelNames: metricLabels,
      registers,
    });
    for (const m of c.metrics) {
      const labels = { group: m.group, subject: m.subject, statistic: m.statistic };
      const base = (v: number) => (m.unit === "ms" ? msToSeconds(v) : m.unit === "bytes per minute" ? v / 60 : v);
      const gauge = m.unit === "ms" ? latency : value;
      gauge.set({ ...labels, run: "baseline" }, base(m.baseline));
      gauge.set({ ...labels, run: "candidate" }, base(m.candidate));
      if (Number.isFinite(m.change)) change.set(labels, m.change);
      regressed.set(labels, m.verdict === "regressed" ? 1 : 0);
    }
    new Gauge({
      name: "atd_compare_verdict",
      help: "The release comparison's verdict: 1 regressed, 0 no significant change, -1 improved.",
      registers,
    }).set(c.verdict === "regressed" ? 1 : c.verdict === "improved" ? -1 : 0);
    return this;
  }

  private addSeries(extension: string, series: ExtensionSeries): void {
    const name = `atd_${series.name}${series.type === "counter" ? "_total" : ""}`;
    const labelNames = [
      "extension",
      ...new Set(series.samples.flatMap((s) => Object.keys(s.labels ?? {}))),
    ].sort();
    const registers = [this.registry];
    const existing = this.registry.getSingleMetric(name);
    const reuse = <T>(type: abstract new (...args: never[]) => T): T | undefined => {
      if (existing === undefined) return undefined;
      if (existing instanceof type) return existing;
      throw new Error(`${name} is already a metric of another type`);
    };
    try {
      if (series.type === "histogram") {
        const buckets = [...series.buckets];
        const metric =
          reuse(Histogram) ?? new Histogram({ name, help: series.help, labelNames, buckets, registers });
        for (const s of series.samples) for (const o of s.observations) metric.observe({ ...s.labels, extension }, o);
      } else if (series.type === "counter") {
        const metric = reuse(Counter) ?? new Counter({ name, help: series.help, labelNames, registers });
        for (const s of series.samples) metric.inc({ ...s.labels, extension }, s.value);
      } else {
        const metric = reuse(Gauge) ?? new Gauge({ name, help: series.help, labelNames, registers });
        for (const s of series.samples) metric.set({ ...s.labels, extension }, s.value);
      }
    } catch (error) {
      this.problems.push(`${extension}: series ${series.name} left out: ${(error as Error).message}`);
    }
  }

  /** The Prometheus text exposition format (what metrics.prom holds and the Pushgateway receives). */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
