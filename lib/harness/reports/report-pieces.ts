/**
 * What an extension adds to the reports beyond its own verdict (which every report renders alike for all of them):
 * marks on the run's verdicts before summary.json is written, a note on a failure in the verdict table, and sections
 * of its own at the top of report.html's plots. The reports render these pieces generically and name no extension; each extension declares its pieces beside
 * its code, and lib/harness/extension-reports.ts lists them. Pieces read only the summary, so `harness report` renders
 * them again from summary.json without the extension running.
 */
import type { ExtensionVerdict } from "../run-extension.ts";
import type { CheckVerdict, ScenarioVerdict, ThresholdVerdict } from "../verdict.ts";
import type { HistogramSeries } from "./extension-series.ts";

/** The part of a run's summary the pieces read (structural: summary.ts imports the pieces). */
export interface ReportedRun {
  run: { scenarios: readonly string[] };
  scenarios: readonly ScenarioVerdict[];
  extensions: readonly ExtensionVerdict[];
  skipped?: readonly { kind: string; name: string }[];
}

/** A histogram drawn as a bar chart under its own title, optionally with a table of percentiles per label value. */
export interface FeaturedHistogram {
  kind: "histogram";
  /** The series as seriesOf read it: report.html leaves it out of the plain histograms it draws after. */
  series: HistogramSeries;
  title: string;
  yUnit: string;
  xUnit: string;
  emptyText: string;
  /** Per value of `label` (samples without it: "(all)"): the count and p50, p95, p99 and max in `unit`. */
  breakdown?: { label: string; header: string; countHeader: string; unit: string };
}

/** A line of text drawn as a note (say what is missing where the reader expects something). */
export interface ReportNote {
  kind: "note";
  text: string;
}

export type ReportSection = FeaturedHistogram | ReportNote;

export interface ExtensionReport {
  /** The extension's name, as its verdict carries it. */
  readonly extension: string;
  /** Metrics of its thresholds that hold milliseconds without saying so in their name (`_ms`): shown and exported as such. */
  readonly millisecondMetrics?: readonly string[];
  /** Marks on the run's verdicts, set before summary.json is written so every report shows them alike. */
  annotate?(run: ReportedRun): void;
  /** What the verdict table adds after a scenario's failed check or threshold (with its leading space), or "". */
  failureNote?(item: CheckVerdict | ThresholdVerdict): string;
  /** Sections report.html draws first among its plots, before the histograms no extension features. */
  sections?(run: ReportedRun): ReportSection[];
}
