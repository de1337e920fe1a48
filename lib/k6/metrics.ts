/** Custom k6 metrics of the harness, declared once (k6 requires metrics to be created in the init context). */
import { Counter } from "k6/metrics";

/** 429 answers, per endpoint tag: throttling is counted apart from errors. */
export const throttles = new Counter("atd_throttles");

/** Seconds spent waiting for Retry-After, so that pacing shows in the results. */
export const throttleWaitSeconds = new Counter("atd_throttle_wait_seconds");

/** Traffic sessions (iterations) started, per persona tag: the persona shares `harness model check` judges. */
export const sessions = new Counter("atd_sessions");

/**
 * Think times slept between two calls of a session, seconds, per persona tag: one sample per think time in the raw
 * output, which `harness model check` reads. A Counter, not a Trend: k6 keeps every value of a Trend in memory (for the
 * summary and again for the web dashboard) and nothing reads its percentiles; a soak thinks about 40 times a second.
 */
export const thinkSeconds = new Counter("atd_think_seconds");

/** Steps of a fitted chain not sent because what they need was missing (a confirm without a booking), per endpoint. */
export const replaySkips = new Counter("atd_replay_skips");
