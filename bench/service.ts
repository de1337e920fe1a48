/**
 * npm run bench:service: the reference service against a bare node:http server returning a fixed JSON body of the
 * same size, both driven by the same load generator in one run on this machine.
 *
 * 1. Peak throughput: wrk (1 thread, 64 connections, 10 s) on the single-date price endpoint and on the products
 *    list, rotating over 5,000 API keys (a wrk Lua script), so the limiter is exercised but never hit.
 * 2. Latency at 50% of the service's peak: k6 constant-arrival-rate (wrk2 is not available), p50/p99.
 * 3. RSS of the service with --products 20000, after start and after the load.
 * BENCH_SERVICE_CPUS=0.15 gives the service and the bare server the CPU budget `harness run --service-cpus` gives
 * (a cgroup, lib/harness/targets/cpu-budget.ts): the peak the capacity knee is compared with (bench:capacity).
 * Prints a Markdown table (paste into docs/performance.md) and writes reports/bench-service.json.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { applyCpuBudget, type CpuBudget } from "../lib/harness/targets/cpu-budget.ts";
import { WRK, WRK_CONNECTIONS, wrk as wrkFor, writeKeysScript } from "./wrk.ts";

const wrk = (url: string, script: string) => wrkFor(url, script, DURATION_S);

const ROOT = join(import.meta.dirname, "..");
const NODE = process.execPath;
const K6 = join(ROOT, ".tools/bin/k6");
const KEYS = 5000;
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? "20000");
const DURATION_S = Number(process.env.BENCH_SECONDS ?? "10");
const CONNECTIONS = WRK_CONNECTIONS;
/** BENCH_SERVICE_CPUS: the service's CPU budget in cores (as harness --service-cpus); unset: unlimited. */
const CPUS = process.env.BENCH_SERVICE_CPUS ? Number(process.env.BENCH_SERVICE_CPUS) : undefined;
const TOKEN = "bench-control-token";

function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${what} did not start within 30 s`));
    }, 30_000);
    if (child.stdout === null) throw new Error("no stdout");
    createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once("exit", (code) => {
      reject(new Error(`${what} exited early with ${String(code)}`));
    });
  });
}

function rssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb === undefined ? NaN : Math.round(Number(kb) / 1024);
}

function k6AtRate(
  url: string,
  path: string,
  rate: number,
  dir: string,
): { p50ms: number; p99ms: number; failed: number } {
  const script = join(dir, `k6-${rate}.js`);
  writeFileSync(
    script,
    `import http from "k6/http";
