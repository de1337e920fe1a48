/** Which API key a VU speaks with: keys are spread over VUs so that load scales past one key's allowance. */
import exec from "k6/execution";
import http from "k6/http";
import { ApiClient } from "./client.ts";
import type { K6Config } from "./config.ts";

const clients = new Map<string, ApiClient>();

/** 429 is an expected answer for load scenarios (counted as a throttle, not as a failed request). */
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

export function keyForVu(config: K6Config, vuId: number): string {
  // VU ids start at 1; keys are handed out round-robin.
  return config.apiKeys[(vuId - 1) % config.apiKeys.length] as string;
}

/** This VU's client, made once per VU (VUs are reused across iterations). */
export function partnerClient(config: K6Config): ApiClient {
  const apiKey = keyForVu(config, exec.vu.idInTest);
  let client = clients.get(apiKey);
  if (!client) {
    client = new ApiClient({
      baseUrl: config.baseUrl,
      apiKey,
      timeout: config.requestTimeout,
      onThrottle: "wait",
      maxThrottleWaitSeconds: 60,
    });
    clients.set(apiKey, client);
  }
  return client;
}
