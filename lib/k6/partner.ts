/**
 * Which API key a request speaks with: keys are spread over iterations so load scales past one key's allowance. A
 * runner of a split run speaks only with its own keys (runnerKeys): with ATD_KEYS_BY_SEGMENT=1 its execution
 * segment's slice of ATD_API_KEYS, as every k6-operator runner reads the same Secret.
 */
import exec from "k6/execution";
import http from "k6/http";
import { ApiClient } from "./client.ts";
import { ConfigError, runnerKeysOf, type K6Config, type RunnerKeys } from "./config.ts";
import { expectationRecorder, ownBookingRecorder } from "./expectations.ts";

/** 429 is an expected answer for load scenarios (counted as a throttle, not as a failed request). */
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

/** Clients by API key, one map per phase: looked up on every iteration, so keyed by the key itself. */
const clients = { load: new Map<string, ApiClient>(), setup: new Map<string, ApiClient>() };

/** Per VU (each has its own module state), once: k6 tells a script its execution segment only once the VU runs. */
const runnerKeysByConfig = new WeakMap<K6Config, RunnerKeys>();

/**
 * This runner's keys and its place among the runners. A runner that cannot have keys of its own (ATD_KEYS_BY_SEGMENT
 * with fewer keys than runners, or no segment sequence) aborts the whole test with the reason: spending another
 * runner's keys would make its allowance figures wrong without a word.
 */
export function runnerKeys(config: K6Config): RunnerKeys {
  let keys = runnerKeysByConfig.get(config);
  if (!keys) {
    const options = exec.test.options;
    try {
      keys = runnerKeysOf(config, options.executionSegment, options.executionSegmentSequence);
    } catch (error) {
      if (error instanceof ConfigError) exec.test.abort(error.message);
      throw error;
    }
    runnerKeysByConfig.set(config, keys);
  }
  return keys;
}

/** Round-robin over the keys by iteration number: each key gets 1/K of the iterations whatever the VU count. */
export function keyFor(keys: readonly string[], iteration: number): string {
  return keys[iteration % keys.length] as string;
}

function clientFor(config: K6Config, apiKey: string, phase: "load" | "setup"): ApiClient {
  let client = clients[phase].get(apiKey);
  if (!client) {
    client = new ApiClient({
      baseUrl: config.baseUrl,
      apiKey,
      timeout: config.requestTimeout,
      phase,
      onThrottle: "wait",
      maxThrottleWaitSeconds: 60,
      expectations: config.recordExpectations ? expectationRecorder(config.apiKeys.indexOf(apiKey)) : undefined,
    });
    clients[phase].set(apiKey, client);
  }
  return client;
}

/**
 * The client for the n-th iteration of a scenario (exec.scenario.iterationInTest). The runners of a split run number
 * their iterations in turn (runner i of N gets i, i+N, i+2N, ...): counting by n itself would reach only some keys of
 * a slice whose size shares a factor with N, so a runner counts its own iterations, n / N.
 */
export function partnerClient(config: K6Config, iteration: number): ApiClient {
  const { keys, runners } = runnerKeys(config);
  return clientFor(config, keyFor(keys, Math.floor(iteration / runners)), "load");
}

/** A client for setup() calls (index: the how-many-th of this runner's keys), which stay out of the per-endpoint figures. */
export function setupClient(config: K6Config, index: number): ApiClient {
  return clientFor(config, keyFor(runnerKeys(config).keys, index), "setup");
}

/**
 * The run's own key (ATD_HARNESS_KEY, public-API-only runs): competing demand that no scenario's traffic or webhook
 * expectations count. Undefined when the run has none.
 */
export function harnessClient(config: K6Config): ApiClient | undefined {
  const apiKey = config.harnessKey;
  if (apiKey === undefined) return undefined;
  let client = clients.setup.get(apiKey);
  if (!client) {
    client = new ApiClient({
      baseUrl: config.baseUrl,
      apiKey,
      timeout: config.requestTimeout,
      phase: "setup",
      onThrottle: "wait",
      maxThrottleWaitSeconds: 60,
      // Its bookings are left out of the webhook expectations but not out of the reservation cleanup.
      expectations: config.recordExpectations ? ownBookingRecorder() : undefined,
    });
    clients.setup.set(apiKey, client);
  }
  return client;
}
