/**
 * The sink's part of the run's verdict. Each check names one rule of docs/contract-gaps.md (Webhooks) and is proven to
 * fail on the reference service's defect that breaks it (test/k6/webhooks.test.ts); latency, loss and duplicates are
 * thresholds from the SLO table (follow-ons, which have no trigger time, count for loss only). Unexpected events are
 * reported, not judged: the run knows only what it triggered and what follows from that by the contract. So are what
 * the contract leaves free (docs/contract-freedoms.md): messages about one resource that arrived out of their event
 * order, and optional events (a booking's create) that did not come. The latency distribution goes out as a histogram
 * series (latency-series.ts).
 */
import { WEBHOOK_EVENT_TYPES } from "../../contract/index.ts";
import type { SloTable } from "../../contract/slo.ts";
import { withSeries } from "../reports/extension-series.ts";
import { extensionVerdict, type ExtensionVerdict } from "../run-extension.ts";
import type { CheckVerdict, ThresholdVerdict } from "../verdict.ts";
import type { WebhookAnalysis } from "./analysis.ts";
import { webhookLatencySeries } from "./latency-series.ts";
import { BOOKING_EVENT_TYPES, isBookingEvent, type Delivery } from "./types.ts";

export const WEBHOOK_CHECKS = {
  signature: "webhooks: webhook-signature valid on every attempt",
  timestamp: "webhooks: webhook-timestamp within tolerance on every attempt",
  retried: "webhooks: a refused delivery is retried",
  schedule: "webhooks: retries follow the schedule",
  sameId: "webhooks: retries keep the webhook-id",
  gone: "webhooks: nothing is delivered after 410",
  allKinds: "webhooks: all eight event kinds delivered",
} as const;

/** The checks only a run without test hooks names (observed.ts). */
export const PUBLIC_API_WEBHOOK_CHECKS = {
  /** Instead of allKinds: the kinds the run's own booking calls cause. */
  bookingKinds: "webhooks: all three booking event kinds delivered",
  /** With hooks judged through the loss of the `expired` events the clock move causes; here reported as not judged. */
  expiry: "webhooks: a booking left reserved reports expired",
} as const;

export const WEBHOOK_METRICS = {
  latency: "webhook_latency",
  lost: "webhook_lost",
  duplicates: "webhook_duplicates",
} as const;

export interface JudgeOptions {
  slo: SloTable["webhooks"];
  /** The sink refused deliveries on purpose: the retry checks apply. */
  misbehaving: boolean;
  /** The run triggers every kind (scenarios/webhooks.ts): each must arrive. */
  expectAllKinds: boolean;
  timeScale: number;
  /**
   * Public API only: catalogue events and follow-ons are observed, not expected (observed.ts), and "all eight kinds"
   * becomes the three booking kinds (the caller reports the rest as not judged).
   */
  publicApi?: boolean;
}

const MAX_PROBLEMS = 10;

function check(name: string, passes: number, problems: readonly string[]): CheckVerdict {
  return {
    name,
    verdict: problems.length === 0 ? "pass" : "fail",
    passes,
    fails: problems.length,
    problems: [...new Set(problems)].slice(0, MAX_PROBLEMS),
  };
}

const describe = (d: Delivery) => `${d.type ?? "a message"} ${d.webhookId} to endpoint ${d.endpoint}`;

export function judge(name: string, analysis: WebhookAnalysis, options: JudgeOptions): ExtensionVerdict {
  return extensionVerdict(name, {
    checks: webhookChecks(analysis, options),
    thresholds: webhookThresholds(analysis, options),
    findings: webhookFindings(analysis, options),
    figures: withSeries(figures(analysis, options), [
      webhookLatencySeries(analysis.latencySeconds, options.slo.latency),
    ]),
  });
}

