/**
 * npm run bench:capacity: does `harness run capacity` find the reference service's knee near its real peak?
 *
 * In one run on this machine, with the service on the same CPU budget throughout (BENCH_SERVICE_CPUS, default 0.15
 * cores: a cgroup, as `harness run --service-cpus` sets; k6 shares the host's cores and must not be the bottleneck):
 * 1. the peak: wrk against the single-date price request the capacity scenario sends (same product type, keys and
 *    service flags), as bench:service measures it with BENCH_SERVICE_CPUS;
 * 2. a coarse capacity run over the default steps, which locates the knee;
 * 3. a fine capacity run over the range the coarse run proposes (--capacity-rates, its refineRates figure).
 * The figure is the fine knee over the peak (goal: at least 0.8). Prints a Markdown table (docs/performance.md) and
 * writes reports/bench-capacity.json.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addDays, todayUtc } from "../lib/contract/index.ts";
import { REPO_ROOT } from "../lib/harness/paths.ts";
import { EmbeddedTarget } from "../lib/harness/targets/embedded-target.ts";
import { WRK, wrk, writeKeysScript } from "./wrk.ts";

const CPUS = Number(process.env.BENCH_SERVICE_CPUS ?? "0.15");
const HOLD = process.env.BENCH_HOLD ?? "5s";
const PEAK_SECONDS = Number(process.env.BENCH_SECONDS ?? "10");
const SERVICE_ARGS = "--rate-limit 1000000";

interface CapacityFigures {
  kneeOfferedPerSecond?: number;
  kneeThroughputPerSecond?: number;
  kneeP95Ms?: number;
  kneeBoundBy?: string;
  refineRates?: string;
}

/** The request scenarios/capacity.ts's setup picks: the first product type of the first products, a day past lead. */
async function capacityRequest(apiUrl: string, key: string): Promise<string> {
  const get = async (path: string) => {
    const res = await fetch(`${apiUrl}${path}`, { headers: { "X-Authorization": key } });
    return (await res.json()) as { data?: Record<string, unknown> | Record<string, unknown>[] };
  };
  const products = (await get("/v2/products?page=1&per_page=10")).data as Record<string, unknown>[];
  for (const product of products) {
    const types = (await get(`/v2/products/${String(product.uuid)}/product-types`)).data as Record<string, unknown>[];
    const type = types[0];
    if (!type) continue;
    const detail = (await get(`/v2/product-types/${String(type.uuid)}`)).data as Record<string, unknown>;
    const lead = typeof detail.daysInAdvance === "number" ? detail.daysInAdvance : 0;
    return `${apiUrl}/v2/product-types/${String(type.uuid)}/price-lists/${addDays(todayUtc(), lead + 1)}`;
  }
  throw new Error("no product type to price");
}

async function peak(dir: string): Promise<{ rps: number; p99ms: number; non2xx: number }> {
  await using target = await new EmbeddedTarget().withServiceArgs(SERVICE_ARGS.split(" ")).withCpuBudget(CPUS).start();
  const keys = (await target.control.partners()).map((p) => p.apiKey);
  const url = await capacityRequest(target.apiUrl, keys[0] ?? "");
  return wrk(url, writeKeysScript(dir, keys), PEAK_SECONDS);
}

function capacityRun(out: string, extra: string[]): CapacityFigures {
  const args = [
    join(REPO_ROOT, "scripts/harness.js"),
    "run",
    "capacity",
    "--duration",
    HOLD,
    "--service-cpus",
    String(CPUS),
    "--service-args",
    SERVICE_ARGS,
    "--out",
    out,
    ...extra,
  ];
  const result = spawnSync(process.execPath, args, { encoding: "utf8", env: { ...process.env, CI: "1" } });
  const summaryPath = /^summary: (.+)$/m.exec(result.stdout)?.[1];
  if (result.status !== 0 || summaryPath === undefined) {
    throw new Error(`harness run capacity exited ${String(result.status)}:\n${result.stdout}${result.stderr}`);
  }
  const summary = JSON.parse(readFileSync(join(process.cwd(), summaryPath), "utf8")) as {
    extensions: { name: string; figures: CapacityFigures }[];
  };
  const figures = summary.extensions.find((e) => e.name === "capacity")?.figures;
  if (!figures) throw new Error("the run has no capacity figures");
  return figures;
}

async function main(): Promise<void> {
  if (!existsSync(WRK)) {
    process.stderr.write(`wrk is missing at ${WRK}; install it (apt-get install wrk) to run this benchmark.\n`);
    process.exit(1);
  }
  const dir = mkdtempSync(join(tmpdir(), "atd-bench-capacity-"));
  const peakRun = await peak(dir);
  const coarse = capacityRun(dir, []);
  const fine = coarse.refineRates ? capacityRun(dir, ["--capacity-rates", coarse.refineRates]) : coarse;
  const knee = fine.kneeThroughputPerSecond ?? 0;
  const result = {
    date: new Date().toISOString(),
    serviceCpus: CPUS,
    hold: HOLD,
    peak: peakRun,
    coarse,
    fine,
    kneeOverPeak: Number((knee / peakRun.rps).toFixed(2)),
  };
  mkdirSync(join(REPO_ROOT, "reports"), { recursive: true });
  writeFileSync(join(REPO_ROOT, "reports/bench-capacity.json"), `${JSON.stringify(result, null, 2)}\n`);
  const fmt = (n: number | undefined) => (n === undefined ? "-" : Math.round(n).toLocaleString("en-US"));
  const lines = [
    `Service CPU budget ${String(CPUS)} cores, holds of ${HOLD}, wrk -t1 -c64 -d${String(PEAK_SECONDS)}s for the peak.`,
    "",
    "| Peak (wrk) | Coarse knee (offered / achieved) | Bound by | Fine rates | Fine knee (offered / achieved) | p95 at knee | Bound by | Knee / peak |",
    "|---|---|---|---|---|---|---|---|",
    `| ${fmt(peakRun.rps)}/s | ${fmt(coarse.kneeOfferedPerSecond)} / ${fmt(coarse.kneeThroughputPerSecond)} | ${coarse.kneeBoundBy ?? "-"} | ${coarse.refineRates ?? "-"} | ${fmt(fine.kneeOfferedPerSecond)} / ${fmt(fine.kneeThroughputPerSecond)} | ${(fine.kneeP95Ms ?? 0).toFixed(1)} ms | ${fine.kneeBoundBy ?? "-"} | ${String(result.kneeOverPeak)} |`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:capacity failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
