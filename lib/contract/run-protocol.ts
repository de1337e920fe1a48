/**
 * What a k6 scenario and the Node harness agree on besides the API itself: the environment variables the harness
 * sets (read by lib/k6/config.ts) and the marker of the log line a failed check writes (read by the verdict).
 */
import type { WebhookEventType } from "./types.ts";

export const K6_ENV = {
  baseUrl: "ATD_BASE_URL",
  apiKeys: "ATD_API_KEYS",
  profile: "ATD_PROFILE",
  duration: "ATD_DURATION",
  requestTimeout: "ATD_REQUEST_TIMEOUT",
  summaryPath: "ATD_SUMMARY_PATH",
  sloFile: "ATD_SLO_FILE",
  trafficFile: "ATD_TRAFFIC_FILE",
  /** "1" makes booking calls log the webhook events they must cause (EXPECTATION_MARKER); off keeps the hot path bare. */
  recordExpectations: "ATD_RECORD_EXPECTATIONS",
  /** The control API, for scenarios that drive the clock and the catalogue themselves (scenarios/webhooks.ts). */
  controlUrl: "ATD_CONTROL_URL",
  controlToken: "ATD_CONTROL_TOKEN",
} as const;

/** A failed check logs `<marker>{"check": name, "problem": text}` once per distinct problem per VU. */
export const CHECK_FAILURE_MARKER = "atd-check-failed ";

export interface CheckFailureDetail {
  check: string;
  problem: string;
}

/**
 * An operation that must cause a webhook logs `<marker>{ExpectationRecord}` once, with the time taken in k6 just before
 * the request (the same host clock as the webhook sink's arrival times). The webhook sink joins them with deliveries.
 */
export const EXPECTATION_MARKER = "atd-expect ";

export interface ExpectationRecord {
  type: WebhookEventType;
  /** The booking, product or product type the event is about. */
  resource: string;
  /** Epoch milliseconds when the operation was started. */
  at: number;
  /** Index in ATD_API_KEYS of the partner that must receive it; absent: every registered partner (catalogue events). */
  key?: number;
  /** For booking_status_updated: the status the booking must have in the event. */
  status?: string;
}
