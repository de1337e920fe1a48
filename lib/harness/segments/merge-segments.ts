/**
 * Joins what the runners of a split scenario left into what one k6 process would have left, so the ordinary verdict
 * code (verdict.ts) judges it: the raw samples concatenated (gzip members may follow each other), the logs
 * concatenated, and one end-of-test summary whose metrics are recomputed from the merged samples and whose
 * thresholds are evaluated once on them (k6 evaluates them per runner only). Checks are summed by name.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { isRecord } from "../../contract/index.ts";
import { readRawSamples } from "../reports/raw-samples.ts";
import { evaluateThreshold, metricValues, parseMetricName, type MetricType } from "./thresholds.ts";

const TREND_STATS = ["avg", "min", "med", "max", "p(90)", "p(95)", "p(99)", "count"];
/** Metrics the verdict reads besides those with thresholds. */
const VERDICT_METRICS = new Set(["http_reqs", "iterations", "dropped_iterations", "atd_throttles", "checks"]);
const ENDPOINT_SUBMETRIC = /^http_req_duration\{endpoint:\w+\}$/;

interface CheckCount {
  name: string;
  passes: number;
  fails: number;
}

function collectChecks(group: unknown, into: Map<string, CheckCount>): void {
  if (!isRecord(group)) return;
  for (const c of Array.isArray(group.checks) ? group.checks : []) {
    if (!isRecord(c) || typeof c.name !== "string") continue;
    const known = into.get(c.name) ?? { name: c.name, passes: 0, fails: 0 };
    known.passes += Number(c.passes) || 0;
    known.fails += Number(c.fails) || 0;
    into.set(c.name, known);
  }
  for (const g of Array.isArray(group.groups) ? group.groups : []) collectChecks(g, into);
}

interface MergedMetric {
  name: string;
  type: MetricType;
  base: string;
  tags: Record<string, string>;
  thresholds: string[];
  values: number[];
}

/** The metrics to recompute: every one with a threshold in any runner's summary, and those the verdict reads. */
function metricsToMerge(summaries: readonly Record<string, unknown>[]): Map<string, MergedMetric> {
  const metrics = new Map<string, MergedMetric>();
  for (const summary of summaries) {
    if (!isRecord(summary.metrics)) continue;
    for (const [name, m] of Object.entries(summary.metrics)) {
      if (!isRecord(m)) continue;
      const thresholds = isRecord(m.thresholds) ? Object.keys(m.thresholds) : [];
      if (thresholds.length === 0 && !VERDICT_METRICS.has(name) && !ENDPOINT_SUBMETRIC.test(name)) continue;
      const known = metrics.get(name);
      if (known) {
        for (const t of thresholds) if (!known.thresholds.includes(t)) known.thresholds.push(t);
        continue;
      }
      const { metric, tags } = parseMetricName(name);
      metrics.set(name, { name, type: m.type as MetricType, base: metric, tags, thresholds, values: [] });
    }
  }
  return metrics;
}

export interface MergedSummary {
  summary: Record<string, unknown>;
  samples: number;
  truncated: boolean;
}

/** Recomputes one summary from the runners' summaries and raw sample files. */
export async function mergeSummaries(
  summaries: readonly Record<string, unknown>[],
  rawFiles: readonly string[],
): Promise<MergedSummary> {
  const metrics = metricsToMerge(summaries);
  const byBase = new Map<string, MergedMetric[]>();
  for (const m of metrics.values()) byBase.set(m.base, [...(byBase.get(m.base) ?? []), m]);
  let first = Infinity;
  let last = -Infinity;
  let samples = 0;
  let truncated = false;
  for (const file of rawFiles) {
    const read = await readRawSamples(file, new Set(byBase.keys()), (s) => {
      first = Math.min(first, s.time);
      last = Math.max(last, s.time);
      for (const m of byBase.get(s.metric) ?? []) {
        if (Object.entries(m.tags).every(([k, v]) => s.tags[k] === v)) m.values.push(s.value);
      }
    });
    samples += read.samples;
    truncated ||= read.truncated;
  }
  const testSeconds = Number.isFinite(first) ? (last - first) / 1000 : 0;
  const out: Record<string, unknown> = {};
  for (const m of metrics.values()) {
    const stats = [...TREND_STATS, ...m.thresholds.map((t) => /^\s*(p\(\d+(?:\.\d+)?\))/.exec(t)?.[1] ?? "")];
    const values = metricValues(m.type, m.values, testSeconds, stats.filter(Boolean));
    const entry: Record<string, unknown> = { type: m.type, values };
    if (m.thresholds.length) {
      entry.thresholds = Object.fromEntries(m.thresholds.map((t) => [t, { ok: evaluateThreshold(t, values).ok }]));
    }
    out[m.name] = entry;
  }
  const checks = new Map<string, CheckCount>();
  for (const s of summaries) collectChecks(s.root_group, checks);
  return {
    summary: {
      merged: { runners: summaries.length },
      root_group: { name: "", path: "", checks: [...checks.values()], groups: [] },
      metrics: out,
    },
    samples,
    truncated,
  };
}

export async function readSummary(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as unknown;
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Concatenates files byte for byte (gzip members one after the other read back as one stream). */
export async function concatenateFiles(files: readonly string[], into: string): Promise<void> {
  const out = createWriteStream(into);
  for (const file of files) {
    await pipeline(createReadStream(file), out, { end: false }).catch(() => undefined);
  }
  await new Promise<void>((resolve) => out.end(resolve));
}

export async function writeMergedSummary(file: string, merged: MergedSummary): Promise<void> {
  await writeFile(file, JSON.stringify(merged.summary));
}
