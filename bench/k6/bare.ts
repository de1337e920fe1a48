/**
 * bench:harness, the baseline: the same requests with plain k6 calls, no parsing, no checks, no tags: what k6
 * costs before the harness adds anything.
 *
 * Two variants for the other benches, chosen by the environment:
 * - BENCH_CHECKS=1 (bench:peer): three checks per answer, what a user of bare k6 would write and what Artillery's
 *   `expect` does in the same bench: status 200, a JSON content type, a `data` property in the body.
 * - BENCH_RATE (bench:soak-memory): an open model, BENCH_RATE iterations a second for BENCH_DURATION, with two
 *   thresholds, as a user of bare k6 would run a soak.
 */
import { check } from "k6";
import exec from "k6/execution";
import http from "k6/http";
import type { Options } from "k6/options";
import { benchUrls, type BenchTargets } from "./requests.ts";

const keys = (__ENV.ATD_API_KEYS ?? "").split(",");
const urls = benchUrls(__ENV.ATD_BASE_URL ?? "", JSON.parse(__ENV.BENCH_TARGETS ?? "{}") as BenchTargets);
const CHECKS = __ENV.BENCH_CHECKS === "1";
const RATE = Number(__ENV.BENCH_RATE ?? "0");

function openModel(rate: number, duration: string): Options {
  return {
    scenarios: {
      bare: {
        executor: "constant-arrival-rate",
        rate,
        timeUnit: "1s",
        duration,
        preAllocatedVUs: 20,
        maxVUs: 100,
      },
    },
    thresholds: { http_req_duration: ["p(95)<500"], http_req_failed: ["rate<0.01"] },
  };
}

export const options: Options =
  RATE > 0 ? openModel(RATE, __ENV.BENCH_DURATION ?? "60s") : { summaryTrendStats: ["count"] };

export default function bare(): void {
  const n = exec.scenario.iterationInTest;
  const res = http.get(urls[n % urls.length] ?? "", { headers: { "X-Authorization": keys[n % keys.length] ?? "" } });
  if (CHECKS) {
    check(res, {
      "status is 200": (r) => r.status === 200,
      "content type is JSON": (r) => String(r.headers["Content-Type"]).startsWith("application/json"),
      "body has data": (r) => r.json("data") != null,
    });
  }
}
