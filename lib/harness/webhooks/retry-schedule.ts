/**
 * Retry conformance. docs/contract-gaps.md (Webhooks): retries after 1, 2, 4, 8, 16, 32, 64 minutes, then daily for 3
 * days, each divided by the service's time scale; a 410 disables the endpoint at once. Attempts of one message keep its
 * webhook-id. The delay of a retry is measured from the sink's answer to the refused attempt (the sender schedules it
 * when the attempt ends) to the retry's arrival.
 *
 * Which clock the schedule runs on is the service's choice (docs/contract-freedoms.md, webhooks-retry-clock): real
 * timers, or the service clock, which the run's own clock advances move on at once (the webhooks scenario after each
 * booking flow, the sink past five days at the end). A retry is on schedule when it is on either clock's: on the
 * service clock it is due once the time-scaled time since the refusal plus the advances made in between reach the
 * scheduled delay (serviceClockReaches). Each advance took effect somewhere between its request and its answer, so
 * the earliest a retry may come counts it from its request, the latest from its answer. Not retried at all is judged
 * on real time alone: the service clock never runs slower than real time scaled, so a retry overdue in real time is
 * overdue on either clock.
 */
import type { ClockAdvanceRecord } from "../../contract/index.ts";
import { isSuccess, type Delivery } from "./types.ts";

export const RETRY_SCHEDULE_SECONDS = [60, 120, 240, 480, 960, 1920, 3840, 86_400, 86_400, 86_400] as const;

export interface RetryTolerance {
  /** A retry earlier than this share of the scheduled delay is too early. */
  earlyShare: number;
  /** A retry later than this share of the scheduled delay plus slackMs is too late (event-loop lag, load). */
  lateShare: number;
  slackMs: number;
}

// Early is judged tightly (a sender's timer only fires late); late loosely, since a busy host delays timers by seconds.
export const DEFAULT_RETRY_TOLERANCE: RetryTolerance = { earlyShare: 0.8, lateShare: 2, slackMs: 2500 };

/**
 * The epoch ms at which the service clock, running `timeScale` times real time from `from` and moved on by the
 * advances, has gone `virtualMs` further. `when` says at which real time an advance counts (its request or its
 * answer); advances counted before `from` are not part of the wait.
 */
export function serviceClockReaches(
  from: number,
  virtualMs: number,
  timeScale: number,
  advances: readonly ClockAdvanceRecord[],
  when: (advance: ClockAdvanceRecord) => number,
): number {
  let moved = 0;
  const ordered = advances.map((a) => ({ at: when(a), ms: a.seconds * 1000 })).sort((a, b) => a.at - b.at);
  for (const advance of ordered) {
    if (advance.at < from) continue;
    const before = (advance.at - from) * timeScale + moved;
    if (before >= virtualMs) break;
    moved += advance.ms;
    if (before + advance.ms >= virtualMs) return advance.at;
  }
  return from + (virtualMs - moved) / timeScale;
}

/** When the retry after the `failedAttempt`-th attempt (1-based) is due, relative to that attempt's end. */
export function retryWindow(
  failedAttempt: number,
  timeScale: number,
  tolerance: RetryTolerance = DEFAULT_RETRY_TOLERANCE,
): { scheduledMs: number; earliestMs: number; latestMs: number } | undefined {
  const seconds = RETRY_SCHEDULE_SECONDS[failedAttempt - 1];
  if (seconds === undefined) return undefined;
  const scheduledMs = (seconds * 1000) / timeScale;
  return {
    scheduledMs,
    earliestMs: scheduledMs * tolerance.earlyShare,
    latestMs: scheduledMs * tolerance.lateShare + tolerance.slackMs,
  };
}

export interface RetryIssue {
  endpoint: number;
  webhookId: string;
  type: string | undefined;
  problem: string;
}

