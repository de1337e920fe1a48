/**
 * capacity.svg: achieved throughput and p95 latency against the offered rate, one panel each over the same x axis,
 * with the ideal line (achieved = offered), the latency SLO and the knee marked. A plain SVG file, so it opens in
 * any browser and can be attached to a capacity report as it is.
 */
import { escapeXml as esc } from "../reports/svg-chart.ts";
import type { CapacityAnalysis } from "./capacity-analysis.ts";

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
  const panels: Panel[] = [
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
  const height = M.top + 2 * PANEL + M.gap + M.bottom;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${String(W)} ${String(height)}" width="${String(W)}" height="${String(height)}" font-family="system-ui,sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
  ];
  for (const p of panels) {
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
    if (analysis.knee) {
      const kx = x(analysis.knee.offeredPerSecond).toFixed(1);
      parts.push(
        `<line x1="${kx}" x2="${kx}" y1="${String(p.top)}" y2="${String(p.top + PANEL)}" stroke="#2ca02c" stroke-dasharray="2 2"/>`,
      );
    }
    const legend = [
      ...p.lines.map((l) => ({ name: l.name, color: l.color })),
      ...(analysis.knee ? [{ name: "knee", color: "#2ca02c" }] : []),
    ];
    legend.forEach((l, i) => {
      const lx = M.left + plotW - 150;
      const ly = p.top + 12 + i * 14;
      parts.push(
        `<rect x="${String(lx)}" y="${String(ly - 7)}" width="12" height="3" fill="${l.color}"/><text x="${String(lx + 16)}" y="${String(ly)}" fill="#333">${esc(l.name)}</text>`,
      );
    });
  }
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