const keys = Array.from({ length: ${KEYS} }, (_, i) => "bench-" + String(i).padStart(5, "0"));
let i = 0;
export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ["p(50)", "p(99)", "max"],
  scenarios: { rate: { executor: "constant-arrival-rate", rate: ${rate}, timeUnit: "1s", duration: "${DURATION_S}s",
    preAllocatedVUs: 100, maxVUs: 400 } },
};
export default function () {
  i = (i + 1) % keys.length;
  http.get("${url}${path}", { headers: { "X-Authorization": keys[(__VU * 7919 + i) % keys.length] } });
}
`,
  );
  const summary = join(dir, `k6-${rate}.json`);
  const out = spawnSync(K6, ["run", "--quiet", "--summary-export", summary, script], {
    encoding: "utf8",
    timeout: (DURATION_S + 60) * 1000,
    env: { ...process.env, K6_NO_USAGE_REPORT: "true" },
  });
  if (out.status !== 0) throw new Error(`k6 failed: ${out.stderr}`);
  const json = JSON.parse(readFileSync(summary, "utf8")) as {
    metrics: Record<string, Record<string, number>>;
  };
  const d = json.metrics.http_req_duration ?? {};
  return {
    p50ms: d["p(50)"] ?? NaN,
    p99ms: d["p(99)"] ?? NaN,
    failed: json.metrics.http_req_failed?.value ?? NaN,
  };
}

async function main(): Promise<void> {
  if (!existsSync(WRK)) {
    process.stderr.write(`wrk is missing at ${WRK}; install it (apt-get install wrk) to run this benchmark.\n`);
    process.exit(1);
  }
  const dir = mkdtempSync(join(tmpdir(), "atd-bench-"));
  const service = spawn(
    NODE,
    [
      join(ROOT, "service/main.ts"),
      "--port",
      "0",
      "--control-port",
      "0",
      "--products",
      String(PRODUCTS),
      "--control-token",
      TOKEN,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const children: ChildProcess[] = [service];
  const budgets: CpuBudget[] = [];
  try {
    const t0 = Date.now();
    const started = JSON.parse(await firstLine(service, "the service")) as { api: string; control: string };
    const startupMs = Date.now() - t0;
    const rssStart = rssMb(service.pid);
    // After start-up, as the harness does: a small budget would make the catalogue build crawl.
    if (CPUS !== undefined) budgets.push(await applyCpuBudget(service.pid ?? 0, CPUS));
    await registerKeys(started.control);
    const targets = await benchTargets(started.control);
    const lua = writeKeysScript(
      dir,
      Array.from({ length: KEYS }, (_, i) => `bench-${String(i).padStart(5, "0")}`),
    );
    const rows: Record<string, unknown>[] = [];
    for (const [name, path] of Object.entries(targets)) {
      rows.push(await measureEndpoint(name, path, { api: started.api, dir, lua, children, budgets }));
    }
    const rssAfter = rssMb(service.pid);
    const result = {
      date: new Date().toISOString(),
      products: PRODUCTS,
      keys: KEYS,
      serviceCpus: CPUS ?? null,
      durationSeconds: DURATION_S,
      connections: CONNECTIONS,
      startupMs,
      rssStartMb: rssStart,
      rssAfterLoadMb: rssAfter,
      rows,
    };
    mkdirSync(join(ROOT, "reports"), { recursive: true });
    writeFileSync(join(ROOT, "reports/bench-service.json"), `${JSON.stringify(result, null, 2)}\n`);
    const lines = [
      `Products: ${PRODUCTS}, keys: ${KEYS}, service CPU budget: ${CPUS === undefined ? "none" : `${String(CPUS)} cores`}, wrk -t1 -c${CONNECTIONS} -d${DURATION_S}s; startup ${startupMs} ms; RSS ${rssStart} MB after start, ${rssAfter} MB after the load.`,
      "",
      "| Endpoint | Body bytes | Service req/s | Bare req/s | Ratio | Non-2xx | Rate at 50% | p50 at 50% (ms) | p99 at 50% (ms) | Bare p99 at same rate (ms) | p99 at 1000/s (ms) |",
      "|---|---|---|---|---|---|---|---|---|---|---|",
      ...rows.map(
        (r) =>
          `| ${String(r.endpoint)} | ${String(r.bodyBytes)} | ${String(r.serviceRps)} | ${String(r.bareRps)} | ${String(r.ratio)} | ${String(r.serviceNon2xx)} | ${String(r.halfRate)}/s | ${String(r.serviceP50msAtHalf)} | ${String(r.serviceP99msAtHalf)} | ${String(r.bareP99msAtHalf)} | ${String(r.serviceP99msAt1000)} |`,
      ),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
    for (const b of budgets) await b.release();
  }
}

/** KEYS partners, made 100 at a time through the control API. */
async function registerKeys(control: string): Promise<void> {
  const ctl = (path: string, body: unknown) =>
    fetch(`${control}${path}`, {
      method: "PUT",
      headers: { "X-Control-Token": TOKEN, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  for (let i = 0; i < KEYS; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, j) => ctl(`/__control/partners/bench-${String(i + j).padStart(5, "0")}`, {})),
    );
  }
}

/** The two endpoints measured: a timeslotted product type's single-date price, and the products list. */
async function benchTargets(control: string): Promise<Record<string, string>> {
  const types = (await (
    await fetch(`${control}/__control/product-types?timeslotted=true&limit=1`, {
      headers: { "X-Control-Token": TOKEN },
    })
  ).json()) as { data: { uuid: string }[] };
  const pt = types.data[0]?.uuid ?? "";
  const date = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  return {
    "single-date price": `/v2/product-types/${pt}/price-lists/${date}`,
    "products list": "/v2/products?per_page=10",
  };
}

/**
 * One endpoint: wrk's top rate against the service and against the bare server answering the same body, then k6's
 * latency at half that rate (both) and at 1000/s (the service).
 */
async function measureEndpoint(
  name: string,
  path: string,
  bench: { api: string; dir: string; lua: string; children: ChildProcess[]; budgets: CpuBudget[] },
): Promise<Record<string, unknown>> {
  const sample = await fetch(`${bench.api}${path}`, { headers: { "X-Authorization": "bench-00000" } });
  const body = Buffer.from(await sample.arrayBuffer());
  const bodyFile = join(bench.dir, `${name.replace(/\W+/g, "-")}.json`);
  writeFileSync(bodyFile, body);
  const bare = spawn(NODE, [join(ROOT, "bench/bare-server.ts"), bodyFile], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  bench.children.push(bare);
  const barePort = (JSON.parse(await firstLine(bare, "the bare server")) as { port: number }).port;
  // The baseline gets the same budget, or the ratio would compare a throttled service with a free server.
  if (CPUS !== undefined) bench.budgets.push(await applyCpuBudget(bare.pid ?? 0, CPUS));
  const bareUrl = `http://127.0.0.1:${barePort}`;
  const svcRun = wrk(`${bench.api}${path}`, bench.lua);
  const bareRun = wrk(`${bareUrl}${path}`, bench.lua);
  const half = Math.max(100, Math.round(svcRun.rps / 2));
  const svcHalf = k6AtRate(bench.api, path, half, bench.dir);
  const bareHalf = k6AtRate(bareUrl, path, half, bench.dir);
  const svcLow = k6AtRate(bench.api, path, 1000, bench.dir);
  bare.kill("SIGTERM");
  return {
    endpoint: name,
    bodyBytes: body.length,
    serviceRps: svcRun.rps,
    bareRps: bareRun.rps,
    ratio: Number((svcRun.rps / bareRun.rps).toFixed(2)),
    serviceNon2xx: svcRun.non2xx,
    wrkServiceP99ms: svcRun.p99ms,
    wrkBareP99ms: bareRun.p99ms,
    halfRate: half,
    serviceP50msAtHalf: Number(svcHalf.p50ms.toFixed(2)),
    serviceP99msAtHalf: Number(svcHalf.p99ms.toFixed(2)),
    bareP99msAtHalf: Number(bareHalf.p99ms.toFixed(2)),
    serviceFailedAtHalf: svcHalf.failed,
    serviceP99msAt1000: Number(svcLow.p99ms.toFixed(2)),
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:service failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
