/**
 * The rate-limit conformance rules of spec Parts 7.1 and 8, each a numbered check ("rate-limit #N ...") proven
 * black-box on dedicated keys. Rules the spec leaves open (#4 when configured so, #7, #8) are reported as findings.
 * Every wait is bounded by the window (configured or measured), so the probe works with a 60 s window as well as
 * with a test window of a few seconds.
 */
import { sleep } from "k6";
import { ERROR_CODES, RATE_LIMITED_ENDPOINTS, type RateLimitAlgorithm } from "../../contract/index.ts";
import type { ApiClient } from "../client.ts";
import { expectThat, reportFinding } from "../checks.ts";
import type { K6Config } from "../config.ts";
import { burstUntil429, hit, listedEndpoint, parallelHits, type Answer, type ProbeTargets } from "./probe.ts";

export const rule = (n: number, text: string): string => `rate-limit #${n} ${text}`;

/** The probe's state: what it learned so far, shared by the rules that run in order. */
export interface ProbeState {
  config: K6Config;
  targets: ProbeTargets;
  /** The limit read from X-RateLimit-Limit on the first answer. */
  limit: number;
  /** Window length: configured, or measured on a fresh key (Reset - Date of its first answer). */
  windowSeconds: number;
  algorithm: RateLimitAlgorithm | undefined;
}

const MARGIN_SECONDS = 0.5;
/**
 * Retry-After is whole seconds, and how the seconds left are rounded is the service's choice (contract-gaps.md, Rate
 * limit: up, down or to the nearest): rounded down it may say up to a second less than is left. A wait that must
 * outlast the refusal adds this.
 */
const ROUNDING_SECONDS = 1;
/** No single wait of the probe is longer than this, whatever a header says. */
const MAX_WAIT_SECONDS = 120;

function waitSeconds(seconds: number): void {
  sleep(Math.min(Math.max(seconds, 0), MAX_WAIT_SECONDS));
}

/**
 * The first answer on a key whose window is fresh. A key used before (a long-lived deployment) is waited out once,
 * until its X-RateLimit-Reset, so the rules always start from a whole allowance.
 */
export function freshFirstAnswer(client: ApiClient, t: ProbeTargets): Answer {
  const first = hit(client, "products", t);
  if (first.limit !== undefined && first.remaining !== undefined && first.remaining < first.limit - 1) {
    const wait = first.reset !== undefined && first.date !== undefined ? first.reset - first.date : 60;
    waitSeconds(wait + MARGIN_SECONDS);
    return hit(client, "products", t);
  }
  return first;
}

/** Rule 1: the headers on success, and Remaining falling by exactly one per request. Returns the state. */
export function headersOnSuccess(config: K6Config, client: ApiClient, t: ProbeTargets): ProbeState | undefined {
  const first = freshFirstAnswer(client, t);
  const limitOk = expectThat(
    rule(1, "X-RateLimit-Limit is a positive whole number"),
    first.limit !== undefined && first.limit > 0
      ? undefined
      : `X-RateLimit-Limit is ${JSON.stringify(first.res.headers["x-ratelimit-limit"] ?? null)}`,
    `limit ${first.limit ?? "absent"}`,
  );
  if (!limitOk || first.limit === undefined) return undefined;
  const limit = first.limit;
  const answers = [first];
  for (let i = 1; i < RATE_LIMITED_ENDPOINTS.length; i++) answers.push(hit(client, listedEndpoint(i), t));
  const missing = answers.filter((a) => a.limit !== limit || a.remaining === undefined).map((a) => a.endpoint);
  expectThat(
    rule(1, "every listed endpoint carries X-RateLimit-Limit and X-RateLimit-Remaining"),
    missing.length ? `missing or different on ${missing.join(", ")}` : undefined,
    answers.map((a) => `${a.endpoint}:${a.limit ?? "-"}/${a.remaining ?? "-"}`).join(" "),
  );
  const remaining = answers.map((a) => a.remaining);
  const expected = answers.map((_, i) => limit - 1 - i);
  expectThat(
    rule(1, "X-RateLimit-Remaining starts at limit - 1 and falls by exactly 1 per request"),
    remaining.every((r, i) => r === expected[i])
      ? undefined
      : `remaining ${remaining.join(", ")}, expected ${expected.join(", ")}`,
    remaining.join(", "),
  );
  const measured = first.reset !== undefined && first.date !== undefined ? first.reset - first.date : undefined;
  const windowSeconds =
    config.rateLimit.windowSeconds ?? (measured !== undefined && measured > 0 && measured < 86_400 ? measured : 60);
  return { config, targets: t, limit, windowSeconds, algorithm: undefined };
}

