/**
 * fit-report.html: the fit beside what the logs showed, so a reader can judge it: persona shares, per persona the
 * think-time histogram against its fitted log-normal (with the KS distance), the arrival curve, the endpoint mix,
 * the choice of k and the malformed lines. Charts are the run report's (svg-chart.ts).
 */
import type { FittedPersona } from "../../contract/fitted-traffic.ts";
import { barChart, escapeXml as esc, lineChart } from "../reports/svg-chart.ts";
import type { FitResult } from "./fit-traffic.ts";
import { lognormalCdf } from "./think-time-fit.ts";

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px 24px;color:#1b1b1b}
h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}table{border-collapse:collapse;margin:6px 0 12px}
th,td{border-bottom:1px solid #eee;padding:3px 8px;text-align:left}.chart-title{font-size:13px;font-weight:600}
.tick{font-size:11px;fill:#555}.grid{stroke:#eee}.axis{stroke:#999}.legend .key{margin-right:12px}
.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}`;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function table(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const th = head.map((h) => `<th>${esc(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(String(c))}</td>`).join("")}</tr>`).join("");
  return `<table><tr>${th}</tr>${body}</table>`;
}

/** Observed share of gaps per bin against the fitted log-normal's, over bins up to the 99th percentile. */
function thinkChart(persona: FittedPersona, sample: readonly number[]): string {
  const t = persona.thinkTime;
  const sorted = [...sample].sort((a, b) => a - b);
  const top = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
  const bins = 30;
  const width = top / bins;
  const observed = new Array<number>(bins).fill(0);
  for (const x of sorted) {
    if (width <= 0 || x > top) continue;
    const bin = Math.min(bins - 1, Math.floor(x / width));
    observed[bin] = (observed[bin] ?? 0) + 1;
  }
  const point = (i: number, y: number) => ({ x: (i + 0.5) * width, y });
  const fitted = observed.map((_, i) =>
    point(i, lognormalCdf((i + 1) * width, t.mu, t.sigma) - lognormalCdf(i * width, t.mu, t.sigma)),
  );
  return lineChart(
    [
      { name: "observed", points: observed.map((n, i) => point(i, n / Math.max(1, sorted.length))) },
      { name: `fitted log-normal (KS ${t.ksStatistic})`, points: fitted, reference: true },
    ],
    {
      title: `${persona.name}: think time between calls`,
      yUnit: "share of gaps per bin",
      xUnit: "seconds",
      emptyText: "no think times (back-to-back calls only)",
    },
  );
}

export function fitReportHtml(result: FitResult, outFile: string): string {
  const { fitted, counts, clustering } = result;
  const personas = fitted.personas.map((p) => [
    p.name,
    pct(p.share),
    p.sessions,
    p.meanCalls,
    p.thinkTime.observedMedianSeconds,
    p.thinkTime.medianSeconds,
    p.thinkTime.sigma,
    p.thinkTime.ksStatistic,
    pct(p.thinkTime.immediateShare ?? 0),
  ]);
  const arrival = fitted.arrival;
  const curve = arrival.sessionsPerSecond.map((y, i) => ({ x: (i * arrival.bucketSeconds) / 3600, y }));
  const mix = Object.entries(fitted.endpointMix).map(([label, value]) => ({ label, value: value * 100 }));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>atd-harness model fit</title><style>${CSS}</style></head><body>
<h1>Traffic model fitted from access logs</h1>
${table(
  ["", ""],
  [
    ["model file", outFile],
    ["logs", fitted.source.files.join(", ")],
    ["lines", counts.lines],
    [
      "malformed lines",
      `${counts.malformed}${counts.malformedExamples.length ? ` (e.g. ${counts.malformedExamples.join(", ")})` : ""}`,
    ],
    ["requests of the partner API", counts.kept],
    [
      "sessions",
      `${fitted.source.sessions} (at most ${result.peakOpenSessions} open at once; ${result.unclustered} unclustered)`,
    ],
    [
      "keys",
      `${fitted.keySkew.keys} (top tenth: ${pct(fitted.keySkew.topDecileShare)} of requests, Gini ${fitted.keySkew.gini})`,
    ],
    [
      "booking conversion",
      `created per session ${fitted.conversion.createdPerSession}, confirmed per created ${fitted.conversion.confirmedPerCreated}, cancelled per created ${fitted.conversion.cancelledPerCreated}`,
    ],
    ["429 share of rate-limited requests", pct(fitted.throttledShare)],
  ],
)}
<h2>Personas</h2>
<p>k = ${clustering.k} clusters (k-means; the k of the best silhouette: ${clustering.tried.map((t) => `k=${t.k}: ${t.silhouette}`).join(", ") || "one kind of session only"}); clusters that are one built-in journey are merged under its name.</p>
${table(["persona", "share", "sessions", "calls per session", "observed median think (s)", "fitted median (s)", "sigma", "KS", "back-to-back gaps"], personas)}
${fitted.personas.map((p, i) => thinkChart(p, result.thinkSamples[i] ?? [])).join("\n")}
<h2>Arrival of sessions</h2>
${lineChart([{ name: "sessions per second", points: curve }], { title: `Sessions started per second, per ${arrival.bucketSeconds} s from ${arrival.start}`, yUnit: "sessions/s", xUnit: "hours since the first bucket" })}
<h2>Endpoint mix</h2>
${barChart(mix, { title: "Share of requests per endpoint", yUnit: "%" })}
</body></html>
`;
}
