/**
 * A comparison as people read it: compare.md (tables ready for a pull-request comment), the verdict lines printed at
 * the end of `harness compare`, and the table rows report.html shows (compareRows, shared so both say the same).
 * compare.json, in the same run directory, is the comparison itself.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ComparedMetric, Comparison, MetricGroup, RunSide } from "./compare-runs.ts";

export const COMPARE_JSON = "compare.json";
export const COMPARE_MD = "compare.md";

/** The comparison saved in a run directory, or undefined when it has none. */
export async function readComparison(runDir: string): Promise<Comparison | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(runDir, COMPARE_JSON), "utf8");
  } catch {
    return undefined;
  }
  return JSON.parse(text) as Comparison;
}

export const GROUP_TITLES: Record<MetricGroup, string> = {
  latency: "Latency per endpoint",
  throughput: "Throughput per endpoint",
  "error rate": "Error rate per endpoint (5xx and unanswered)",
  "throttle rate": "Throttle rate per endpoint (429)",
  alternatives: "Alternatives accuracy",
  "webhook latency": "Webhook delivery latency",
  "webhook loss": "Webhook loss",
  soak: "Soak drift",
  capacity: "Capacity",
};

function signed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return x > 0 ? "+inf" : "-inf";
  return `${x >= 0 ? "+" : ""}${x.toFixed(digits)}`;
}

/** A change as people read it: +12.3% (relative) or +0.05 pt (a share, in percentage points). */
export function formatChange(m: Pick<ComparedMetric, "change" | "changeKind" | "unit">, x = m.change): string {
  if (m.changeKind === "relative") return `${signed(x * 100, 1)}%`;
  if (m.unit === "ratio") return `${signed(x * 100, 2)} pt`;
  return signed(x, 1);
}

export function formatValue(m: Pick<ComparedMetric, "unit">, v: number): string {
  if (m.unit === "ms") return `${v.toFixed(2)} ms`;
  if (m.unit === "ratio") return `${(v * 100).toFixed(2)}%`;
  if (m.unit === "requests per second") return `${v.toFixed(2)}/s`;
  return `${(v / (1024 * 1024)).toFixed(2)} MiB/min`;
}

/** The change's interval, or the rank test's p-value where a percentile had too few samples for one. */
export function formatInterval(m: ComparedMetric): string {
  if (m.interval) return `[${formatChange(m, m.interval.low)}, ${formatChange(m, m.interval.high)}]`;
  if (m.method === "rank-test" && m.pWorse !== undefined) return `rank test p(worse)=${m.pWorse.toFixed(3)}`;
  return "-";
}

/** The tolerance in the worse direction: +10.0% for a latency, -10.0% for a throughput, +0.10 pt for a share. */
export function formatTolerance(m: ComparedMetric): string {
  const t =
    m.changeKind === "relative"
      ? `${(m.tolerance * 100).toFixed(1)}%`
      : formatChange(m, m.tolerance).replace(/^\+/, "");
  return `${m.better === "lower" ? "+" : "-"}${t}`;
}

/** The columns of every comparison table (markdown and report.html). */
export const COLUMNS = ["metric", "baseline", "candidate", "change", "interval", "tolerance", "verdict"] as const;

/** One row per metric, as text cells in COLUMNS order. */
export function compareRow(m: ComparedMetric): string[] {
  const name =
    m.statistic === "figure" || m.statistic === "share" || m.statistic === "rate"
      ? m.subject
      : `${m.subject} ${m.statistic}`;
  return [
    name,
    formatValue(m, m.baseline),
    formatValue(m, m.candidate),
    formatChange(m),
    formatInterval(m),
    formatTolerance(m),
    m.verdict,
  ];
}

/** The metrics by group, in the order GROUP_TITLES lists the groups. */
export function metricsByGroup(c: Comparison): [MetricGroup, ComparedMetric[]][] {
  return (Object.keys(GROUP_TITLES) as MetricGroup[])
    .map((g): [MetricGroup, ComparedMetric[]] => [g, c.metrics.filter((m) => m.group === g)])
    .filter(([, ms]) => ms.length > 0);
}

export function describeSide(side: RunSide): string {
  const id = side.identity;
  const target = id.target.image ?? id.target.url ?? id.target.kind;
  return `run ${id.runId} (${id.scenarios.join("+")}, profile ${id.profile}${id.duration ? ` ${id.duration}` : ""}, target ${target}, ${side.seconds.toFixed(0)} s measured)`;
}

function counts(c: Comparison): string {
  const n = (v: ComparedMetric["verdict"]) => c.metrics.filter((m) => m.verdict === v).length;
  return `${String(n("regressed"))} regressed, ${String(n("improved"))} improved, ${String(n("no significant change"))} unchanged, ${String(n("not judged"))} not judged`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

/** Every note of a comparison: each metric's (why not judged, how long a run should be), then the run-level ones. */
export function comparisonNotes(c: Comparison): string[] {
  return [...c.metrics.filter((m) => m.note).map((m) => `${m.id}: ${m.note ?? ""}`), ...c.notes];
}

export function compareMarkdown(c: Comparison): string {
  const lines = [
    `## Release comparison: **${c.verdict}**`,
    "",
    `- baseline: ${describeSide(c.baseline)}`,
    `- candidate: ${describeSide(c.candidate)}`,
    `- ${counts(c)}; intervals at ${String(c.tolerances.confidence * 100)}% confidence`,
  ];
  for (const [group, metrics] of metricsByGroup(c)) {
    lines.push(
      "",
      `### ${GROUP_TITLES[group]}`,
      "",
      `| ${COLUMNS.join(" | ")} |`,
      `| ${COLUMNS.map(() => "---").join(" | ")} |`,
    );
    for (const m of metrics) {
      const row = compareRow(m);
      row[6] = m.verdict === "regressed" || m.verdict === "improved" ? `**${m.verdict}**` : m.verdict;
      lines.push(`| ${row.map(cell).join(" | ")} |`);
    }
  }
  const notes = comparisonNotes(c);
  if (notes.length) lines.push("", "### Notes", "", ...notes.map((n) => `- ${n}`));
  return `${lines.join("\n")}\n`;
}

/** What `harness compare` and `harness run --baseline` print: the changes, then one line of counts. */
export function compareVerdictLines(c: Comparison): string[] {
  const lines = c.metrics
    .filter((m) => m.verdict === "regressed" || m.verdict === "improved")
    .map(
      (m) =>
        `${m.verdict === "regressed" ? "REGRESSED" : "IMPROVED "} ${m.id}: ${formatValue(m, m.baseline)} -> ${formatValue(m, m.candidate)} (${formatChange(m)}, ${formatInterval(m)}, tolerance ${formatTolerance(m)})`,
    );
  for (const note of c.notes) lines.push(`NOTE  ${note}`);
  lines.push(`COMPARE ${c.verdict}: ${counts(c)}`);
  return lines;
}
