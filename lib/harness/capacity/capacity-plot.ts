/**
 * capacity.svg: achieved throughput and p95 latency against the offered rate, one panel each over the same x axis,
 * with the ideal line (achieved = offered), the latency SLO and the knee marked. A plain SVG file, so it opens in
 * any browser and can be attached to a capacity report as it is.
 *
 * capacityReportPlot: the same panels as chart data for report.html (extension-plots.ts), with a caption naming the
 * knee and the safe operating rate.
 */
import type { ExtensionPlot } from "../reports/extension-plots.ts";
import { escapeXml as esc } from "../reports/svg-chart.ts";
import type { CapacityAnalysis, StepFigures } from "./capacity-analysis.ts";

const W = 720;
const PANEL = 220;
const M = { left: 64, right: 16, top: 34, gap: 56, bottom: 40 };

function fmt(v: number): string {
  return String(Number(v.toPrecision(3)));
}

function niceTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const m = max / power;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power;
}

interface Panel {
  title: string;
  top: number;
  yMax: number;
  lines: { name: string; color: string; dash?: string; points: [number, number][] }[];
}

export function capacityPlot(analysis: CapacityAnalysis, latencySloMs: number): string {
  const steps = analysis.steps;
  const xMax = niceTop(Math.max(1, ...steps.map((s) => s.offeredPerSecond)));
  const plotW = W - M.left - M.right;
  const x = (v: number) => M.left + (v / xMax) * plotW;
  const height = M.top + 2 * PANEL + M.gap + M.bottom;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${String(W)} ${String(height)}" width="${String(W)}" height="${String(height)}" font-family="system-ui,sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
  ];
  for (const p of capacityPanels(steps, latencySloMs, xMax)) parts.push(...panelSvg(p, x, xMax, analysis.knee));
  parts.push(
    `<text x="${String(M.left + plotW)}" y="${String(height - 8)}" text-anchor="end" fill="#555">offered load, requests/s${
      analysis.knee
        ? ` (knee ${analysis.knee.offeredPerSecond.toFixed(0)}/s offered, ${analysis.knee.throughputPerSecond.toFixed(0)}/s achieved)`
        : " (no step within SLO)"
    }</text>`,
    "</svg>",
  );
  return `${parts.join("\n")}\n`;
}

/** The two panels: achieved against offered throughput (with the ideal line), p95 latency (with the SLO). */
function capacityPanels(steps: readonly StepFigures[], latencySloMs: number, xMax: number): Panel[] {
  return [
    {
      title: "Achieved throughput (requests/s) against offered load",
      top: M.top,
      yMax: niceTop(Math.max(1, ...steps.map((s) => Math.max(s.throughputPerSecond, s.offeredPerSecond)))),
      lines: [
        { name: "achieved", color: "#1f77b4", points: steps.map((s) => [s.offeredPerSecond, s.throughputPerSecond]) },
        {
          name: "offered (ideal)",
          color: "#999",
          dash: "4 3",
          points: steps.map((s) => [s.offeredPerSecond, s.offeredPerSecond]),
        },
      ],
    },
    {
      title: "p95 latency (ms) against offered load",
      top: M.top + PANEL + M.gap,
      yMax: niceTop(Math.max(latencySloMs * 1.2, ...steps.map((s) => s.p95Ms))),
      lines: [
        { name: "p95", color: "#d62728", points: steps.map((s) => [s.offeredPerSecond, s.p95Ms]) },
        {
          name: `SLO ${String(latencySloMs)} ms`,
          color: "#999",
          dash: "4 3",
          points: [
            [0, latencySloMs],
            [xMax, latencySloMs],
          ],
        },
      ],
    },
  ];
}

