/** Run digests for the comparison's unit tests: one identity, endpoints with seeded latencies. */
import { prng as random } from "../../lib/harness/churn/schedule.ts";
import type { EndpointDigest, RunDigest, RunIdentity } from "../../lib/harness/compare/run-digest.ts";
import { LatencyHistogram } from "../../lib/harness/latency-histogram.ts";

export const IDENTITY: RunIdentity = {
  runId: "20261125T000000Z-partner-mix-abcd",
  startedAt: "2026-11-25T00:00:00.000Z",
  scenarios: ["partner-mix"],
  profile: "steady",
  duration: "30s",
  seed: 1,
  trafficModel: "default",
  sloTable: "default",
  target: { kind: "embedded" },
  harnessVersion: "0.1.0",
};

/** Latencies like a service with a 20 ms floor and a long tail (ms). */
export function latencies(n: number, seed: number, factor = 1): number[] {
  const r = random(seed);
  return Array.from({ length: n }, () => (20 + 3 * -Math.log(1 - r())) * factor);
}

export function endpoint(n: number, seed: number, factor = 1, errors = 0): EndpointDigest {
  return { requests: n, errors, throttles: 0, latency: LatencyHistogram.of(latencies(n, seed, factor)).encode() };
}

export function digest(endpoints: Record<string, EndpointDigest>, over: Partial<RunDigest> = {}): RunDigest {
  return { version: 1, identity: IDENTITY, verdict: "pass", seconds: 60, endpoints, extensions: {}, ...over };
}
