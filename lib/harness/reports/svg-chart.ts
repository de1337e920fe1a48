/**
 * Small inline-SVG charts for report.html: a line chart over time and a bar chart. Plain strings, no script and no
 * dependency, so the report opens offline in any browser and renders the same bytes every time.
 */
import type { PlotSeries } from "./timeline.ts";

export const PALETTE = [
  "#1f77b4",
  "#ff7f0e",
  "#2ca02c",
  "#d62728",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#bcbd22",
  "#17becf",
];

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A round step (1, 2 or 5 times a power of ten) giving about `count` ticks up to max. */
function niceStep(max: number, count: number): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power;
}

function fmt(value: number): string {
  return String(Number(value.toPrecision(4)));
}

export interface ChartOptions {
  title: string;
  /** Unit of the y axis, shown after the title. */
  yUnit: string;
  xUnit?: string;
  /** What the chart says when there is nothing to draw. */
  emptyText?: string;
  width?: number;
  height?: number;
  /** Vertical lines at x (line charts), each with a key in the legend: e.g. the capacity knee. */
  markers?: readonly { x: number; label: string }[];
}

/** A line of a line chart; a reference line (the ideal, an SLO bound) is drawn grey and dashed. */
export interface ChartSeries extends PlotSeries {
  reference?: boolean;
}

const REFERENCE_COLOR = "#999";
const MARKER_COLOR = "#2ca02c";

const M = { left: 56, right: 12, top: 28, bottom: 36 };

/** The SVG plus its legend as HTML below it (a legend inside the SVG would collide with the axis labels). */
function frame(options: ChartOptions, body: string, legend: string): string {
  const width = options.width ?? 720;
  const height = options.height ?? 260;
  return [
    `<figure class="chart"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${String(width)} ${String(height)}" width="${String(width)}" height="${String(height)}" role="img" aria-label="${escapeXml(options.title)}">`,
    `<text x="${String(M.left)}" y="16" class="chart-title">${escapeXml(options.title)} (${escapeXml(options.yUnit)})</text>`,
    body,
    "</svg>",
    legend ? `<figcaption class="legend">${legend}</figcaption>` : "",
    "</figure>",
  ].join("");
}

function empty(options: ChartOptions, why: string): string {
  const width = options.width ?? 720;
  const height = options.height ?? 260;
  return frame(
    options,
    `<text x="${String(width / 2)}" y="${String(height / 2)}" text-anchor="middle" class="chart-empty">${escapeXml(why)}</text>`,
    "",
  );
}

function yAxis(maxY: number, plotH: number, plotW: number): { svg: string; top: number } {
  const step = niceStep(maxY || 1, 5);
  const top = Math.max(step, Math.ceil((maxY || 1) / step) * step);
  const parts: string[] = [];
  for (let v = 0; v <= top + step / 2; v += step) {
    const y = M.top + plotH - (v / top) * plotH;
    parts.push(
      `<line x1="${String(M.left)}" x2="${String(M.left + plotW)}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" class="grid"/>`,
      `<text x="${String(M.left - 6)}" y="${(y + 4).toFixed(1)}" text-anchor="end" class="tick">${fmt(v)}</text>`,
    );
  }
  return { svg: parts.join(""), top };
}

