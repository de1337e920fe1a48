/** Custom k6 metrics of the harness, declared once (k6 requires metrics to be created in the init context). */
import { Counter } from "k6/metrics";

/** 429 answers, per endpoint tag: throttling is counted apart from errors. */
export const throttles = new Counter("atd_throttles");

/** Seconds spent waiting for Retry-After, so that pacing shows in the results. */
export const throttleWaitSeconds = new Counter("atd_throttle_wait_seconds");
