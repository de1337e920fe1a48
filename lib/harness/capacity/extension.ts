/**
 * The capacity analysis as a run extension: after k6 it streams the capacity scenario's raw samples, cuts them into
 * the plan's steps, finds the knee, fits the USL, and writes capacity.json and capacity.svg to the run directory; the
 * knee, the safe operating rate, the fit and every step go out as gauges (metrics.prom, Pushgateway, report.html's
 * figures table) through the reports' extension series, and the capacity plot into report.html as an extension plot.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { capacityPlan } from "../../contract/profiles.ts";
import type { SloTable } from "../../contract/slo.ts";
import { withPlots } from "../reports/extension-plots.ts";
import { withSeries, type GaugeSeries } from "../reports/extension-series.ts";
import { rawResultsFile, readRawSamples } from "../reports/raw-samples.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type K6Outputs,
  type RunContext,
  type RunExtension,
} from "../run-extension.ts";
import type { CheckVerdict } from "../verdict.ts";
import {
  analyseCapacity,
  capacityLatencySlo,
  DEFAULT_CAPACITY_SETTINGS,
  stepFigures,
  type CapacityAnalysis,
  type CapacitySample,
  type CapacitySettings,
} from "./capacity-analysis.ts";
import { capacityPlot, capacityReportPlot } from "./capacity-plot.ts";

export const CAPACITY_PLOT_FILE = "capacity.svg";
export const CAPACITY_DATA_FILE = "capacity.json";

export interface CapacityOptions {
  /** --duration: the hold of each step. */
  duration: string | undefined;
  /** The run's SLO table (--slo merged, read once by run-settings.ts): the same table k6 judges by. */
  slo: SloTable;
  /** --capacity-safe-share. */
  safeShare: number | undefined;
  /** --capacity-rates: the step rates; undefined: the default steps. */
  rates?: readonly number[] | undefined;
  /** The scenario whose raw samples it cuts into steps (the registry's scenario needing the capacity extension). */
  scenario: string;
}

export async function readCapacitySamples(
  file: string,
): Promise<{ samples: CapacitySample[]; dropped: { t: number; value: number }[]; startMs: number }> {
  const samples: CapacitySample[] = [];
  const dropped: { t: number; value: number }[] = [];
  let startMs = Infinity;
  await readRawSamples(file, new Set(["http_req_duration", "dropped_iterations"]), (s) => {
    if (s.metric === "dropped_iterations") {
      dropped.push({ t: s.time, value: s.value });
      return;
    }
    if (s.tags.phase === "setup") return;
    // A sample is stamped when its request ended: the first request's start is the scenario's start.
    startMs = Math.min(startMs, s.time - s.value);
    samples.push({ t: s.time, durationMs: s.value, failed: s.tags.expected_response === "false" });
  });
  return { samples, dropped, startMs };
}

function gauge(name: string, help: string, samples: GaugeSeries["samples"]): GaugeSeries {
  return { type: "gauge", name, help, samples };
}

export function capacitySeries(a: CapacityAnalysis): GaugeSeries[] {
  const byStep = (value: (s: CapacityAnalysis["steps"][number]) => number, extra: Record<string, string> = {}) =>
    a.steps.map((s) => ({ labels: { offered: String(s.offeredPerSecond), ...extra }, value: value(s) }));
  const series: GaugeSeries[] = [
    gauge(
      "capacity_step_throughput_requests_per_second",
      "Answered without error per second, per offered rate.",
      byStep((s) => s.throughputPerSecond),
    ),
    // "percentile", not "quantile": Prometheus reserves quantile for summaries, and the reports refuse it on a gauge.
    gauge("capacity_step_latency_seconds", "Latency percentiles per offered rate, seconds.", [
      ...byStep((s) => s.p50Ms / 1000, { percentile: "50" }),
      ...byStep((s) => s.p95Ms / 1000, { percentile: "95" }),
      ...byStep((s) => s.p99Ms / 1000, { percentile: "99" }),
    ]),
    gauge(
      "capacity_step_error_ratio",
      "Failed requests over all, per offered rate.",
      byStep((s) => s.errorRate),
    ),
    gauge(
      "capacity_step_within_slo",
      "1 when the step met the SLO table, per offered rate.",
      byStep((s) => (s.withinSlo ? 1 : 0)),
    ),
  ];
  if (a.knee) {
    series.push(
      gauge("capacity_knee_requests_per_second", "Throughput at the highest step within SLO.", [
        { value: a.knee.throughputPerSecond },
      ]),
      gauge("capacity_knee_offered_requests_per_second", "Offered rate of the highest step within SLO.", [
        { value: a.knee.offeredPerSecond },
      ]),
      gauge("capacity_safe_operating_requests_per_second", "The recommended operating rate (a share of the knee).", [
        { value: a.safeOperatingRate ?? 0 },
      ]),
      gauge(
        "capacity_knee_generator_bound",
        "1 when the load generator, not the service, fell behind above the knee (the knee is a lower bound).",
        [{ value: a.kneeBoundBy === "generator" ? 1 : 0 }],
      ),
    );
  }
  if (a.usl) {
    series.push(
      gauge("capacity_usl_coefficient", "Universal Scalability Law fit of throughput against concurrency.", [
        { labels: { coefficient: "lambda" }, value: a.usl.lambda },
        { labels: { coefficient: "sigma" }, value: a.usl.sigma },
        { labels: { coefficient: "kappa" }, value: a.usl.kappa },
      ]),
      gauge("capacity_usl_r_squared", "Coefficient of determination of the USL fit.", [{ value: a.usl.rSquared }]),
    );
  }
  return series;
}