/** The checks: signatures and timestamps; retries with a misbehaving sink; 410 once an endpoint said it; every kind. */
function webhookChecks(analysis: WebhookAnalysis, options: JudgeOptions): CheckVerdict[] {
  const { join, retries } = analysis;
  const total = analysis.deliveries.length;
  const checks: CheckVerdict[] = [
    check(
      WEBHOOK_CHECKS.signature,
      total - analysis.signatureFailures.length,
      analysis.signatureFailures.map((d) => `${describe(d)}: signature does not verify with the endpoint's secret`),
    ),
    check(
      WEBHOOK_CHECKS.timestamp,
      total - analysis.timestampFailures.length,
      analysis.timestampFailures.map(
        (d) =>
          `${describe(d)}: webhook-timestamp ${d.timestamp ?? "missing"} is ${d.timestamp === undefined ? "not a number" : `${Math.round(d.arrivedAt / 1000 - d.timestamp)} s from arrival`}`,
      ),
    ),
  ];
  if (options.misbehaving) {
    checks.push(
      check(
        WEBHOOK_CHECKS.retried,
        retries.retried,
        retries.notRetried.map((i) => i.problem),
      ),
      check(
        WEBHOOK_CHECKS.schedule,
        retries.retried - retries.offSchedule.length,
        retries.offSchedule.map((i) => i.problem),
      ),
      check(
        WEBHOOK_CHECKS.sameId,
        retries.retried - retries.newIds.length,
        retries.newIds.map((i) => i.problem),
      ),
    );
  }
  if (analysis.gone.size > 0) {
    checks.push(
      check(
        WEBHOOK_CHECKS.gone,
        analysis.gone.size,
        retries.afterGone.map((i) => i.problem),
      ),
    );
  }
  if (options.expectAllKinds) {
    // A kind is triggered when the run expected one (recorded or derived); one never triggered did not fail to
    // arrive: the scenario did not get to cause it (a setup that failed, flows that did not run), and says why.
    const triggered = new Set(
      [...join.matched, ...join.lost, ...join.excused].map((e) => e.expectation.type as string),
    );
    const kinds: readonly string[] = options.publicApi === true ? BOOKING_EVENT_TYPES : WEBHOOK_EVENT_TYPES;
    const missing = kinds.filter((t) => !analysis.kindsDelivered.has(t));
    checks.push(
      check(
        options.publicApi === true ? PUBLIC_API_WEBHOOK_CHECKS.bookingKinds : WEBHOOK_CHECKS.allKinds,
        kinds.length - missing.length,
        missing.map((t) =>
          triggered.has(t)
            ? `no ${t} arrived although the run triggered it`
            : `not judged: the run triggered no ${t} (see the webhooks scenario's verdict for why)`,
        ),
      ),
    );
  }
  return checks;
}

/** The SLO thresholds: p95 and p99 latency per event type, and the lost and duplicate counts. */
function webhookThresholds(analysis: WebhookAnalysis, options: JudgeOptions): ThresholdVerdict[] {
  const thresholds: ThresholdVerdict[] = [];
  const { latency } = options.slo;
  for (const type of WEBHOOK_EVENT_TYPES) {
    const histogram = analysis.latency.get(type);
    if (histogram === undefined) continue;
    const metric = `${WEBHOOK_METRICS.latency}{type:${type}}`;
    for (const [p, limit] of [
      [95, latency.p95],
      [99, latency.p99],
    ] as const) {
      const observed = histogram.percentile(p);
      thresholds.push({
        metric,
        expression: `p(${p})<${limit}`,
        verdict: observed < limit ? "pass" : "fail",
        observed,
      });
    }
  }
  const lost = analysis.join.lost.length;
  const duplicates = analysis.dedupe.duplicates.length;
  thresholds.push(
    {
      metric: WEBHOOK_METRICS.lost,
      expression: `count<=${options.slo.lost}`,
      verdict: lost <= options.slo.lost ? "pass" : "fail",
      observed: lost,
    },
    {
      metric: WEBHOOK_METRICS.duplicates,
      expression: `count<=${options.slo.duplicates}`,
      verdict: duplicates <= options.slo.duplicates ? "pass" : "fail",
      observed: duplicates,
    },
  );
  return thresholds;
}

/** What was seen but not judged: events nobody expected or not yet due, the contract's freedoms, refusals, 410s. */
function webhookFindings(analysis: WebhookAnalysis, options: JudgeOptions): string[] {
  const { join, retries } = analysis;
  const findings: string[] = [];
  // At the public-API level catalogue events are observed: the run changed nothing, someone else did.
  const observedCatalogue =
    options.publicApi === true ? join.unexpected.filter((m) => !isBookingEvent(m.first.type)) : [];
  const unexpected = join.unexpected.filter((m) => !observedCatalogue.includes(m));
  if (observedCatalogue.length > 0) {
    const byType = countBy(observedCatalogue.map((m) => m.first.type ?? "unknown"));
    findings.push(
      `${observedCatalogue.length} catalogue events were observed (${Object.entries(byType)
        .map(([t, n]) => `${t} ${n}`)
        .join(
          ", ",
        )}): without test hooks the run changes no catalogue, so these are judged for signature, order and retries only.`,
    );
  }
  if (join.unobserved.length > 0) {
    const byType = countBy(
      join.unobserved.map((u) => `${u.expectation.type}${u.expectation.status ? ` ${u.expectation.status}` : ""}`),
    );
    findings.push(
      `${join.unobserved.length} events the service decides on its own schedule had not arrived when the sink stopped (${Object.entries(
        byType,
      )
        .map(([t, n]) => `${t} ${n}`)
        .join(
          ", ",
        )}): without the clock hook their delay (supplier decisions, cancellation approvals) cannot be made to fall due, so they are observed, not counted as lost.`,
    );
  }
  if (unexpected.length > 0) {
    const byType = countBy(unexpected.map((m) => m.first.type ?? "unknown"));
    findings.push(
      `${unexpected.length} events arrived that the run did not record as expected (${Object.entries(byType)
        .map(([t, n]) => `${t} ${n}`)
        .join(
          ", ",
        )}): neither an operation of the run nor a consequence of one by the contract caused them (e.g. another client of the service, or a control API change the run did not make).`,
    );
  }
  findings.push(...freedomFindings(analysis));
  if (analysis.arrivedBeforeTrigger > 0) {
    findings.push(
      `${analysis.arrivedBeforeTrigger} events arrived before their trigger was recorded: the clocks of k6 and the sink disagree; latencies below 0 count as 0.`,
    );
  }
  if (retries.pending > 0) {
    findings.push(
      `${retries.pending} refused deliveries were not yet due for a retry when the sink stopped listening.`,
    );
  }
  const refused = refusedFinding(analysis);
  if (refused !== undefined) findings.push(refused);
  if (join.excused.length > 0) {
    findings.push(
      `${join.excused.length} expected events were not sent to endpoints that had answered 410, as required.`,
    );
  }
  return findings;
}

