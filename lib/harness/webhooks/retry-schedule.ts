/**
 * Retry conformance. docs/contract-gaps.md (Webhooks): retries after 1, 2, 4, 8, 16, 32, 64 minutes, then daily for 3
 * days, each divided by the service's time scale; a 410 disables the endpoint at once. Attempts of one message keep its
 * webhook-id. The delay of a retry is measured from the sink's answer to the refused attempt (the sender schedules it
 * when the attempt ends) to the retry's arrival.
 */
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
  const goneAt = new Map<number, number>();
  for (const group of groups) {
    for (const d of group) {
      const at = goneAt.get(d.endpoint);
      if (d.status === 410 && (at === undefined || d.answeredAt < at)) goneAt.set(d.endpoint, d.answeredAt);
    }
  }
  for (const group of groups) {
    const first = group[0];
    if (first === undefined) continue;
    const issue = (d: Delivery, problem: string): RetryIssue => ({
      endpoint: d.endpoint,
      webhookId: d.webhookId,
      type: d.type,
      problem,
    });
    for (const [i, attempt] of group.entries()) {
      const gone = goneAt.get(attempt.endpoint);
      if (gone !== undefined && attempt.arrivedAt > gone + (ctx.goneGraceMs ?? 1000)) {
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
      if (delay < window.earliestMs || delay > window.latestMs) {
        findings.offSchedule.push(
          issue(
            next,
            `retry ${i + 1} of a ${next.type ?? "message"} came after ${Math.round(delay)} ms, scheduled ${Math.round(window.scheduledMs)} ms (allowed ${Math.round(window.earliestMs)}-${Math.round(window.latestMs)} ms)`,
          ),
        );
      }
    }
  }
  return findings;
}