/** Rule 2: the 429 itself. Exhausts the key through one endpoint; returns the 429 (undefined when none came). */
export function the429(state: ProbeState, client: ApiClient): Answer | undefined {
  const answers = burstUntil429(client, state.targets, state.limit + 10);
  const refused = answers.at(-1);
  const got429 = expectThat(
    rule(2, "the allowance runs out with a 429"),
    refused?.status === 429 ? undefined : `no 429 after ${answers.length} more requests (limit ${state.limit})`,
    `429 after ${answers.length} requests`,
  );
  if (!got429 || !refused) return undefined;
  expectThat(
    rule(2, "429 Content-Type is application/json"),
    /^application\/json\b/i.test(refused.contentType) ? undefined : `Content-Type is "${refused.contentType}"`,
    refused.contentType,
  );
  expectThat(
    rule(2, "429 X-RateLimit-Limit is the limit and X-RateLimit-Remaining is 0"),
    refused.limit === state.limit && refused.remaining === 0
      ? undefined
      : `limit ${refused.limit ?? "absent"}, remaining ${refused.remaining ?? "absent"}`,
  );
  const ra = refused.retryAfter;
  const raValid = ra !== undefined && ra >= 1 && ra <= Math.ceil(state.windowSeconds) + 1;
  expectThat(
    rule(2, "429 Retry-After is whole seconds, at least 1 and at most the window"),
    raValid
      ? undefined
      : `Retry-After is ${JSON.stringify(refused.retryAfterRaw ?? null)} (window ${state.windowSeconds} s)`,
    `Retry-After ${refused.retryAfterRaw ?? "absent"}`,
  );
  // Reset is judged on its own: against Date and Retry-After when Retry-After is usable, else against the clock,
  // so that a bad Retry-After fails only its own check.
  const reset = refused.reset;
  const consistent =
    reset !== undefined &&
    refused.date !== undefined &&
    reset >= refused.date &&
    // Date is truncated to the second, Reset and Retry-After rounded as the service chooses: two seconds apart at most.
    (raValid ? Math.abs(reset - (refused.date + ra)) <= 1 + ROUNDING_SECONDS : true) &&
    Math.abs(reset - refused.at / 1000) <= state.windowSeconds + 2;
  expectThat(
    rule(2, "429 X-RateLimit-Reset is a UNIX time in seconds consistent with Date and Retry-After"),
    consistent
      ? undefined
      : `X-RateLimit-Reset ${JSON.stringify(refused.resetRaw ?? null)}, Date ${refused.date ?? "absent"}, Retry-After ${refused.retryAfterRaw ?? "absent"}`,
    `reset ${refused.resetRaw ?? "absent"}, date ${refused.date ?? "absent"}`,
  );
  const error = refused.res.error;
  expectThat(
    rule(2, "429 body is error {code GEN-TOO-MANY-REQUESTS, http_code 429, message}"),
    error?.code === ERROR_CODES.tooManyRequests && error.http_code === 429 && error.message.trim().length > 0
      ? undefined
      : `body ${JSON.stringify(refused.res.body ?? null).slice(0, 160)}`,
  );
  return refused;
}

/** Rule 3a: once spent through one endpoint, the retry and every other listed endpoint get 429. */
export function sharedWhenSpent(state: ProbeState, client: ApiClient): void {
  const answers = RATE_LIMITED_ENDPOINTS.map((e) => hit(client, e, state.targets));
  const served = answers.filter((a) => a.status !== 429).map((a) => `${a.endpoint} ${a.status}`);
  expectThat(
    rule(3, "spent through one endpoint, the retry and all six listed endpoints get 429"),
    served.length ? `still served: ${served.join(", ")}` : undefined,
    answers.map((a) => `${a.endpoint}:${a.status}`).join(" "),
  );
}

