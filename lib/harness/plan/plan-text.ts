/** The lines `harness run --dry-run` prints for a request estimate (request-estimate.ts). */
import { ENDPOINTS, RATE_LIMIT } from "../../contract/index.ts";
import {
  endpointsOf,
  type EndpointCounts,
  type KeyLoad,
  type RequestEstimate,
  type ScenarioEstimate,
} from "./request-estimate.ts";

/** Whole requests: an expected count has fractions, a plan reads better without them. */
const count = (n: number) => Math.round(n).toLocaleString("en-US");
const rate = (n: number) => (n >= 10 ? n.toFixed(1) : n.toFixed(2));

function seconds(s: number): string {
  if (s < 120) return `${String(s)} s`;
  const minutes = s / 60;
  return minutes < 120 ? `${minutes.toFixed(minutes % 1 ? 1 : 0)} min` : `${(minutes / 60).toFixed(1)} h`;
}

function table(s: ScenarioEstimate): string[] {
  const all: EndpointCounts = { ...s.setup };
  for (const [e, n] of Object.entries(s.load))
    all[e as keyof EndpointCounts] = (all[e as keyof EndpointCounts] ?? 0) + n;
  const rows = endpointsOf(all).map((e) => [
    `${e}${ENDPOINTS[e].rateLimited ? " *" : ""}`,
    count(s.setup[e] ?? 0),
    count(s.load[e] ?? 0),
    rate(s.ratePerSecond[e] ?? 0),
  ]);
  const head = ["endpoint", "setup", "iterations", "rate/s"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    `    ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ")}`;
  return [line(head), ...rows.map(line)];
}

function keyLine(k: KeyLoad): string {
  const over = k.peakPerMinute > k.limitPerMinute ? " (ABOVE the allowance: expect 429s)" : "";
  return `  per key (${String(k.keys)} keys), * endpoints sharing the ${String(k.limitPerMinute)}/min allowance: mean ${rate(k.meanPerMinute)}/min, peak ${rate(k.peakPerMinute)}/min${over}; setup about ${rate(k.setupPerKey)} per key before the iterations`;
}

function scenarioLines(s: ScenarioEstimate): string[] {
  if (s.notEstimated !== undefined || s.total === undefined || s.seconds === undefined) {
    const schedule =
      s.seconds !== undefined && s.iterations !== undefined
        ? ` ${seconds(s.seconds)}, ${count(s.iterations)} iterations scheduled (${rate(s.peakIterationsPerSecond ?? 0)}/s);`
        : "";
    return [
      `scenario ${s.scenario}:${schedule} requests not estimated: ${s.notEstimated ?? "no plan"}`,
      ...s.notes.map((note) => `  note: ${note}`),
    ];
  }
  const setup = Object.values(s.setup).reduce((a, b) => a + b, 0);
  const lines = [
    `scenario ${s.scenario}: profile ${s.profile ?? "none"}, ${seconds(s.seconds)}, ${count(s.iterations ?? 0)} iterations (peak ${rate(s.peakIterationsPerSecond ?? 0)}/s)`,
    `  requests: about ${count(s.total)} (setup ${count(setup)}, iterations ${count(s.total - setup)}), ${rate((s.total - setup) / Math.max(s.seconds, 1))}/s on average`,
    ...table(s),
  ];
  if (s.perKey) lines.push(keyLine(s.perKey));
  const b = s.bookings;
  if (b) {
    lines.push(
      `  bookings: about ${count(b.created)} created, ${count(b.confirmed)} confirmed, ${count(b.cancelled)} cancelled, ${count(b.leftReserved)} left reserved (they expire after five days)`,
    );
  }
  for (const note of s.notes) lines.push(`  note: ${note}`);
  return lines;
}

/** Per scenario: duration, iterations, requests, the per-endpoint table and the per-key figures; then the total. */
export function requestEstimateLines(estimate: RequestEstimate): string[] {
  const lines = estimate.scenarios.flatMap(scenarioLines);
  const left = estimate.notEstimated.length
    ? ` (not counting ${estimate.notEstimated.map((n) => n.scenario).join(", ")})`
    : "";
  for (const pool of estimate.keyPools.filter((p) => p.scenarios.length > 1)) {
    lines.push(
      `keys shared by ${pool.scenarios.join(", ")} (${String(pool.keys)}): together mean ${rate(pool.meanPerMinute)}/min, peak at most ${rate(pool.peakPerMinute)}/min per key of the ${String(pool.limitPerMinute)}/min allowance${pool.peakPerMinute > pool.limitPerMinute ? " (ABOVE the allowance: expect 429s)" : ""}`,
    );
  }
  lines.push(`requests in all: about ${count(estimate.total)}${left}`);
  lines.push(`catalogue: ${estimate.catalogue.source}`);
  lines.push(
    "not counted: what runs beside k6 sends (churn's changes, the webhook sink's probe, cleanup after the run)",
  );
  lines.push(
    `expected values: a real run differs by what the service answers (in a short run also by a few iterations' worth of the persona mix), by dropped iterations and by 429s (allowance ${String(RATE_LIMIT.limit)} per ${String(RATE_LIMIT.windowSeconds)} s per key)`,
  );
  return lines;
}
