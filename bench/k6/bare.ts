/**
 * bench:harness, the baseline: the same requests with plain k6 calls, no parsing, no checks, no tags: what k6
 * costs before the harness adds anything.
 */
import exec from "k6/execution";
import http from "k6/http";
import { benchUrls, type BenchTargets } from "./requests.ts";

const keys = (__ENV.ATD_API_KEYS ?? "").split(",");
const urls = benchUrls(__ENV.ATD_BASE_URL ?? "", JSON.parse(__ENV.BENCH_TARGETS ?? "{}") as BenchTargets);

export const options = { summaryTrendStats: ["count"] };

export default function bare(): void {
  const n = exec.scenario.iterationInTest;
  http.get(urls[n % urls.length] ?? "", { headers: { "X-Authorization": keys[n % keys.length] ?? "" } });
}
