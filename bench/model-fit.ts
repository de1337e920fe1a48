/**
 * npm run bench:model-fit: how long `harness model fit` takes on a large access log, and whether its memory stays
 * flat (streaming) rather than growing with the log.
 *
 * Writes a synthetic combined log (bench/synthetic-access-log.ts: the four built-in personas and a poller, 200
 * sessions/s over 20,000 keys) of BENCH_LOG_MB megabytes (default 1024) to a temporary file, streamed, then fits it in
 * a child process (the command's own code, fitTraffic) that samples its RSS every second. Prints a Markdown table
 * (docs/performance.md) and writes reports/bench-model-fit.json. The log is deleted afterwards.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { REPO_ROOT } from "../lib/harness/paths.ts";
import { fitTraffic } from "../lib/harness/model/fit-traffic.ts";
import { DEFAULT_FIELDS } from "../lib/harness/model/log-formats.ts";
import { writeSyntheticLog } from "./synthetic-access-log.ts";

const LOG_MB = Number(process.env.BENCH_LOG_MB ?? "1024");
const MIX = { catalogueSync: 0.15, shopper: 0.5, booker: 0.15, backOffice: 0.1, poller: 0.1 };

interface FitFigures {
  seconds: number;
  lines: number;
  sessions: number;
  personas: string[];
  peakRssMiB: number;
  /** RSS at a quarter, half, three quarters of the fit and at its end: flat if streaming holds. */
  rssMiB: number[];
}

/** The child: fits the log and prints its figures as one JSON line. */
async function fitChild(file: string): Promise<void> {
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(process.memoryUsage.rss() / 2 ** 20), 1000);
  const started = performance.now();
  const result = await fitTraffic({
    files: [file],
    format: "combined",
    fields: DEFAULT_FIELDS.combined,
    sessionGapSeconds: 30,
  });
  clearInterval(timer);
  samples.push(process.memoryUsage.rss() / 2 ** 20);
  const at = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0);
  const figures: FitFigures = {
    seconds: Math.round((performance.now() - started) / 100) / 10,
    lines: result.counts.lines,
    sessions: result.fitted.source.sessions,
    personas: result.fitted.personas.map((p) => `${p.name} ${(p.share * 100).toFixed(1)}%`),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    rssMiB: [at(0.25), at(0.5), at(0.75), at(1)],
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

function runChild(file: string): Promise<FitFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, "bench/model-fit.ts"), "--fit", file], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => {
      if (code === 0) resolve(JSON.parse(out) as FitFigures);
      else reject(new Error(`the fit exited ${String(code)}`));
    });
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-model-fit-"));
  const file = path.join(dir, "access.log");
  try {
    const writeStart = performance.now();
    const out = createWriteStream(file);
    await writeSyntheticLog(out, { mix: MIX, sessionsPerSecond: 200, keys: 20_000, bytes: LOG_MB * 2 ** 20 });
    out.end();
    await finished(out);
    const mb = statSync(file).size / 2 ** 20;
    console.log(`Wrote ${mb.toFixed(0)} MiB in ${((performance.now() - writeStart) / 1000).toFixed(0)} s; fitting...`);
    const f = await runChild(file);
    const perGb = (f.seconds * 1024) / mb;
    console.log("| log | lines | sessions | fit time | per GiB | peak RSS | RSS at 1/4, 1/2, 3/4, end |");
    console.log("| --- | --- | --- | --- | --- | --- | --- |");
    console.log(
      `| ${mb.toFixed(0)} MiB | ${String(f.lines)} | ${String(f.sessions)} | ${f.seconds.toFixed(1)} s | ${perGb.toFixed(0)} s | ${String(f.peakRssMiB)} MiB | ${f.rssMiB.join(", ")} MiB |`,
    );
    console.log(`Personas: ${f.personas.join(", ")}`);
    mkdirSync(path.join(REPO_ROOT, "reports"), { recursive: true });
    writeFileSync(
      path.join(REPO_ROOT, "reports", "bench-model-fit.json"),
      `${JSON.stringify({ logMiB: Math.round(mb), ...f, secondsPerGiB: Math.round(perGb) }, null, 2)}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fitAt = process.argv.indexOf("--fit");
await (fitAt >= 0 ? fitChild(process.argv[fitAt + 1] ?? "") : main());
