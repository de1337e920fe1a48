/**
 * The soak as a run extension: scrapes the service and the harness from the start of the run to its end
 * (resource-scraper.ts), then streams k6's raw samples of the soak scenario and judges drift with the configured
 * rules (drift.ts). The drift figures go to summary.json, and as gauges to metrics.prom and the Pushgateway, so
 * nightly runs can be compared over time.
 */
import path from "node:path";
import { HEADERS } from "../../contract/index.ts";
import { rawResultsFile, readRawSamples } from "../reports/raw-samples.ts";
import { withSeries, type GaugeSeries } from "../reports/extension-series.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type K6Outputs,
  type RunContext,
  type RunExtension,
} from "../run-extension.ts";
import { judgeSoak, type RequestSample, type SoakJudgement } from "./drift.ts";
import { ResourceScraper, SOAK_RESOURCES_FILE } from "./resource-scraper.ts";
import { scrapeIntervalSeconds, type SoakRules } from "./soak-rules.ts";

export interface SoakOptions {
  /** The drift rules, read and checked once before the run (run-settings.ts: --soak-config). */
  rules: SoakRules;
  /** The soak profile's length for this run (sets the scrape interval). */
  plannedSeconds: number | undefined;
}

/** Reads what the drift rules need from k6's raw samples, streamed (a nightly run has millions of them). */
export async function readSoakSamples(
  file: string,
): Promise<{ requests: RequestSample[]; droppedIterations: number; truncated: boolean }> {
  const requests: RequestSample[] = [];
  let droppedIterations = 0;
  const { truncated } = await readRawSamples(file, new Set(["http_req_duration", "dropped_iterations"]), (s) => {
    if (s.metric === "dropped_iterations") {
      droppedIterations += s.value;
      return;
    }
    if (s.tags.phase === "setup") return;
    requests.push({
      t: s.time,
      durationMs: s.value,
      failed: s.tags.expected_response === "false",
      throttled: s.tags.status === "429",
    });
  });
  return { requests, droppedIterations, truncated };
}

function gauge(name: string, help: string, samples: GaugeSeries["samples"]): GaugeSeries {
  return { type: "gauge", name, help, samples };
}

/** The drift figures as Prometheus gauges (atd_ prefix and extension label are added by the reports). */
export function soakSeries(f: Record<string, number>): GaugeSeries[] {
  const series: GaugeSeries[] = [];
  const has = (k: string) => typeof f[k] === "number";
  if (has("p95DriftRatio")) {
    series.push(
      gauge("soak_p95_drift_ratio", "p95 of the last window over p95 of the first after warm-up.", [
        { value: f.p95DriftRatio as number },
      ]),
      gauge("soak_window_p95_seconds", "p95 latency of the compared windows, seconds.", [
        { labels: { window: "first" }, value: (f.p95FirstWindowMs as number) / 1000 },
        { labels: { window: "last" }, value: (f.p95LastWindowMs as number) / 1000 },
      ]),
    );
  }
  series.push(
    gauge("soak_rate_trend_rise_ratio", "Rise of a rate over the judged span by its linear trend.", [
      { labels: { rate: "error" }, value: f.errorRateRise ?? 0 },
      { labels: { rate: "throttle" }, value: f.throttleRateRise ?? 0 },
    ]),
    gauge("soak_dropped_iterations", "Iterations the open model could not start.", [
      { value: f.droppedIterations ?? 0 },
    ]),
  );
  // Only the memory figures the service reported (a runtime without a heap figure has RSS alone).
  const memory = (
    [
      ["rss", "rssSlopeBytesPerMinute"],
      ["heap_used", "heapSlopeBytesPerMinute"],
      ["heap_floor", "heapFloorSlopeBytesPerMinute"],
    ] as const
  ).filter(([, figure]) => has(figure));
  if (memory.length > 0) {
    series.push(
      // Base units for Prometheus: bytes per second (summary.json keeps the per-minute figures the rules use).
      gauge(
        "soak_memory_slope_bytes_per_second",
        "Slope of the service's memory after warm-up, bytes per second (heap_floor: what the check judges).",
        memory.map(([label, figure]) => ({ labels: { memory: label }, value: (f[figure] as number) / 60 })),
      ),
    );
  }
  if (has("openConnectionsFirst")) {
    series.push(
      gauge("soak_open_connections", "Mean open connections of the service in the compared windows.", [
        { labels: { window: "first" }, value: f.openConnectionsFirst as number },
        { labels: { window: "last" }, value: f.openConnectionsLast as number },
      ]),
    );
  }
  return series;
}

