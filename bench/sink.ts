/**
 * npm run bench:sink: the webhook sink (lib/harness/webhooks/sink.ts, signature verification on) in a child process
 * pinned to one core (taskset -c 0), driven by a keep-alive HTTP load generator pinned to the other core.
 *
 * 1. Throughput: wrk (32 connections) cycles through 1,000 pre-signed deliveries as fast as the sink answers, for
 *    BENCH_SECONDS (default 5).
 * 2. Added latency: after 2,000 warm-up deliveries, at 1,000 deliveries/s, each body carries the sender's timestamp taken right before the request
 *    is written (the direct timestamp); the sink's arrival stamp minus it is what the sink adds to every latency it
 *    measures (loopback, parsing, event-loop wait), p50/p99/max from an HDR histogram.
 * Prints a Markdown table (paste into docs/performance.md) and writes reports/bench-sink.json.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { LatencyHistogram } from "../lib/harness/webhooks/latency.ts";
import { WebhookSink, monotonicNow } from "../lib/harness/webhooks/sink.ts";

const ROOT = join(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? "5");
const CONNECTIONS = 32;
const WRK = "/usr/bin/wrk";
const WARMUP = 2000;
const PACED_RATE = 1000;
const PACED_SECONDS = 3;
const SECRET = `whsec_${randomBytes(24).toString("base64")}`;

interface SinkReport {
  deliveries: number;
  invalid: number;
  firstArrival: number;
  lastArrival: number;
  added: ReturnType<LatencyHistogram["summary"]>;
}

/** The child: one sink, one endpoint; on "report" it sends what it measured and exits. */
async function sinkRole(): Promise<void> {
  const sink = new WebhookSink({ host: "127.0.0.1", port: 0 });
  sink.addEndpoint(0, sinkSecret());
  await sink.start();
  process.send?.({ url: sink.endpointUrl(0) });
  process.on("message", (message) => {
    if (message === "reset") {
      sink.deliveries.length = 0;
      process.send?.("reset");
      return;
    }
    if (message !== "report") return;
    const added = new LatencyHistogram();
    let invalid = 0;
    for (const d of sink.deliveries) {
      if (!d.signatureValid || !d.timestampValid) invalid++;
      const sentAt = (JSON.parse(d.body) as { data: { sentAt: number } }).data.sentAt;
      added.record(d.arrivedAt - sentAt);
    }
    const arrivals = sink.deliveries.map((d) => d.arrivedAt);
    const report: SinkReport = {
      deliveries: sink.deliveries.length,
      invalid,
      firstArrival: Math.min(...arrivals),
      lastArrival: Math.max(...arrivals),
      added: added.summary(),
    };
    process.send?.(report, () => {
      void sink.close().then(() => process.exit(0));
    });
  });
}

function sinkSecret(): string {
  return process.env.BENCH_SINK_SECRET ?? "";
}

function startSink(): Promise<{ url: string; report: () => Promise<SinkReport>; reset: () => Promise<void> }> {
  const child = spawn("taskset", ["-c", "0", process.execPath, import.meta.filename, "--sink"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, BENCH_SINK_SECRET: SECRET },
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("message", (message: { url: string }) => {
      resolve({
        url: message.url,
        reset: () =>
          new Promise((done) => {
            child.once("message", () => {
              done();
            });
            child.send("reset");
          }),
        report: () =>
          new Promise((done) => {
            child.once("message", (report: SinkReport) => {
              done(report);
            });
            child.send("report");
          }),
      });
    });
  });
}

