/**
 * How an extension (capacity search, soak drift...) puts a plot of its own into report.html. The plot travels inside
 * ExtensionVerdict.figures under the key "plots", as chart data, so it is saved in summary.json and `harness report`
 * draws it again without the extension running.
 *
 *     import { withPlots } from "./reports/extension-plots.ts";
 *     return extensionVerdict("capacity", {
 *       checks,
 *       figures: withPlots({ knee: 1600 }, [
 *         { title: "Capacity", caption: "Knee at 1600/s offered.", xUnit: "offered load, requests/s",
 *           panels: [{ title: "Achieved throughput", yUnit: "requests/s",
 *                      lines: [{ name: "achieved", points: [{ x: 100, y: 99 }, { x: 200, y: 198 }] },
 *                              { name: "offered (ideal)", reference: true, points: [{ x: 100, y: 100 }, { x: 200, y: 200 }] }] }],
 *           markers: [{ x: 1600, label: "knee 1600/s" }] },
 *       ]),
 *     });
 *
 * Data, not SVG, on purpose: report.html draws every plot with the same code (svg-chart.ts) as its own charts, so
 * they look alike, and a plot cannot carry markup: every text is escaped when drawn and every number is checked
 * finite when read back, so a summary.json edited by hand (or by a buggy extension) cannot put script into the page.
 * Each panel is one chart over the plot's shared x axis; the caption (plain text) says what to read off it.
 */
import { isRecord } from "../../contract/index.ts";
import type { ExtensionVerdict } from "../run-extension.ts";

export interface PlotPoint {
  x: number;
  y: number;
}

export interface PlotLine {
  name: string;
  points: readonly PlotPoint[];
  /** A line to compare against (the ideal, an SLO bound), not a measurement: drawn grey and dashed. */
  reference?: boolean;
}

export interface PlotPanel {
  title: string;
  yUnit: string;
  lines: readonly PlotLine[];
}

export interface ExtensionPlot {
  title: string;
  /** Plain text under the plot: what it shows and the figures to read off it. */
  caption: string;
  xUnit: string;
  /** One chart each, over the same x axis. */
  panels: readonly PlotPanel[];
  /** Vertical lines drawn on every panel (e.g. the capacity knee). */
  markers?: readonly { x: number; label: string }[];
}

/** The figures key the plots live under. */
export const PLOTS_FIGURE = "plots";

/** Points per line read back: summary.json carries them, and a plot of more says nothing more. */
export const MAX_PLOT_POINTS = 5000;

/** Adds plots to an extension's figures (keeps the figures JSON-serialisable). */
export function withPlots(figures: Record<string, unknown>, plots: readonly ExtensionPlot[]): Record<string, unknown> {
  const existing = Array.isArray(figures[PLOTS_FIGURE]) ? (figures[PLOTS_FIGURE] as unknown[]) : [];
  return { ...figures, [PLOTS_FIGURE]: [...existing, ...plots] };
}

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const text = (v: unknown): v is string => typeof v === "string";

function lineProblem(line: unknown): string | undefined {
  if (!isRecord(line)) return "a line is not an object";
  if (!text(line.name)) return "a line has no name";
  if (line.reference !== undefined && typeof line.reference !== "boolean") {
    return `line ${line.name}: reference is not true or false`;
  }
  if (!Array.isArray(line.points)) return `line ${line.name}: points is not a list`;
  if (line.points.length > MAX_PLOT_POINTS) {
    return `line ${line.name}: ${String(line.points.length)} points, more than ${String(MAX_PLOT_POINTS)}`;
  }
  const bad = (line.points as unknown[]).some((p) => !isRecord(p) || !finite(p.x) || !finite(p.y) || p.x < 0);
  return bad ? `line ${line.name}: a point is not {x, y} with finite numbers and x >= 0` : undefined;
}

function plotProblem(plot: unknown): string | undefined {
  if (!isRecord(plot)) return "not an object";
  if (!text(plot.title) || plot.title.length === 0) return "title is missing";
  if (!text(plot.caption)) return "caption is not text";
  if (!text(plot.xUnit)) return "xUnit is not text";
  if (!Array.isArray(plot.panels) || plot.panels.length === 0) return "panels is not a list of at least one panel";
  for (const panel of plot.panels as unknown[]) {
    if (!isRecord(panel) || !text(panel.title) || !text(panel.yUnit)) return "a panel has no title or yUnit";
    if (!Array.isArray(panel.lines)) return `panel ${panel.title}: lines is not a list`;
    for (const line of panel.lines as unknown[]) {
      const problem = lineProblem(line);
      if (problem) return `panel ${panel.title}: ${problem}`;
    }
  }
  if (plot.markers !== undefined) {
    if (!Array.isArray(plot.markers)) return "markers is not a list";
    for (const m of plot.markers as unknown[]) {
      if (!isRecord(m) || !finite(m.x) || m.x < 0 || !text(m.label)) return "a marker is not {x >= 0, label}";
    }
  }
  return undefined;
}

/**
 * The valid plots of an extension's verdict (read back from summary.json, so checked), and a line for each one left
 * out: a malformed plot is reported, never dropped silently.
 */
export function plotsOf(verdict: ExtensionVerdict): { plots: ExtensionPlot[]; problems: string[] } {
  const raw = verdict.figures[PLOTS_FIGURE];
  if (raw === undefined) return { plots: [], problems: [] };
  if (!Array.isArray(raw)) return { plots: [], problems: [`${verdict.name}: figures.plots is not a list`] };
  const plots: ExtensionPlot[] = [];
  const problems: string[] = [];
  for (const [i, p] of (raw as unknown[]).entries()) {
    const problem = plotProblem(p);
    const title = isRecord(p) && text(p.title) && p.title ? p.title : `#${String(i)}`;
    if (problem) problems.push(`${verdict.name}: plot ${title} left out: ${problem}`);
    else plots.push(p as ExtensionPlot);
  }
  return { plots, problems };
}
