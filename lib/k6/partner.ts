/** Which API key a request speaks with: keys are spread over iterations so load scales past one key's allowance. */
import http from "k6/http";
import { ApiClient } from "./client.ts";
import type { K6Config } from "./config.ts";
import { expectationRecorder, loadWebhookSettings } from "./expectations.ts";

/** 429 is an expected answer for load scenarios (counted as a throttle, not as a failed request). */
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

const clients = new Map<string, ApiClient>();

/** Round-robin over the keys by iteration number: each key gets 1/K of the iterations whatever the VU count. */
export function keyFor(keys: readonly string[], iteration: number): string {
  return keys[iteration % keys.length] as string;
}

function clientFor(config: K6Config, apiKey: string, phase: "load" | "setup"): ApiClient {
  const id = `${phase}:${apiKey}`;
  let client = clients.get(id);
  if (!client) {
    client = new ApiClient({
      baseUrl: config.baseUrl,
      apiKey,
      timeout: config.requestTimeout,
      phase,
      onThrottle: "wait",
      maxThrottleWaitSeconds: 60,
      expectations: loadWebhookSettings(__ENV).recordExpectations
        ? expectationRecorder(config.apiKeys.indexOf(apiKey))
        : undefined,
    });
    clients.set(id, client);
  }
  return client;
}

/** The client for the n-th iteration of a scenario. */
export function partnerClient(config: K6Config, iteration: number): ApiClient {
  return clientFor(config, keyFor(config.apiKeys, iteration), "load");
}

/** A client for setup() calls, which stay out of the per-endpoint figures. */
export function setupClient(config: K6Config, index: number): ApiClient {
  return clientFor(config, keyFor(config.apiKeys, index), "setup");
}
