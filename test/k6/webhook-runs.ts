/**
 * How the webhook tests run the webhooks scenario: a clock time scale of 120 (a first retry after 0.5 s), two runs at
 * a time (each is mostly waiting for deliveries, but a third starves the others of CPU on two cores and their timers
 * slip by seconds), and what a run's sink verdict says.
 */
import { expect } from "vitest";
import type { ExtensionVerdict } from "../../lib/harness/run-extension.ts";
import { WEBHOOK_CHECKS } from "../../lib/harness/webhooks/verdict.ts";
import { runHarnessProcess, runLimiter, type HarnessProcessResult } from "./harness-process.ts";

const TIME_SCALE = 120;
const PARALLEL_RUNS = 2;

const limited = runLimiter(PARALLEL_RUNS);

export function runWebhooks(options: { defect?: string; scenarios?: string[]; duration?: string } = {}) {
  const serviceArgs = `--time-scale ${TIME_SCALE}${options.defect ? ` --defects ${options.defect}` : ""}`;
  return limited(() =>
    runHarnessProcess(
      [
        "run",
        ...(options.scenarios ?? ["webhooks"]),
        "--duration",
        options.duration ?? "4s",
        "--service-args",
        serviceArgs,
      ],
      { timeoutMs: 150_000 },
    ),
  );
}

export function sinkOf(result: HarnessProcessResult): ExtensionVerdict {
  const sink = result.summary?.extensions.find((e) => e.name === "webhook sink");
  if (!sink) throw new Error(`Failed to find the webhook sink's verdict in the run's summary:\n${result.output}`);
  return sink;
}

/** What failed: check names, and threshold metrics without their tags (one latency rule over all types). */
export function failures(sink: ExtensionVerdict): string[] {
  const checks = sink.checks.filter((c) => c.verdict === "fail").map((c) => c.name);
  const thresholds = sink.thresholds.filter((t) => t.verdict === "fail").map((t) => t.metric.replace(/\{.*$/, ""));
  return [...new Set([...checks, ...thresholds, ...sink.errors])].sort();
}

/** A run on the correct service: exit 0, every webhook check applied and passed, refusals retried. */
export function expectCleanWebhookRun(result: HarnessProcessResult): void {
  expect(result.exitCode, result.output).toBe(0);
  const sink = sinkOf(result);
  expect(failures(sink)).toEqual([]);
  expect(sink.checks.map((c) => c.name).sort()).toEqual(Object.values(WEBHOOK_CHECKS).sort());
  const figures = sink.figures as { retries: { retried: number }; lost: number; expected: number };
  expect(figures.retries.retried, "the sink refused some first attempts").toBeGreaterThan(0);
  expect(figures.expected).toBeGreaterThan(0);
}