/** One panel's SVG: title, grid and axis labels, its lines (points on the measured ones), the knee and a legend. */
function panelSvg(p: Panel, x: (v: number) => number, xMax: number, knee: CapacityAnalysis["knee"]): string[] {
  const plotW = W - M.left - M.right;
  const parts: string[] = [];
  const y = (v: number) => p.top + PANEL - (v / p.yMax) * PANEL;
  parts.push(
    `<text x="${String(M.left)}" y="${String(p.top - 10)}" font-size="13" font-weight="600">${esc(p.title)}</text>`,
  );
  for (let i = 0; i <= 4; i++) {
    const v = (p.yMax * i) / 4;
    parts.push(
      `<line x1="${String(M.left)}" x2="${String(M.left + plotW)}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#eee"/>`,
      `<text x="${String(M.left - 6)}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#555">${fmt(v)}</text>`,
    );
  }
  for (let i = 0; i <= 5; i++) {
    const v = (xMax * i) / 5;
    parts.push(
      `<text x="${x(v).toFixed(1)}" y="${String(p.top + PANEL + 14)}" text-anchor="middle" fill="#555">${fmt(v)}</text>`,
    );
  }
  for (const line of p.lines) {
    const pts = line.points.map(([a, b]) => `${x(a).toFixed(1)},${y(Math.min(b, p.yMax)).toFixed(1)}`).join(" ");
    parts.push(
      `<polyline fill="none" stroke="${line.color}" stroke-width="1.8"${line.dash ? ` stroke-dasharray="${line.dash}"` : ""} points="${pts}"><title>${esc(line.name)}</title></polyline>`,
    );
    if (!line.dash) {
      for (const [a, b] of line.points) {
        parts.push(
          `<circle cx="${x(a).toFixed(1)}" cy="${y(Math.min(b, p.yMax)).toFixed(1)}" r="2.5" fill="${line.color}"/>`,
        );
      }
    }
  }
  if (knee) {
    const kx = x(knee.offeredPerSecond).toFixed(1);
    parts.push(
      `<line x1="${kx}" x2="${kx}" y1="${String(p.top)}" y2="${String(p.top + PANEL)}" stroke="#2ca02c" stroke-dasharray="2 2"/>`,
    );
  }
  const legend = [
    ...p.lines.map((l) => ({ name: l.name, color: l.color })),
    ...(knee ? [{ name: "knee", color: "#2ca02c" }] : []),
  ];
  legend.forEach((l, i) => {
    const lx = M.left + plotW - 150;
    const ly = p.top + 12 + i * 14;
    parts.push(
      `<rect x="${String(lx)}" y="${String(ly - 7)}" width="12" height="3" fill="${l.color}"/><text x="${String(lx + 16)}" y="${String(ly)}" fill="#333">${esc(l.name)}</text>`,
    );
  });
  return parts;
}

/**
 * The capacity plot of report.html, saved in the extension's figures. Chart data rather than capacity.svg's text:
 * report.html draws it with its own chart code (svg-chart.ts), so it looks like the report's other plots, and
 * summary.json carries numbers and plain text, never markup to sanitise (`harness report` draws it again from them).
 */
type PlottedStep = Pick<StepFigures, "offeredPerSecond" | "throughputPerSecond" | "p95Ms">;

export function capacityReportPlot(
  analysis: { steps: readonly PlottedStep[]; knee: PlottedStep | undefined; safeOperatingRate: number | undefined },
  latencySloMs: number,
  safeShare: number,
): ExtensionPlot {
  const steps = analysis.steps;
  const knee = analysis.knee;
  const topOffered = Math.max(0, ...steps.map((s) => s.offeredPerSecond));
  const caption = knee
    ? `Knee: ${knee.offeredPerSecond.toFixed(0)}/s offered, ${knee.throughputPerSecond.toFixed(0)}/s achieved at p95 ${knee.p95Ms.toFixed(1)} ms (the highest step within the SLO table). ` +
      `Safe operating rate: ${(analysis.safeOperatingRate ?? 0).toFixed(0)}/s (${String(Math.round(safeShare * 100))}% of the knee's throughput). ` +
      "The same steps as capacity.svg and capacity.json."
    : "No knee: no step met the SLO table, so there is no safe operating rate (the service is over capacity at the lowest offered rate). " +
      "The same steps as capacity.svg and capacity.json.";
  return {
    title: "Capacity: throughput and p95 latency against offered load",
    caption,
    xUnit: "offered load, requests/s",
    panels: [
      {
        title: "Achieved throughput against offered load",
        yUnit: "requests/s",
        lines: [
          { name: "achieved", points: steps.map((s) => ({ x: s.offeredPerSecond, y: s.throughputPerSecond })) },
          {
            name: "offered (ideal)",
            reference: true,
            points: steps.map((s) => ({ x: s.offeredPerSecond, y: s.offeredPerSecond })),
          },
        ],
      },
      {
        title: "p95 latency against offered load",
        yUnit: "ms",
        lines: [
          { name: "p95", points: steps.map((s) => ({ x: s.offeredPerSecond, y: s.p95Ms })) },
          {
            name: `SLO p95 ${String(latencySloMs)} ms`,
            reference: true,
            points: [
              { x: 0, y: latencySloMs },
              { x: topOffered, y: latencySloMs },
            ],
          },
        ],
      },
    ],
    markers: knee ? [{ x: knee.offeredPerSecond, label: `knee ${knee.offeredPerSecond.toFixed(0)}/s offered` }] : [],
  };
}
