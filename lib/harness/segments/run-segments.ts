/**
 * `harness run --segments N` for one scenario: N k6 processes on this machine, each with its execution segment and
 * its own slice of the API keys, then their outputs merged under the names a single process would have used
 * (summary, log, raw samples), so everything downstream (verdict, reports, soak and capacity analyses) reads one
 * scenario as usual. The runners' own files stay beside them with a .segN suffix.
 */
import { rm } from "node:fs/promises";
import { runK6, type K6RunRequest, type K6RunResult } from "../k6-runner.ts";
import { concatenateFiles, mergeSummaries, readSummary, writeMergedSummary } from "./merge-segments.ts";
import { executionSegments, partitionKeysAcrossSegments } from "./segment-keys.ts";

/** "dir/k6-raw-x.json.gz" -> "dir/k6-raw-x.seg1.json.gz": the runner's own file, beside the merged one. */
export function segmentFile(file: string, index: number): string {
  const m = /^(.*?)((?:\.json)?(?:\.gz|\.log|\.html|\.out|\.json))$/.exec(file);
  return m ? `${m[1] ?? ""}.seg${String(index)}${m[2] ?? ""}` : `${file}.seg${String(index)}`;
}

export async function runK6Segments(request: K6RunRequest, n: number): Promise<K6RunResult> {
  const segments = executionSegments(n);
  const keys = partitionKeysAcrossSegments(request.settings.apiKeys, n);
  const summaryPath = request.settings.summaryPath;
  const runners = segments.map((segment) => ({
    summary: summaryPath ? segmentFile(summaryPath, segment.index) : undefined,
    log: segmentFile(request.logFile, segment.index),
    raw: segmentFile(request.rawFile, segment.index),
    request: {
      ...request,
      settings: {
        ...request.settings,
        apiKeys: keys[segment.index] ?? [],
        ...(summaryPath ? { summaryPath: segmentFile(summaryPath, segment.index) } : {}),
      },
      logFile: segmentFile(request.logFile, segment.index),
      rawFile: segmentFile(request.rawFile, segment.index),
      dashboardFile: request.dashboardFile ? segmentFile(request.dashboardFile, segment.index) : undefined,
      // Concurrent progress bars would garble each other: every runner writes its own.
      progress:
        request.progress === "inherit"
          ? { file: segmentFile(request.logFile.replace(/\.log$/, ".out"), segment.index) }
          : { file: segmentFile(request.progress.file, segment.index) },
      executionSegment: { segment: segment.segment, sequence: segment.sequence, index: segment.index },
    } satisfies K6RunRequest,
  }));
  const results = await Promise.all(runners.map((r) => runK6(r.request)));

  await concatenateFiles(
    runners.map((r) => r.log),
    request.logFile,
  );
  await concatenateFiles(
    runners.map((r) => r.raw),
    request.rawFile,
  );
  const summaries = await Promise.all(
    runners.map((r) => (r.summary ? readSummary(r.summary) : Promise.resolve(undefined))),
  );
  if (summaryPath && summaries.every((s) => s !== undefined)) {
    await writeMergedSummary(summaryPath, await mergeSummaries(summaries, [request.rawFile]));
  } else if (summaryPath) {
    // A runner that left no summary leaves the scenario without one: the verdict then says so.
    await rm(summaryPath, { force: true });
  }
  // One runner's failure is the scenario's; 99 (thresholds crossed per runner) is judged again on merged data.
  const failed = results.find((r) => r.exitCode !== 0 && r.exitCode !== 99);
  return {
    exitCode: failed ? failed.exitCode : results.some((r) => r.exitCode === 99) ? 99 : 0,
    signal: failed?.signal ?? null,
    timedOut: results.some((r) => r.timedOut),
    interrupted: results.some((r) => r.interrupted),
  };
}
