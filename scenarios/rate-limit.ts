/**
 * Rate-limit conformance: the 429 headers, the shared allowance of the six listed endpoints, booking and config
 * outside it, isolation between keys, honest Retry-After, the window algorithm, refused requests, and the limit
 * under concurrency (spec Parts 7.1 and 8), black-box on keys of its own.
 */
import { addDays, todayUtc } from "../lib/contract/index.ts";
import { loadConfig } from "../lib/k6/config.ts";
import { firstProductTargets, probeClient, type ProbeTargets } from "../lib/k6/rate-limit/probe.ts";
import {
  algorithm,
  headersOnSuccess,
  isolation,
  outsideTheList,
  retryAfterAndRefusedRequests,
  sharedRoundRobin,
  sharedWhenSpent,
  the429,
  underConcurrency,
} from "../lib/k6/rate-limit/rules.ts";

const config = loadConfig(__ENV);

/** Keys of the probe, by role; the harness hands this scenario keys no other scenario of the run uses. */
const KEYS_NEEDED = 8;
if (config.apiKeys.length < KEYS_NEEDED) {
  throw new Error(
    `Failed to start the rate-limit scenario: it needs ${KEYS_NEEDED} API keys of its own, got ${config.apiKeys.length}. Please pass more keys.`,
  );
}
const key = (i: number) => config.apiKeys[i] as string;
const clients = Array.from({ length: KEYS_NEEDED }, (_, i) => probeClient(config, key(i)));
const client = (i: number) => clients[i] as (typeof clients)[number];

export const options = {
  scenarios: {
    rate_limit: { executor: "per-vu-iterations", vus: 1, iterations: 1, maxDuration: "15m" },
  },
  thresholds: { checks: ["rate>=1"] },
  // Rule 9 sends 50 requests at once on one key.
  batch: 50,
  batchPerHost: 50,
};

export function setup(): ProbeTargets {
  // The last key finds something to probe; the rules never use it.
  return firstProductTargets(client(KEYS_NEEDED - 1), addDays(todayUtc(), 10));
}

export default function rateLimit(targets: ProbeTargets): void {
  const state = headersOnSuccess(config, client(0), targets);
  if (!state) return;
  const refused = the429(state, client(0));
  if (!refused) return;
  sharedWhenSpent(state, client(0));
  isolation(state, [1, 2, 3, 4, 5, 6].map(client));
  outsideTheList(state, client(0), client(2));
  retryAfterAndRefusedRequests(state, refused, client(0), client(3));
  sharedRoundRobin(state, client(1));
  const detected = algorithm(state, client(4), client(5));
  underConcurrency(state, client(6), key(6), detected);
}

export { handleSummary } from "../lib/k6/summary.ts";