export class SoakExtension implements RunExtension {
  readonly name = "soak";
  readonly #options: SoakOptions;
  readonly #scenario: string;
  #rules: SoakRules | undefined;
  #scraper: ResourceScraper | undefined;

  /** scenario: the one whose samples it judges for drift (the registry's scenario needing the soak extension). */
  constructor(options: SoakOptions, scenario: string) {
    this.#options = options;
    this.#scenario = scenario;
  }

  start(ctx: RunContext): Promise<ExtensionStart> {
    this.#rules = this.#options.rules;
    const interval = scrapeIntervalSeconds(this.#rules, this.#options.plannedSeconds);
    const control = ctx.target.control;
    const metricsUrl = control ? `${control.url}/metrics` : undefined;
    const metrics =
      control && metricsUrl ? { url: metricsUrl, headers: { [HEADERS.control]: control.token } } : undefined;
    this.#scraper = new ResourceScraper(metrics, interval, path.join(ctx.runDir, SOAK_RESOURCES_FILE));
    this.#scraper.start();
    ctx.say(`  soak: scraping ${metricsUrl ?? "the harness only (no control API)"} every ${String(interval)} s`);
    return Promise.resolve({});
  }

  async finish(ctx: RunContext, _k6: K6Outputs): Promise<ExtensionVerdict> {
    const scraper = this.#scraper;
    await scraper?.stop();
    const rules = this.#rules ?? this.#options.rules;
    const scenario = ctx.scenarios.includes(this.#scenario) ? this.#scenario : ctx.scenarios[0];
    if (!scenario) return extensionVerdict(this.name, { errors: ["Failed to judge the soak: no scenario ran."] });
    let samples: Awaited<ReturnType<typeof readSoakSamples>>;
    try {
      samples = await readSoakSamples(path.join(ctx.runDir, rawResultsFile(scenario)));
    } catch (error) {
      return extensionVerdict(this.name, {
        errors: [`Failed to read k6's raw samples of ${scenario}: ${String(error)}. Please look at the run directory.`],
      });
    }
    const judgement: SoakJudgement = judgeSoak(
      { requests: samples.requests, droppedIterations: samples.droppedIterations, service: scraper?.service ?? [] },
      rules,
    );
    const harness = scraper?.harness ?? [];
    const figures = {
      ...judgement.figures,
      harnessRssMaxBytes: Math.max(0, ...harness.map((p) => p.rssBytes ?? 0)),
      harnessEventLoopLagP99MaxSeconds: Math.max(0, ...harness.map((p) => p.eventLoopLagP99Seconds ?? 0)),
      scrapes: scraper?.service.length ?? 0,
    };
    const findings = [...judgement.findings, ...(scraper?.errors ?? []).map((e) => `Missed a scrape: ${e}`)];
    if (samples.truncated)
      findings.push("k6's raw samples end early (k6 was stopped mid-write): judged on what was read.");
    return extensionVerdict(this.name, {
      checks: judgement.checks,
      figures: withSeries({ ...figures, rules: { ...rules } }, soakSeries(judgement.figures)),
      findings,
    });
  }

  async stop(): Promise<void> {
    await this.#scraper?.stop();
  }
}
