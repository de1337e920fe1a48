/**
 * The webhook sink against the reference service: the webhooks scenario passes on the correct service and fails on
 * each webhook defect with exactly the check or threshold that names the broken rule; under partner-mix load every
 * kind arrives with its latency percentiles. Runs use a clock time scale of 120 (a first retry after 0.5 s) and run
 * two at a time: each is mostly waiting for deliveries, but a third starves the others of CPU on two cores and
 * their timers (retries, deliveries) slip by seconds.
 */
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../lib/contract/index.ts";
import type { ExtensionVerdict } from "../../lib/harness/run-extension.ts";
import { WEBHOOK_CHECKS, WEBHOOK_METRICS } from "../../lib/harness/webhooks/verdict.ts";
import { runHarnessProcess, runLimiter, type HarnessProcessResult } from "./harness-process.ts";

const TIME_SCALE = 120;
const PARALLEL_RUNS = 2;
const CORRECT_RUNS = 5;

const limited = runLimiter(PARALLEL_RUNS);

function runWebhooks(options: { defect?: string; scenarios?: string[]; duration?: string } = {}) {
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

function sinkOf(result: HarnessProcessResult): ExtensionVerdict {
  const sink = result.summary?.extensions.find((e) => e.name === "webhook sink");
  if (!sink) throw new Error(`Failed to find the webhook sink's verdict in the run's summary:\n${result.output}`);
  return sink;
}

/** What failed: check names, and threshold metrics without their tags (one latency rule over all types). */
function failures(sink: ExtensionVerdict): string[] {
  const checks = sink.checks.filter((c) => c.verdict === "fail").map((c) => c.name);
  const thresholds = sink.thresholds.filter((t) => t.verdict === "fail").map((t) => t.metric.replace(/\{.*$/, ""));
  return [...new Set([...checks, ...thresholds, ...sink.errors])].sort();
}

interface Caught {
  /** Must fail: the rules the defect breaks. */
  by: string[];
  /** May fail as well, and why. */
  alsoAllowed?: string[];
}

const DEFECTS: Record<string, Caught> = {
  "webhook-drop": { by: [WEBHOOK_METRICS.lost] },
  // Messages about one resource queue behind each other's 3 s, so a booking's last ones may pass the loss deadline.
  "webhook-delay": { by: [WEBHOOK_METRICS.latency], alsoAllowed: [WEBHOOK_METRICS.lost] },
  "webhook-duplicate": { by: [WEBHOOK_METRICS.duplicates] },
  "webhook-reorder": { by: [WEBHOOK_CHECKS.order] },
  "webhook-bad-signature": { by: [WEBHOOK_CHECKS.signature] },
  "webhook-stale-timestamp": { by: [WEBHOOK_CHECKS.timestamp] },
  "webhook-new-id-on-retry": { by: [WEBHOOK_CHECKS.sameId] },
  "webhook-retry-too-early": { by: [WEBHOOK_CHECKS.schedule] },
  "webhook-no-retry": { by: [WEBHOOK_CHECKS.retried] },
  "webhook-ignore-410": { by: [WEBHOOK_CHECKS.gone] },
  // The kind that never comes is also lost for every booking that should have had it.
  "webhook-never-emit-tickets": { by: [WEBHOOK_CHECKS.allKinds, WEBHOOK_METRICS.lost] },
};

describe("webhook delivery against the reference service", () => {
  for (let run = 1; run <= CORRECT_RUNS; run++) {
    it.concurrent(`should pass on the correct service with every check applied (run ${run})`, async () => {
      const result = await runWebhooks();
      expect(result.exitCode, result.output).toBe(0);
      const sink = sinkOf(result);
      expect(failures(sink)).toEqual([]);
      expect(sink.checks.map((c) => c.name).sort()).toEqual(Object.values(WEBHOOK_CHECKS).sort());
      const figures = sink.figures as { retries: { retried: number }; lost: number; expected: number };
      expect(figures.retries.retried, "the sink refused some first attempts").toBeGreaterThan(0);
      expect(figures.expected).toBeGreaterThan(0);
    });
  }

  for (const [defect, caught] of Object.entries(DEFECTS)) {
    it.concurrent(`should fail ${defect} with ${caught.by.join(" and ")}`, async () => {
      const result = await runWebhooks({ defect });
      expect(result.exitCode, result.output).toBe(1);
      const failed = failures(sinkOf(result));
      expect(failed, result.output).toEqual(expect.arrayContaining(caught.by));
      const allowed = new Set([...caught.by, ...(caught.alsoAllowed ?? [])]);
      expect(
        failed.filter((f) => !allowed.has(f)),
        result.output,
      ).toEqual([]);
    });
  }

  it.concurrent("should report all eight kinds with latency percentiles under partner-mix load", async () => {
    const result = await runWebhooks({ scenarios: ["webhooks", "partner-mix"], duration: "8s" });
    expect(result.exitCode, result.output).toBe(0);
    const types = sinkOf(result).figures.types as Record<string, { latency: Record<string, number> | null }>;
    for (const type of WEBHOOK_EVENT_TYPES) {
      expect(types[type]?.latency, type).toMatchObject({
        count: expect.any(Number) as number,
        p50Ms: expect.any(Number) as number,
        p95Ms: expect.any(Number) as number,
        p99Ms: expect.any(Number) as number,
        maxMs: expect.any(Number) as number,
      });
    }
    expect(result.summary?.scenarios.map((s) => s.verdict)).toEqual(["pass", "pass"]);
  });
});