export interface RetryFindings {
  /** Attempts the sink refused (non-2xx other than 410, or held until the sender gave up). */
  refusals: number;
  retried: number;
  /** Refused attempts whose retry window closed before the sink stopped looking, without a retry. */
  notRetried: RetryIssue[];
  /** Refused attempts whose retry was not yet due when the sink stopped looking. */
  pending: number;
  offSchedule: RetryIssue[];
  /** Retries that carried a different webhook-id than the first attempt. */
  newIds: RetryIssue[];
  /** Deliveries to an endpoint after the sink had answered it 410. */
  afterGone: RetryIssue[];
}

export interface RetryContext {
  timeScale: number;
  /** The clock advances the run made (k6's scenarios and the harness's own), in any order. */
  advances?: readonly ClockAdvanceRecord[];
  /** Epoch ms until which the sink was listening. */
  observedUntil: number;
  tolerance?: RetryTolerance;
  /**
   * Deliveries this soon after a 410 are not held against the sender: they may have left before the 410 reached it
   * (one endpoint gets several resources' messages at once), or reached a busy sink before it stamped them. Default 1 s.
   */
  goneGraceMs?: number;
}

/** `groups`: the attempts of each message in arrival order (attemptsByBody). */
export function checkRetries(groups: readonly (readonly Delivery[])[], ctx: RetryContext): RetryFindings {
  const findings: RetryFindings = {
    refusals: 0,
    retried: 0,
    notRetried: [],
    pending: 0,
    offSchedule: [],
    newIds: [],
    afterGone: [],
  };
  const goneAt = firstGoneAt(groups);
  for (const group of groups) {
    const first = group[0];
    if (first === undefined) continue;
    for (const [i, attempt] of group.entries()) {
      const gone = goneAt.get(attempt.endpoint);
      // A retry of a message whose own attempt was answered 410 left after the sender had the 410: no grace. (On the
      // service clock the run's clock advances can bring retries within the grace of the first 410.)
      const itselfGone = group.slice(0, i).find((earlier) => earlier.status === 410);
      if (itselfGone !== undefined) {
        findings.afterGone.push(
          issue(
            attempt,
            `attempt ${i + 1} of a ${attempt.type ?? "message"} came ${Math.round(attempt.arrivedAt - itselfGone.answeredAt)} ms after an attempt of it was answered 410`,
          ),
        );
      } else if (gone !== undefined && attempt.arrivedAt > gone + (ctx.goneGraceMs ?? 1000)) {
        findings.afterGone.push(
          issue(
            attempt,
            `${attempt.type ?? "message"} arrived ${Math.round(attempt.arrivedAt - gone)} ms after the endpoint answered 410`,
          ),
        );
      }
      if (i > 0 && attempt.webhookId !== first.webhookId) {
        findings.newIds.push(
          issue(
            attempt,
            `attempt ${i + 1} of a ${attempt.type ?? "message"} came as ${attempt.webhookId}, the first as ${first.webhookId}`,
          ),
        );
      }
      if (isSuccess(attempt.status) || attempt.status === 410) continue;
      if (group.slice(0, i).some((earlier) => isSuccess(earlier.status))) continue;
      findings.refusals++;
      const window = retryWindow(i + 1, ctx.timeScale, ctx.tolerance);
      if (window === undefined) continue;
      const next = group[i + 1];
      if (next === undefined) {
        // The endpoint said 410 before the retry was due: the sender must not retry.
        if (gone !== undefined && gone < attempt.answeredAt + window.latestMs) continue;
        if (attempt.answeredAt + window.latestMs <= ctx.observedUntil) {
          findings.notRetried.push(
            issue(
              attempt,
              `attempt ${i + 1} of a ${attempt.type ?? "message"} was refused with ${attempt.status} and not retried within ${Math.round(window.latestMs)} ms (scheduled ${Math.round(window.scheduledMs)} ms)`,
            ),
          );
        } else {
          findings.pending++;
        }
        continue;
      }
      findings.retried++;
      const delay = next.arrivedAt - attempt.answeredAt;
      if (onRealSchedule(delay, window) || onServiceClock(attempt.answeredAt, next.arrivedAt, i + 1, ctx)) continue;
      findings.offSchedule.push(
        issue(
          next,
          `retry ${i + 1} of a ${next.type ?? "message"} came after ${Math.round(delay)} ms, scheduled ${Math.round(window.scheduledMs)} ms (allowed ${Math.round(window.earliestMs)}-${Math.round(window.latestMs)} ms${advancedNote(attempt.answeredAt, next.arrivedAt, ctx)})`,
        ),
      );
    }
  }
  return findings;
}

