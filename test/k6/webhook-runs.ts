/**
 * How the webhook tests run the webhooks scenario: a clock time scale of 120 (a first retry after 0.5 s), two runs at
 * a time (each is mostly waiting for deliveries, but a third starves the others of CPU on two cores and their timers
 * slip by seconds), and what a run's sink verdict says. With test hooks (the embedded service) or without (the
 * service reached through its public API alone, the sink registered by a command).
 */
import { expect } from "vitest";
import type { ExtensionVerdict } from "../../lib/harness/run-extension.ts";
import { WEBHOOK_CHECKS } from "../../lib/harness/webhooks/verdict.ts";
import { runHarnessProcess, runLimiter, type HarnessProcessResult } from "./harness-process.ts";
import { startPublicApiService } from "./public-api-service.ts";

const TIME_SCALE = 120;
const PARALLEL_RUNS = 2;

const limited = runLimiter(PARALLEL_RUNS);

export interface WebhookRunOptions {
  defect?: string;
  /** The reference service's variations to switch on (--variations). */
  variations?: readonly string[];
  scenarios?: string[];
  /** More flags of `harness run` (e.g. --webhooks). */
  args?: readonly string[];
  duration?: string;
}

/** The reference service's flags of a run: the time scale, and the defect and variations asked for. */
function serviceFlags(options: Pick<WebhookRunOptions, "defect" | "variations">): string[] {
  return [
    ...["--time-scale", String(TIME_SCALE)],
    ...(options.defect ? ["--defects", options.defect] : []),
    ...(options.variations?.length ? ["--variations", options.variations.join(",")] : []),
  ];
}

export function runWebhooks(options: WebhookRunOptions = {}) {
  return limited(() =>
    runHarnessProcess(
      [
        "run",
        ...(options.scenarios ?? ["webhooks"]),
        ...(options.args ?? []),
        "--duration",
        options.duration ?? "4s",
        "--service-args",
        serviceFlags(options).join(" "),
      ],
      { timeoutMs: 150_000 },
    ),
  );
}

/**
 * The webhooks scenario against the service reached through its public API alone: no control URL, the sink
 * registered by the operator's command, the time scale stated by the operator.
 */
export function runWebhooksWithoutHooks(options: Pick<WebhookRunOptions, "defect" | "variations"> = {}) {
  return limited(async () => {
    await using service = await startPublicApiService(serviceFlags(options));
    // Awaited here: the service is disposed when this function returns.
    return await runHarnessProcess(
      [
        ...["run", "webhooks", ...service.targetArgs, "--time-scale", String(TIME_SCALE)],
        ...["--duration", "6s", "--allow-skips"],
      ],
      { timeoutMs: 90_000 },
    );
  });
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