let seq = 0;
function send(agent: Agent, url: URL): Promise<void> {
  const id = `msg_bench_${++seq}`;
  const sentAt = monotonicNow();
  const body = JSON.stringify({
    type: "booking_status_updated",
    timestamp: new Date().toISOString(),
    data: { bookingUuid: `b-${seq % 1000}`, status: "approved", sentAt },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const key = Buffer.from(SECRET.slice(6), "base64");
  const signature = `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "webhook-id": id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signature,
        },
      },
      (res) => {
        res.resume();
        res.once("end", resolve);
      },
    );
    req.once("error", reject);
    req.end(body);
  });
}

/** wrk (1 thread, pinned with this process to the other core) cycling through pre-signed deliveries. */
async function throughput(): Promise<{ perSecond: number; report: SinkReport }> {
  const sink = await startSink();
  const url = new URL(sink.url);
  const key = Buffer.from(SECRET.slice(6), "base64");
  const timestamp = Math.floor(Date.now() / 1000);
  const requests = Array.from({ length: 1000 }, (_, i) => {
    const id = `msg_wrk_${i}`;
    const body = JSON.stringify({
      type: "booking_status_updated",
      timestamp: new Date().toISOString(),
      data: { bookingUuid: `b-${i}`, status: "approved", sentAt: 0 },
    });
    const signature = `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
    return [
      `POST ${url.pathname} HTTP/1.1`,
      `Host: ${url.host}`,
      "Content-Type: application/json",
      `webhook-id: ${id}`,
      `webhook-timestamp: ${timestamp}`,
      `webhook-signature: ${signature}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      "",
      body,
    ].join("\r\n");
  });
  const dir = mkdtempSync(join(tmpdir(), "bench-sink-"));
  const script = join(dir, "deliveries.lua");
  writeFileSync(
    script,
    `local reqs = {\n${requests.map((r) => `[==[${r}]==]`).join(",\n")}\n}\nlocal i = 0\nrequest = function()\n  i = i % #reqs + 1\n  return reqs[i]\nend\n`,
  );
  const wrk = spawnSync(WRK, ["-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "-s", script, sink.url], {
    encoding: "utf8",
  });
  if (wrk.status !== 0) throw new Error(`Failed to run wrk: ${wrk.stderr}. Please install wrk (apt-get install wrk).`);
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(wrk.stdout)?.[1] ?? "0");
  return { perSecond, report: await sink.report() };
}

async function addedLatency(): Promise<SinkReport> {
  const sink = await startSink();
  const url = new URL(sink.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  // Connections opened and code compiled before the measurement, as in a run that has been going for a while.
  for (let i = 0; i < WARMUP; i += 8) await Promise.all(Array.from({ length: 8 }, () => send(agent, url)));
  await sink.reset();
  const pending: Promise<void>[] = [];
  const start = monotonicNow();
  for (let i = 0; i < PACED_RATE * PACED_SECONDS; i++) {
    const due = start + (i * 1000) / PACED_RATE;
    const wait = due - monotonicNow();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(send(agent, url));
  }
  await Promise.all(pending);
  agent.destroy();
  return sink.report();
}

async function main(): Promise<void> {
  const peak = await throughput();
  const paced = await addedLatency();
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const result = {
    machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
    throughput: {
      deliveriesPerSecond: Math.round(peak.perSecond),
      deliveries: peak.report.deliveries,
      invalid: peak.report.invalid,
    },
    addedLatencyMs: { rate: PACED_RATE, ...paced.added, invalid: paced.invalid },
  };
  mkdirSync(join(ROOT, "reports"), { recursive: true });
  writeFileSync(join(ROOT, "reports/bench-sink.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log("| measure | value |");
  console.log("| --- | --- |");
  console.log(
    `| deliveries/s, one core, signatures verified (${CONNECTIONS} connections, ${SECONDS} s) | ${result.throughput.deliveriesPerSecond} |`,
  );
  console.log(`| deliveries that failed verification | ${peak.report.invalid + paced.invalid} |`);
  console.log(
    `| added latency at ${PACED_RATE}/s: p50 / p99 / max (ms) | ${round(paced.added.p50Ms)} / ${round(paced.added.p99Ms)} / ${round(paced.added.maxMs)} |`,
  );
}

if (process.argv.includes("--sink")) {
  await sinkRole();
} else {
  // The generator on the other core, so that it does not take the sink's.
  if (!process.env.BENCH_PINNED) {
    const child = spawn("taskset", ["-c", "1", process.execPath, import.meta.filename], {
      stdio: "inherit",
      env: { ...process.env, BENCH_PINNED: "1" },
    });
    child.once("exit", (code) => process.exit(code ?? 1));
  } else {
    await main();
  }
}
