/**
 * Reads k6's raw results (k6-raw-<scenario>.json.gz: k6's JSON output, one object per line, gzipped) as a stream,
 * so that a soak run's millions of samples never sit in memory at once. Only the points of the metrics asked for are
 * parsed; every other line is skipped by a cheap prefix test.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { isRecord } from "../../contract/index.ts";

export interface RawSample {
  metric: string;
  /** Milliseconds since the epoch. */
  time: number;
  value: number;
  tags: Record<string, string>;
}

/** The raw results file k6 writes for a scenario (lib/harness/run/run-k6.ts names it). */
export function rawResultsFile(scenario: string): string {
  return `k6-raw-${scenario}.json.gz`;
}

/**
 * Calls onSample for every point of the given metrics, in file order. A truncated file (k6 killed mid-write) ends
 * the stream early instead of failing: the samples read so far are still reported.
 */
export async function readRawSamples(
  file: string,
  metrics: ReadonlySet<string>,
  onSample: (sample: RawSample) => void,
): Promise<{ samples: number; truncated: boolean }> {
  const prefixes = [...metrics].map((m) => `{"metric":${JSON.stringify(m)},"type":"Point"`);
  const gunzip = createGunzip();
  const lines = createInterface({ input: createReadStream(file).pipe(gunzip), crlfDelay: Infinity });
  let samples = 0;
  let truncated = false;
  try {
    for await (const line of lines) {
      if (!prefixes.some((p) => line.startsWith(p))) continue;
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        truncated = true;
        continue;
      }
      if (!isRecord(entry) || !isRecord(entry.data) || typeof entry.metric !== "string") continue;
      const { time, value, tags } = entry.data;
      if (typeof time !== "string" || typeof value !== "number") continue;
      samples += 1;
      onSample({
        metric: entry.metric,
        time: Date.parse(time),
        value,
        tags: isRecord(tags) ? (tags as Record<string, string>) : {},
      });
    }
  } catch (error) {
    // zlib says "unexpected end of file" for a gzip stream k6 could not finish: keep what was read.
    if ((error as NodeJS.ErrnoException).code !== "Z_BUF_ERROR") throw error;
    truncated = true;
  }
  return { samples, truncated };
}

/**
 * The earliest time among the first `look` points of the given metrics (k6 writes points in batches, nearly but not
 * strictly in time order), or undefined when the file has none. Reads only the head of the file.
 */
export async function firstSampleTime(
  file: string,
  metrics: ReadonlySet<string>,
  look = 1000,
): Promise<number | undefined> {
  const prefixes = [...metrics].map((m) => `{"metric":${JSON.stringify(m)},"type":"Point"`);
  const input = createReadStream(file);
  const lines = createInterface({ input: input.pipe(createGunzip()), crlfDelay: Infinity });
  let earliest: number | undefined;
  let seen = 0;
  try {
    for await (const line of lines) {
      if (!prefixes.some((p) => line.startsWith(p))) continue;
      const time = /"time":"([^"]+)"/.exec(line)?.[1];
      const ms = time === undefined ? NaN : Date.parse(time);
      if (Number.isFinite(ms)) earliest = earliest === undefined ? ms : Math.min(earliest, ms);
      if (++seen >= look) break;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "Z_BUF_ERROR") throw error;
  } finally {
    lines.close();
    input.destroy();
  }
  return earliest;
}
