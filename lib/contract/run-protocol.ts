/**
 * What a k6 scenario and the Node harness agree on besides the API itself: the environment variables the harness
 * sets (read by lib/k6/config.ts) and the marker of the log line a failed check writes (read by the verdict).
 */

export const K6_ENV = {
  baseUrl: "ATD_BASE_URL",
  apiKeys: "ATD_API_KEYS",
  profile: "ATD_PROFILE",
  duration: "ATD_DURATION",
  requestTimeout: "ATD_REQUEST_TIMEOUT",
  summaryPath: "ATD_SUMMARY_PATH",
  sloFile: "ATD_SLO_FILE",
  trafficFile: "ATD_TRAFFIC_FILE",
} as const;

/** A failed check logs `<marker>{"check": name, "problem": text}` once per distinct problem per VU. */
export const CHECK_FAILURE_MARKER = "atd-check-failed ";

export interface CheckFailureDetail {
  check: string;
  problem: string;
}
