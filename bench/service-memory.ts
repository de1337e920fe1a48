/**
 * npm run bench:service-memory: does the reference service's memory stay flat under constant load?
 *
 * The service with --products 20000 (BENCH_PRODUCTS) takes BENCH_RATE requests/s (default 1,000; k6
 * constant-arrival-rate, a bare script, so the generator stays light) for BENCH_SECONDS (default 600), spread over
 * the catalogue reads partners make most (products list, product, product types, single-date price) and 5,000 API
 * keys. Its RSS is read from /proc every 5 s; after a warm-up (BENCH_WARMUP_SECONDS, default 60: JIT, caches, heap
 * sizing) the slope of RSS over time is fitted by least squares (simple-statistics). Goal: no growth, i.e. a slope
 * within the noise of a flat line (under 1 MiB/min here) and a final RSS within 5% of the RSS after warm-up.
 * Prints a Markdown table (docs/performance.md) and writes reports/bench-service-memory.json.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { linearRegression } from "simple-statistics";
import { addDays, todayUtc } from "../lib/contract/index.ts";
import { resolveK6 } from "../lib/harness/k6-binary.ts";
import { REPO_ROOT } from "../lib/harness/paths.ts";

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? "20000");
const RATE = Number(process.env.BENCH_RATE ?? "1000");
const SECONDS = Number(process.env.BENCH_SECONDS ?? "600");
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? "60");
const KEYS = 5000;
const TOKEN = "bench-control-token";
const SAMPLE_MS = 5000;

function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${String(pid)}/status`, "utf8"))?.[1];
  return kb === undefined ? NaN : Number(kb) / 1024;
}

function listening(child: ChildProcess): Promise<{ api: string; control: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error("the service did not start within 60 s"));
    }, 60_000);
    if (child.stdout === null) throw new Error("no stdout");
    createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as { api: string; control: string });
    });
  });
}

async function main(): Promise<void> {
  const k6 = await resolveK6();
  const dir = mkdtempSync(join(tmpdir(), "atd-bench-memory-"));
  const service = spawn(
    process.execPath,
    [
      join(REPO_ROOT, "service/main.ts"),
      ...["--port", "0", "--control-port", "0", "--control-token", TOKEN],
      ...["--products", String(PRODUCTS), "--rate-limit", "1000000"],
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const children: ChildProcess[] = [service];
  try {
    const started = await listening(service);
    const pid = service.pid ?? 0;
    const ctl = (path: string, init?: RequestInit) =>
      fetch(`${started.control}${path}`, {
        ...init,
        headers: { "X-Control-Token": TOKEN, "Content-Type": "application/json" },
      });
    await registerKeys(ctl);
    const paths = await requestPaths(ctl);
    const script = join(dir, "constant-load.js");
    writeFileSync(script, constantLoadScript(started.api, paths));
    const summary = join(dir, "summary.json");
    const load = spawn(k6, ["run", "--quiet", "--summary-export", summary, script], {
      stdio: "ignore",
      env: { ...process.env, K6_NO_USAGE_REPORT: "true" },
    });
    children.push(load);
    const t0 = Date.now();
    const samples: [number, number][] = [[0, rssMiB(pid)]];
    const timer = setInterval(() => {
      samples.push([(Date.now() - t0) / 1000, rssMiB(pid)]);
    }, SAMPLE_MS);
    const code = await new Promise<number | null>((resolve) => load.once("exit", resolve));
    clearInterval(timer);
    if (code !== 0) throw new Error(`k6 exited with ${String(code)}`);
    const metrics = (JSON.parse(readFileSync(summary, "utf8")) as { metrics: Record<string, Record<string, number>> })
      .metrics;
    const result = memoryResult(samples, metrics);
    mkdirSync(join(REPO_ROOT, "reports"), { recursive: true });
    writeFileSync(join(REPO_ROOT, "reports/bench-service-memory.json"), `${JSON.stringify(result, null, 2)}\n`);
    const lines = [
      `Products: ${String(PRODUCTS)}, ${String(RATE)} requests/s for ${String(SECONDS)} s (k6, ${String(paths.length)} paths, ${String(KEYS)} keys), warm-up ${String(WARMUP_SECONDS)} s.`,
      "",
      "| Requests | Failed | p99 (ms) | RSS start | RSS after warm-up | RSS end | RSS max | Slope after warm-up | End / warm |",
      "|---|---|---|---|---|---|---|---|---|",
      `| ${String(result.requests)} | ${String(result.failedRate)} | ${(result.p99ms ?? NaN).toFixed(1)} | ${String(result.rssStartMiB)} MiB | ${String(result.rssAfterWarmupMiB)} MiB | ${String(result.rssEndMiB)} MiB | ${String(result.rssMaxMiB)} MiB | ${String(result.slopeMiBPerMinute)} MiB/min | ${String(result.endOverWarm)} |`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  }
}

type Control = (path: string, init?: RequestInit) => Promise<Response>;

/** KEYS partners, made 100 at a time through the control API. */
async function registerKeys(ctl: Control): Promise<void> {
  for (let i = 0; i < KEYS; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, j) =>
        ctl(`/__control/partners/bench-${String(i + j).padStart(5, "0")}`, { method: "PUT", body: "{}" }),
      ),
    );
  }
}

