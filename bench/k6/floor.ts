/**
 * bench:harness, the floor (BENCH_FLOOR=1): the least the harness must do with every answer inside k6, and nothing
 * else. The same requests as bare.ts, with the client's request parameters (its headers, the endpoint's tags, the
 * timeout: per-endpoint thresholds need the tag), the three rate-limit headers read off k6's Go spelling, the pacing
 * state of the key (Limit constant, Remaining below it, Remaining not rising within the window), and one check()
 * with the five per-answer conditions. No shape sample, no list read, no problem texts.
 *
 * It is not a harness: it bounds what any harness that keeps the per-answer checks in k6 can reach against bare.
 */
import { check } from "k6";
import exec from "k6/execution";
import http from "k6/http";
import { BENCH_REQUESTS, benchUrls, type BenchTargets } from "./requests.ts";

const keys = (__ENV.ATD_API_KEYS ?? "").split(",");
const urls = benchUrls(__ENV.ATD_BASE_URL ?? "", JSON.parse(__ENV.BENCH_TARGETS ?? "{}") as BenchTargets);

export const options = { summaryTrendStats: ["count"] };

/** Params per key and request, made once: k6 gets the same object every time. */
const params = keys.map((key) =>
  BENCH_REQUESTS.map((endpoint) => ({
    headers: { "X-Authorization": key, Accept: "application/json", "Accept-Encoding": "gzip" },
    timeout: "10s",
    tags: { endpoint, name: endpoint },
  })),
);
/** Check names per request, made once. */
const names = BENCH_REQUESTS.map((endpoint) => [
  `${endpoint} status`,
  `${endpoint} rate-limit headers`,
  "rate limit constant",
  "remaining below limit",
  "remaining never rises",
]);
const views: Record<string, { limit: number; remaining: number; reset: string }> = {};

export default function floor(): void {
  const n = exec.scenario.iterationInTest;
  const k = n % keys.length;
  const r = n % urls.length;
  const res = http.get(urls[r] ?? "", params[k]?.[r]);
  const h = res.headers;
  const limit = Number(h["X-Ratelimit-Limit"]);
  const remaining = Number(h["X-Ratelimit-Remaining"]);
  const reset = h["X-Ratelimit-Reset"] ?? "";
  const key = keys[k] ?? "";
  const view = views[key];
  const nm = names[r] ?? [];
  const results: Record<string, boolean> = {};
  results[nm[0] ?? ""] = res.status === 200;
  results[nm[1] ?? ""] = Number.isInteger(limit) && limit > 0 && Number.isInteger(remaining) && remaining <= limit;
  if (view === undefined) {
    views[key] = { limit, remaining, reset };
  } else {
    results[nm[2] ?? ""] = limit === view.limit;
    results[nm[3] ?? ""] = remaining < limit;
    results[nm[4] ?? ""] = remaining <= view.remaining || reset !== view.reset;
    view.limit = limit;
    view.remaining = remaining;
    view.reset = reset;
  }
  check(null, results as never);
}