/** One line per series over x (seconds since the run started, unless options.xUnit says otherwise). */
export function lineChart(series: readonly ChartSeries[], options: ChartOptions): string {
  const points = series.flatMap((s) => s.points);
  if (points.length === 0) return empty(options, options.emptyText ?? "no samples in this run");
  const width = options.width ?? 720;
  const height = options.height ?? 260;
  const plotW = width - M.left - M.right;
  const plotH = height - M.top - M.bottom;
  const markers = options.markers ?? [];
  const maxX = Math.max(1, ...points.map((p) => p.x), ...markers.map((m) => m.x));
  const { svg: grid, top } = yAxis(Math.max(...points.map((p) => p.y)), plotH, plotW);
  const xStep = niceStep(maxX, 6);
  const xTicks: string[] = [];
  for (let v = 0; v <= maxX + 1e-9; v += xStep) {
    const x = M.left + (v / maxX) * plotW;
    // A tick on the right edge ends there: centred, its label would run past the chart and be cut off.
    const anchor = x > M.left + plotW - 12 ? "end" : "middle";
    xTicks.push(
      `<text x="${x.toFixed(1)}" y="${String(M.top + plotH + 16)}" text-anchor="${anchor}" class="tick">${fmt(v)}</text>`,
    );
  }
  xTicks.push(
    `<text x="${String(M.left + plotW)}" y="${String(height - 4)}" text-anchor="end" class="tick">${escapeXml(options.xUnit ?? "seconds since the run started")}</text>`,
  );
  // Measured lines take the palette in order; reference lines are grey and take no colour from it.
  let measured = 0;
  const colors = series.map((s) => (s.reference ? REFERENCE_COLOR : (PALETTE[measured++ % PALETTE.length] ?? "#000")));
  const lines = series.map((s, i) => {
    const color = colors[i] ?? "#000";
    const d = s.points
      .map((p) => `${(M.left + (p.x / maxX) * plotW).toFixed(1)},${(M.top + plotH - (p.y / top) * plotH).toFixed(1)}`)
      .join(" ");
    const dots =
      s.points.length === 1
        ? `<circle cx="${d.split(",")[0] ?? "0"}" cy="${d.split(",")[1] ?? "0"}" r="3" fill="${color}"/>`
        : "";
    // Past the palette's ten colours, dashes tell the lines apart.
    const dash = s.reference ? ' stroke-dasharray="4 3"' : i >= PALETTE.length ? ' stroke-dasharray="5 3"' : "";
    return `<polyline fill="none" stroke="${color}" stroke-width="1.5"${dash} points="${d}"><title>${escapeXml(s.name)}</title></polyline>${dots}`;
  });
  const marks = markers.map((m) => {
    const x = (M.left + (m.x / maxX) * plotW).toFixed(1);
    return `<line x1="${x}" x2="${x}" y1="${String(M.top)}" y2="${String(M.top + plotH)}" stroke="${MARKER_COLOR}" stroke-width="1.5" stroke-dasharray="2 2"><title>${escapeXml(m.label)}</title></line>`;
  });
  const legend = [
    ...series.map(
      (s, i) => `<span class="key"><i style="background:${colors[i] ?? "#000"}"></i>${escapeXml(s.name)}</span>`,
    ),
    ...markers.map((m) => `<span class="key"><i style="background:${MARKER_COLOR}"></i>${escapeXml(m.label)}</span>`),
  ].join("");
  return frame(
    options,
    `${grid}<line x1="${String(M.left)}" x2="${String(M.left)}" y1="${String(M.top)}" y2="${String(M.top + plotH)}" class="axis"/>${xTicks.join("")}${lines.join("")}${marks.join("")}`,
    legend,
  );
}

export interface Bar {
  label: string;
  value: number;
}

/** Vertical bars, one per label, in the order given (e.g. histogram buckets). */
export function barChart(bars: readonly Bar[], options: ChartOptions): string {
  if (bars.length === 0 || bars.every((b) => b.value === 0)) return empty(options, options.emptyText ?? "no observations in this run");
  const width = options.width ?? 720;
  const height = options.height ?? 260;
  const plotW = width - M.left - M.right;
  const plotH = height - M.top - M.bottom;
  const { svg: grid, top } = yAxis(Math.max(...bars.map((b) => b.value)), plotH, plotW);
  const slot = plotW / bars.length;
  const body = bars.map((b, i) => {
    const h = (b.value / top) * plotH;
    const x = M.left + i * slot;
    return [
      `<rect x="${(x + slot * 0.1).toFixed(1)}" y="${(M.top + plotH - h).toFixed(1)}" width="${(slot * 0.8).toFixed(1)}" height="${h.toFixed(1)}" fill="${PALETTE[0] ?? "#000"}"><title>${escapeXml(`${b.label}: ${fmt(b.value)}`)}</title></rect>`,
      `<text x="${(x + slot / 2).toFixed(1)}" y="${String(M.top + plotH + 16)}" text-anchor="middle" class="tick">${escapeXml(b.label)}</text>`,
    ].join("");
  });
  const xUnit = options.xUnit
    ? `<text x="${String(M.left + plotW)}" y="${String(height - 4)}" text-anchor="end" class="tick">${escapeXml(options.xUnit)}</text>`
    : "";
  return frame(options, `${grid}${body.join("")}${xUnit}`, "");
}