export class CapacityExtension implements RunExtension {
  readonly name = "capacity";
  readonly #options: CapacityOptions;

  constructor(options: CapacityOptions) {
    this.#options = options;
  }

  start(_ctx: RunContext): Promise<ExtensionStart> {
    return Promise.resolve({});
  }

  async finish(ctx: RunContext, _k6: K6Outputs): Promise<ExtensionVerdict> {
    const settings: CapacitySettings = {
      ...DEFAULT_CAPACITY_SETTINGS,
      ...(this.#options.safeShare === undefined ? {} : { safeShare: this.#options.safeShare }),
    };
    let analysis: CapacityAnalysis;
    const slo = this.#options.slo;
    try {
      const read = await readCapacitySamples(path.join(ctx.runDir, rawResultsFile(this.#options.scenario)));
      const plan = capacityPlan(this.#options.duration, this.#options.rates);
      analysis = analyseCapacity(stepFigures(plan, read.startMs, read.samples, read.dropped, slo, settings), settings);
    } catch (error) {
      return extensionVerdict(this.name, {
        errors: [`Failed to analyse the capacity run: ${String(error)}. Please look at the run directory.`],
      });
    }
    const latencySlo = capacityLatencySlo(slo);
    await writeFile(path.join(ctx.runDir, CAPACITY_PLOT_FILE), capacityPlot(analysis, latencySlo.p95));
    await writeFile(
      path.join(ctx.runDir, CAPACITY_DATA_FILE),
      `${JSON.stringify({ settings, latencySlo, ...analysis }, null, 2)}\n`,
    );
    const plot = capacityReportPlot(analysis, latencySlo.p95, settings.safeShare);
    return extensionVerdict(this.name, {
      checks: [kneeCheck(analysis.knee)],
      findings: capacityFindings(analysis, settings),
      figures: withPlots(withSeries(capacityFigures(analysis, settings), capacitySeries(analysis)), [plot]),
    });
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }
}

/** The one check of a capacity run: some step met the SLO table (the knee exists). */
function kneeCheck(knee: CapacityAnalysis["knee"]): CheckVerdict {
  return {
    name: "capacity: a step within SLO (the knee)",
    verdict: knee ? "pass" : "fail",
    passes: knee ? 1 : 0,
    fails: knee ? 0 : 1,
    problems: knee ? [] : ["No step met the SLO table: the service is over capacity at the lowest offered rate."],
    observed: knee
      ? `knee at ${String(knee.offeredPerSecond)}/s offered, ${knee.throughputPerSecond.toFixed(0)}/s achieved, p95 ${knee.p95Ms.toFixed(1)} ms`
      : "none",
  };
}

/** What the run found beyond the check: what bounds the knee, how to pin it down, and why each step failed. */
function capacityFindings(analysis: CapacityAnalysis, settings: CapacitySettings): string[] {
  const knee = analysis.knee;
  const findings: string[] = [];
  if (analysis.kneeBoundBy === "plan") {
    findings.push(
      "Every step met the SLO: the knee is above the plan's top rate (the capacity is at least that). Please rerun with higher --capacity-rates.",
    );
  }
  const bound = knee && analysis.steps.find((s) => s.offeredPerSecond > knee.offeredPerSecond);
  if (analysis.kneeBoundBy === "generator" && bound) {
    findings.push(
      `The knee is a lower bound set by the load generator: at ${String(bound.offeredPerSecond)}/s k6 dropped ${String(bound.droppedIterations)} iterations with only ${bound.concurrency.toFixed(0)} requests in flight (of ${String(settings.generatorVus)} ready VUs), so it fell behind on its own. Please give k6 more CPU (another host, --segments across hosts) or the service a smaller share of this one (--service-cpus).`,
    );
  }
  if (analysis.refineRates) {
    findings.push(
      `To pin the knee down, rerun between it and the first failed step: --capacity-rates ${analysis.refineRates}.`,
    );
  }
  for (const s of analysis.steps.filter((s) => !s.withinSlo)) {
    findings.push(`${String(s.offeredPerSecond)}/s offered: ${s.breaches.join(", ")}`);
  }
  return findings;
}

/** The report's figures: the knee, the safe operating rate and the fitted USL model. */
function capacityFigures(analysis: CapacityAnalysis, settings: CapacitySettings) {
  const knee = analysis.knee;
  return {
    kneeOfferedPerSecond: knee?.offeredPerSecond,
    kneeThroughputPerSecond: knee?.throughputPerSecond,
    kneeP95Ms: knee?.p95Ms,
    kneeBoundBy: analysis.kneeBoundBy,
    refineRates: analysis.refineRates,
    safeOperatingRatePerSecond: analysis.safeOperatingRate,
    safeShare: settings.safeShare,
    usl: analysis.usl
      ? {
          lambda: analysis.usl.lambda,
          sigma: analysis.usl.sigma,
          kappa: analysis.usl.kappa,
          rSquared: analysis.usl.rSquared,
          ...(Number.isFinite(analysis.usl.peakConcurrency) ? { peakConcurrency: analysis.usl.peakConcurrency } : {}),
          ...(Number.isFinite(analysis.usl.peakThroughput) ? { peakThroughput: analysis.usl.peakThroughput } : {}),
        }
      : undefined,
    plot: CAPACITY_PLOT_FILE,
    data: CAPACITY_DATA_FILE,
  };
}