/** What the contract leaves free, reported as seen: the order of arrival, optional events that did not come. */
function freedomFindings(analysis: WebhookAnalysis): string[] {
  const out: string[] = [];
  const first = analysis.order[0];
  if (first !== undefined) {
    out.push(
      `${analysis.order.length} message${analysis.order.length === 1 ? "" : "s"} arrived after a later event about the same resource (e.g. ${first.type ?? "a message"} about ${first.resource}, event at ${new Date(first.eventTime).toISOString()}, after one of ${new Date(first.afterEventTime).toISOString()}): the contract promises no order (docs/contract-freedoms.md, webhooks-delivery-order); a partner orders them by the payload's timestamp.`,
    );
  }
  const absent = analysis.join.optionalAbsent;
  if (absent.length > 0) {
    const byType = countBy(
      absent.map((u) => `${u.expectation.type}${u.expectation.status ? ` ${u.expectation.status}` : ""}`),
    );
    out.push(
      `${absent.length} event${absent.length === 1 ? "" : "s"} the contract allows but does not require did not arrive (${Object.entries(
        byType,
      )
        .map(([t, n]) => `${t} ${n}`)
        .join(
          ", ",
        )}): a booking's create and a catalogue change that changed nothing may emit or not (docs/contract-freedoms.md), so they are not lost.`,
    );
  }
  return out;
}

/** Requests the sink did not read whole, by why; their retries are judged like any delivery (loss, schedule). */
function refusedFinding(analysis: WebhookAnalysis): string | undefined {
  if (analysis.refused.length === 0) return undefined;
  const by = countBy(analysis.refused.map((r) => r.reason));
  const parts = [
    by["too large"] ? `${by["too large"]} larger than the sink reads (answered 413)` : "",
    by["too slow"] ? `${by["too slow"]} not complete within the sink's bound (answered 408)` : "",
    by["cut off"] ? `${by["cut off"]} cut off by the sender mid-body` : "",
  ].filter((part) => part !== "");
  return `${analysis.refused.length} deliveries were not read whole (${parts.join(", ")}): they could not be verified or joined; an event they carried counts as delivered only if a retry arrived whole.`;
}

function countBy(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function figures(analysis: WebhookAnalysis, options: JudgeOptions): Record<string, unknown> {
  const { join, dedupe } = analysis;
  const perType: Record<string, unknown> = {};
  const expected = countBy(
    join.matched.map((m) => m.expectation.type).concat(join.lost.map((l) => l.expectation.type)),
  );
  const lost = countBy(join.lost.map((l) => l.expectation.type));
  const duplicates = countBy(dedupe.duplicates.map((d) => d.type ?? "unknown"));
  const unexpected = countBy(join.unexpected.map((m) => m.first.type ?? "unknown"));
  const outOfOrder = countBy(analysis.order.map((o) => o.type ?? "unknown"));
  const delivered = countBy(dedupe.messages.map((m) => m.first.type ?? "unknown"));
  for (const type of WEBHOOK_EVENT_TYPES) {
    perType[type] = {
      expected: expected[type] ?? 0,
      delivered: delivered[type] ?? 0,
      lost: lost[type] ?? 0,
      duplicates: duplicates[type] ?? 0,
      unexpected: unexpected[type] ?? 0,
      outOfOrder: outOfOrder[type] ?? 0,
      latency: analysis.latency.get(type)?.summary() ?? null,
    };
  }
  return {
    timeScale: options.timeScale,
    deliveries: analysis.deliveries.length,
    refused: countBy(analysis.refused.map((r) => r.reason)),
    messages: dedupe.messages.length,
    expected: join.matched.length + join.lost.length,
    followOns: analysis.followOns,
    lost: join.lost.length,
    excused: join.excused.length,
    unobserved: join.unobserved.length,
    optionalAbsent: join.optionalAbsent.length,
    duplicates: dedupe.duplicates.length,
    unexpected: join.unexpected.length,
    outOfOrder: analysis.order.length,
    signatureFailures: analysis.signatureFailures.length,
    timestampFailures: analysis.timestampFailures.length,
    retries: {
      refusals: analysis.retries.refusals,
      retried: analysis.retries.retried,
      notRetried: analysis.retries.notRetried.length,
      offSchedule: analysis.retries.offSchedule.length,
      newIds: analysis.retries.newIds.length,
      afterGone: analysis.retries.afterGone.length,
      pending: analysis.retries.pending,
    },
    goneEndpoints: [...analysis.gone],
    types: perType,
  };
}