/** Per endpoint, when it first answered 410 (Gone). */
function firstGoneAt(groups: readonly (readonly Delivery[])[]): Map<number, number> {
  const goneAt = new Map<number, number>();
  for (const group of groups) {
    for (const d of group) {
      const at = goneAt.get(d.endpoint);
      if (d.status === 410 && (at === undefined || d.answeredAt < at)) goneAt.set(d.endpoint, d.answeredAt);
    }
  }
  return goneAt;
}

function issue(d: Delivery, problem: string): RetryIssue {
  return { endpoint: d.endpoint, webhookId: d.webhookId, type: d.type, problem };
}

function onRealSchedule(delay: number, window: { earliestMs: number; latestMs: number }): boolean {
  return delay >= window.earliestMs && delay <= window.latestMs;
}

/**
 * How coarse an advance's stamps may be: k6 stamps them with Date.now(), whole milliseconds, while the sink stamps
 * with fractions. An advance stamped as answered in the refusal's millisecond may still have taken effect after it.
 */
const ADVANCE_STAMP_MS = 1;

/** Whether an advance may have taken effect after a refusal answered at `refusedAt`. */
const mayFollow = (a: ClockAdvanceRecord, refusedAt: number) => a.answeredAt + ADVANCE_STAMP_MS > refusedAt;

/** Whether a retry arriving at `arrivedAt` is on schedule on the service clock, the run's advances counted. */
function onServiceClock(refusedAt: number, arrivedAt: number, failedAttempt: number, ctx: RetryContext): boolean {
  const advances = ctx.advances ?? [];
  const seconds = RETRY_SCHEDULE_SECONDS[failedAttempt - 1];
  if (advances.length === 0 || seconds === undefined) return false;
  const tolerance = ctx.tolerance ?? DEFAULT_RETRY_TOLERANCE;
  const scheduled = seconds * 1000;
  // Earliest: every advance that may have taken effect after the refusal, as soon as it may have (at the refusal
  // itself when it was sent before it: the retry may then come at once).
  const following = advances.filter((a) => mayFollow(a, refusedAt));
  const earliest = serviceClockReaches(refusedAt, scheduled * tolerance.earlyShare, ctx.timeScale, following, (a) =>
    Math.max(a.sentAt, refusedAt),
  );
  // Latest: only the advances surely made after the refusal, as late as they may have taken effect.
  const surelyFollow = advances.filter((a) => a.sentAt > refusedAt);
  const latest =
    serviceClockReaches(
      refusedAt,
      scheduled * tolerance.lateShare,
      ctx.timeScale,
      surelyFollow,
      (a) => a.answeredAt + ADVANCE_STAMP_MS,
    ) + tolerance.slackMs;
  return arrivedAt >= earliest && arrivedAt <= latest;
}

/** The advances between a refusal and its retry, for the problem's text. */
function advancedNote(refusedAt: number, arrivedAt: number, ctx: RetryContext): string {
  const between = (ctx.advances ?? []).filter((a) => mayFollow(a, refusedAt) && a.sentAt < arrivedAt);
  if (between.length === 0) return "";
  const seconds = between.reduce((sum, a) => sum + a.seconds, 0);
  return `; nor on the service clock's, with the run's ${between.length} clock advance${between.length === 1 ? "" : "s"} of ${seconds} s in all between them`;
}