/** Rule 3b: round-robin over the six from a fresh key, the successes before the first 429 equal the limit. */
export function sharedRoundRobin(state: ProbeState, client: ApiClient): void {
  freshFirstAnswer(client, state.targets);
  let successes = 1;
  let i = 1;
  // A per-endpoint allowance would serve six times the limit: send twice the limit at most.
  for (; i < state.limit * 2; i++) {
    const a = hit(client, listedEndpoint(i), state.targets);
    if (a.status === 429) break;
    if (a.status === 200) successes += 1;
  }
  expectThat(
    rule(3, "round-robin over the six endpoints, the successes in one window equal the limit"),
    successes === state.limit ? undefined : `${successes} successes before the first 429, limit ${state.limit}`,
    `${successes} of limit ${state.limit}`,
  );
}

/** Rule 4: booking and config endpoints are neither blocked while throttled nor counted. */
export function outsideTheList(state: ProbeState, throttled: ApiClient, other: ApiClient): void {
  const blocked = [throttled.getConfig(), throttled.listBookings({ per_page: 1 })].filter((r) => r.status === 429);
  const notBlocked = blocked.length === 0;
  const before = hit(other, "products", state.targets);
  const fresh = other;
  fresh.getConfig();
  fresh.listBookings({ per_page: 1 });
  fresh.getConfig();
  const after = hit(fresh, "products", state.targets);
  const notCounted = before.remaining !== undefined && after.remaining === before.remaining - 1;
  const observed = `while throttled: ${notBlocked ? "served" : "429"}; remaining ${before.remaining ?? "-"} -> ${after.remaining ?? "-"} around 3 booking/config calls`;
  if (state.config.rateLimit.outsideList === "finding") {
    expectThat(rule(4, "booking and config endpoints are outside the shared allowance"), undefined, observed);
    if (!notBlocked || !notCounted)
      reportFinding(rule(4, "booking and config endpoints"), `limited differently: ${observed}`);
    return;
  }
  expectThat(
    rule(4, "booking and config endpoints are outside the shared allowance"),
    notBlocked && notCounted ? undefined : observed,
    observed,
  );
}

/**
 * Rule 5: while one key is throttled, every other dedicated key is still served (its first request gets a 200 with
 * allowance left). Checking all of them catches an allowance shared with any of them.
 */
export function isolation(state: ProbeState, others: readonly ApiClient[]): void {
  const answers = others.map((client) => hit(client, "products", state.targets));
  // Served with allowance left: whatever the exact count, a shared allowance would answer 429 here.
  const touched = answers
    .map((a, i) => ({ a, i }))
    .filter(({ a }) => a.status !== 200 || a.remaining === undefined || a.remaining === 0)
    .map(({ a, i }) => `key ${i + 2}: ${a.status}, remaining ${a.remaining ?? "absent"}`);
  expectThat(
    rule(5, "other keys' allowances are untouched while one key is throttled"),
    touched.length ? touched.join("; ") : undefined,
    answers.map((a) => `${a.status}/${a.remaining ?? "-"}`).join(" "),
  );
}

/**
 * How long to wait after a 429 for a retry to be served: its Retry-After and the second its rounding may have taken
 * off, bounded by the window so a wrong header cannot stall the probe.
 */
function honestWait(state: ProbeState, refused: Answer): number {
  const ra = refused.retryAfter;
  return ra !== undefined && ra >= 1
    ? Math.min(ra + ROUNDING_SECONDS, Math.ceil(state.windowSeconds) + 1)
    : state.windowSeconds;
}

/**
 * Rules 6 and 8 share the wait for Retry-After: a retry well before it is refused, one after it succeeds (6); a key
 * that was sent refused requests on top is served after its Retry-After too, unless refused requests spend
 * allowance (8, a finding).
 */
export function retryAfterAndRefusedRequests(
  state: ProbeState,
  refused: Answer,
  client: ApiClient,
  other: ApiClient,
): void {
  const early = hit(client, "products", state.targets);
  expectThat(
    rule(6, "a retry well before Retry-After is refused"),
    early.status === 429 ? undefined : `an immediate retry got ${early.status}`,
    `immediate retry ${early.status}`,
  );
  const otherRefused = burstUntil429(other, state.targets, state.limit + 10).at(-1);
  for (let i = 0; i < 10; i++) hit(other, "products", state.targets);
  const started = Date.now();
  waitSeconds(honestWait(state, refused) + MARGIN_SECONDS);
  const late = hit(client, "products", state.targets);
  expectThat(
    rule(6, "a retry after Retry-After succeeds"),
    late.status === 200
      ? undefined
      : `a retry ${((Date.now() - started) / 1000).toFixed(1)} s later (Retry-After ${refused.retryAfterRaw ?? "absent"}) got ${late.status}`,
    `retry after ${refused.retryAfterRaw ?? "-"} s: ${late.status}`,
  );
  if (otherRefused?.status === 429) {
    const elapsed = (Date.now() - otherRefused.at) / 1000;
    waitSeconds(honestWait(state, otherRefused) + MARGIN_SECONDS - elapsed);
    const after = hit(other, "products", state.targets);
    reportFinding(
      rule(8, "refused requests"),
      after.status === 200
        ? "do not consume allowance: after 10 refused requests the key was served once Retry-After had passed"
        : `consume allowance: after 10 refused requests the key still got ${after.status} once Retry-After had passed`,
    );
  }
}