/** The paths the load spreads over: 50 product types' product, types and price list, and two list pages. */
async function requestPaths(ctl: Control): Promise<string[]> {
  const types = (await (await ctl("/__control/product-types?limit=50")).json()) as {
    data: { uuid: string; productUuid: string }[];
  };
  const date = addDays(todayUtc(), 10);
  const paths = types.data.flatMap((t) => [
    `/v2/products/${t.productUuid}`,
    `/v2/products/${t.productUuid}/product-types`,
    `/v2/product-types/${t.uuid}/price-lists/${date}`,
  ]);
  paths.push("/v2/products?per_page=10", "/v2/products?per_page=50&page=3");
  return paths;
}

/** The k6 script: RATE requests a second over the paths, each with one of the KEYS keys. */
function constantLoadScript(api: string, paths: readonly string[]): string {
  return `import http from "k6/http";
const paths = ${JSON.stringify(paths)};
export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ["p(50)", "p(99)"],
  scenarios: { constant: { executor: "constant-arrival-rate", rate: ${String(RATE)}, timeUnit: "1s",
    duration: "${String(SECONDS)}s", preAllocatedVUs: 50, maxVUs: 200 } },
};
export default function () {
  const n = __ITER * 7919 + __VU;
  http.get("${api}" + paths[n % paths.length], {
    headers: { "X-Authorization": "bench-" + String(n % ${String(KEYS)}).padStart(5, "0") },
  });
}
`;
}

/** RSS at the start, after warm-up, at the end and its slope after warm-up, with k6's figures of the load. */
function memoryResult(samples: [number, number][], metrics: Record<string, Record<string, number>>) {
  const after = samples.filter(([t]) => t >= WARMUP_SECONDS);
  if (after.length < 3) throw new Error("too few samples after warm-up: raise BENCH_SECONDS");
  const fit = linearRegression(after.map(([t, rss]) => [t / 60, rss]));
  const warm = after[0]?.[1] ?? NaN;
  const last = after.at(-1)?.[1] ?? NaN;
  const result = {
    date: new Date().toISOString(),
    products: PRODUCTS,
    ratePerSecond: RATE,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    requests: metrics.http_reqs?.count,
    failedRate: metrics.http_req_failed?.value,
    p99ms: metrics.http_req_duration?.["p(99)"],
    rssStartMiB: Math.round(samples[0]?.[1] ?? NaN),
    rssAfterWarmupMiB: Math.round(warm),
    rssEndMiB: Math.round(last),
    rssMaxMiB: Math.round(Math.max(...after.map(([, r]) => r))),
    slopeMiBPerMinute: Number(fit.m.toFixed(2)),
    endOverWarm: Number((last / warm).toFixed(3)),
    samples,
  };
  return result;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:service-memory failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
