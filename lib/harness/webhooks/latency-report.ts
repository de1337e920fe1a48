/**
 * The webhook sink's piece of the reports (reports/report-pieces.ts): its delivery latency histogram drawn first among
 * report.html's plots with a table of percentiles per event type, or, where the run asked for the sink and no
 * histogram came back, a note saying so (the sink's own section says why); and its latency thresholds' unit.
 */
import { isScenarioName, scenarioSpec } from "../../contract/scenarios.ts";
import { seriesOf, type HistogramSeries } from "../reports/extension-series.ts";
import type { ExtensionReport, ReportedRun, ReportSection } from "../reports/report-pieces.ts";
import { WEBHOOK_LATENCY_SERIES } from "./latency-series.ts";
import { WEBHOOK_SINK_EXTENSION } from "./types.ts";
import { WEBHOOK_METRICS } from "./verdict.ts";

/** Whether the run asked for the webhook sink (it ran, was skipped, or a scenario of the run needs it). */
function askedForWebhooks(run: ReportedRun): boolean {
  return (
    // A summary names the scenarios its run knew: a name this version does not know needs no sink here.
    run.run.scenarios.some((s) => isScenarioName(s) && scenarioSpec(s).extensions.includes("webhooks")) ||
    run.extensions.some((e) => e.name === WEBHOOK_SINK_EXTENSION) ||
    (run.skipped ?? []).some((s) => s.name === WEBHOOK_SINK_EXTENSION)
  );
}

function latencySections(run: ReportedRun): ReportSection[] {
  // From whichever extension reports the series (the sink, or one that replays its log).
  for (const e of run.extensions) {
    const series = seriesOf(e).series.find(
      (s): s is HistogramSeries => s.type === "histogram" && s.name === WEBHOOK_LATENCY_SERIES,
    );
    if (series === undefined) continue;
    return [
      {
        kind: "histogram",
        series,
        title: `Webhook delivery latency (${e.name})`,
        yUnit: "deliveries",
        xUnit: "seconds, bucket upper bound; all event types",
        emptyText: "no webhook delivery was timed in this run",
        breakdown: { label: "type", header: "event type", countHeader: "timed deliveries", unit: "s" },
      },
    ];
  }
  // Only where the run asked for webhooks: elsewhere the missing distribution is no news.
  if (!askedForWebhooks(run)) return [];
  return [
    {
      kind: "note",
      text: `Webhook latency distribution: the webhook sink reported no ${WEBHOOK_LATENCY_SERIES} in this run (see its section below for why).`,
    },
  ];
}

export const webhookSinkReport: ExtensionReport = {
  extension: WEBHOOK_SINK_EXTENSION,
  // Delivery latency thresholds (p(95)<2000) are in milliseconds, as k6's are.
  millisecondMetrics: [WEBHOOK_METRICS.latency],
  sections: latencySections,
};