function burstCount(client: ApiClient, state: ProbeState): number {
  return burstUntil429(client, state.targets, state.limit + 10).filter((a) => a.status === 200).length;
}

/**
 * Rule 7: fixed window, sliding window or token bucket, told apart black-box on two fresh keys at once.
 * Boundary burst: one request at t0, the rest of the allowance just before t0 + window, a burst just after it: a
 * fixed window serves a whole new allowance there, the others about one. Paced refill: a burst that spends the
 * allowance, then half a window of quiet, then a burst: a token bucket serves about half the allowance, the others
 * nothing.
 */
export function algorithm(state: ProbeState, boundary: ApiClient, paced: ApiClient): RateLimitAlgorithm {
  const w = state.windowSeconds;
  const delta = Math.max(0.5, w / 10);
  const t0 = Date.now();
  freshFirstAnswer(boundary, state.targets);
  freshFirstAnswer(paced, state.targets);
  burstCount(paced, state);
  const at = (seconds: number) => {
    waitSeconds(seconds - (Date.now() - t0) / 1000);
  };
  at(w / 2);
  const refill = burstCount(paced, state);
  at(w - delta);
  burstCount(boundary, state);
  at(w + delta);
  const boundaryBurst = burstCount(boundary, state);
  const detected: RateLimitAlgorithm =
    boundaryBurst >= 0.75 * state.limit
      ? "fixed-window"
      : refill >= 0.3 * state.limit
        ? "token-bucket"
        : "sliding-window";
  const evidence = `boundary burst served ${boundaryBurst}, refill after half a window served ${refill} (limit ${state.limit}, window ${w} s)`;
  reportFinding(rule(7, "algorithm"), `${detected}: ${evidence}`);
  if (state.config.rateLimit.algorithm) {
    expectThat(
      rule(7, `the algorithm is ${state.config.rateLimit.algorithm}`),
      detected === state.config.rateLimit.algorithm ? undefined : `behaves as ${detected}: ${evidence}`,
      detected,
    );
  }
  return detected;
}

/**
 * Rule 9: fifty concurrent requests at a time on one fresh key for most of a window get exactly the limit of
 * successes (a token bucket: at most the limit plus what refills meanwhile), never more.
 */
export function underConcurrency(
  state: ProbeState,
  client: ApiClient,
  apiKey: string,
  detected: RateLimitAlgorithm,
): void {
  const parallel = 50;
  const seconds = Math.min(state.windowSeconds * 0.8, 30);
  // The first answer opens the key's window; everything below falls within it.
  const first = freshFirstAnswer(client, state.targets);
  const end = first.at + seconds * 1000;
  let successes = first.status === 200 ? 1 : 0;
  let sent = 1;
  while (Date.now() < end) {
    const statuses = parallelHits(state.config, apiKey, state.targets, parallel);
    sent += statuses.length;
    successes += statuses.filter((s) => s === 200).length;
    // Bounded pressure: a batch every 20 ms keeps the service busy without starving it of CPU.
    sleep(0.02);
  }
  const refills = detected === "token-bucket" ? Math.ceil((seconds * state.limit) / state.windowSeconds) + 1 : 0;
  const ok = successes >= Math.min(state.limit, sent) && successes <= state.limit + refills;
  expectThat(
    rule(9, "50 concurrent requests on one key for a window get the limit of successes, never more"),
    ok
      ? undefined
      : `${successes} successes of ${sent} requests in ${seconds.toFixed(1)} s, limit ${state.limit}${refills ? ` + ${refills} refills` : ""}`,
    `${successes} successes of ${sent}`,
  );
}
