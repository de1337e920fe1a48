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
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { LatencyHistogram } from "../lib/harness/latency-histogram.ts";
import { monotonicNow } from "../lib/harness/monotonic-now.ts";
import { WebhookSink } from "../lib/harness/webhooks/sink.ts";

const ROOT = join(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? "5");
const CONNECTIONS = 32;
const WRK = "/usr/bin/wrk";
const WARMUP = 2000;
const PACED_RATE = 1000;
const PACED_SECONDS = 3;
const PACED_CONNECTIONS = 16;
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

/** A signed delivery as raw HTTP/1.1 bytes, for wrk's script and for the paced sender alike. */
function signedRequest(url: URL, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(SECRET.slice(6), "base64");
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
}

let seq = 0;
/** One delivery, its body stamped with the time it is handed to the socket. */
function delivery(url: URL): string {
  const id = `msg_bench_${++seq}`;
  const body = JSON.stringify({
    type: "booking_status_updated",
    timestamp: new Date().toISOString(),
    data: { bookingUuid: `b-${seq % 1000}`, status: "approved", sentAt: monotonicNow() },
  });
  return signedRequest(url, id, Math.floor(Date.now() / 1000), body);
}

/** The empty last chunk of a chunked answer: node:http answers an empty body that way. */
const LAST_CHUNK = "0\r\n\r\n";

/**
 * Keep-alive connections written to directly: a delivery goes out on an idle connection the moment it is due, so the
 * sender adds no queue of its own (node:http's agent queued requests behind busy sockets, and that wait was counted
 * as the sink's: p99 24 ms with 8 sockets, 8.5 ms with 64, on an idle host). The sink answers each delivery with an
 * empty body, so an answer ends at its blank line, or at the empty last chunk when node:http chose chunked encoding.
 */
class RawSender {
  readonly #url: URL;
  readonly #idle: Socket[] = [];
  readonly #all: Socket[] = [];
  #outstanding = 0;
  #backlog = 0;
  #drained: (() => void) | undefined;
  /** Deliveries that were due while every connection was busy (sent late, on the next free connection). */
  waitedForConnection = 0;

  private constructor(url: URL) {
    this.#url = url;
  }

  static async open(url: URL, connections: number): Promise<RawSender> {
    const sender = new RawSender(url);
    await Promise.all(
      Array.from(
        { length: connections },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true }, () => {
              sender.#adopt(socket);
              resolve();
            });
            socket.once("error", reject);
          }),
      ),
    );
    return sender;
  }

  send(): void {
    const socket = this.#idle.pop();
    if (socket === undefined) {
      this.waitedForConnection++;
      this.#backlog++;
    } else {
      this.#write(socket);
    }
  }

  drain(): Promise<void> {
    if (this.#outstanding === 0 && this.#backlog === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#drained = resolve));
  }

  close(): void {
    for (const socket of this.#all) socket.destroy();
  }

  #adopt(socket: Socket): void {
    this.#all.push(socket);
    this.#idle.push(socket);
    let tail = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      const text = tail + chunk;
      let from = 0;
      for (let end = text.indexOf("\r\n\r\n"); end !== -1; end = text.indexOf("\r\n\r\n", from)) {
        // node:http sends an empty body as one empty chunk, so a chunked answer ends at that chunk, not its headers.
        const chunked = /transfer-encoding: chunked/i.test(text.slice(from, end));
        if (chunked && text.length < end + 4 + LAST_CHUNK.length) break;
        from = end + 4 + (chunked ? LAST_CHUNK.length : 0);
        this.#answered(socket);
      }
      tail = text.slice(from);
    });
  }

  #write(socket: Socket): void {
    this.#outstanding++;
    socket.write(delivery(this.#url));
  }

  #answered(socket: Socket): void {
    this.#outstanding--;
    if (this.#backlog > 0) {
      this.#backlog--;
      this.#write(socket);
      return;
    }
    this.#idle.push(socket);
    if (this.#outstanding === 0) this.#drained?.();
  }
}

/** wrk (1 thread, pinned with this process to the other core) cycling through pre-signed deliveries. */
async function throughput(): Promise<{ perSecond: number; report: SinkReport }> {
  const sink = await startSink();
  const url = new URL(sink.url);
  const timestamp = Math.floor(Date.now() / 1000);
  const requests = Array.from({ length: 1000 }, (_, i) =>
    signedRequest(
      url,
      `msg_wrk_${i}`,
      timestamp,
      JSON.stringify({
        type: "booking_status_updated",
        timestamp: new Date().toISOString(),
        data: { bookingUuid: `b-${i}`, status: "approved", sentAt: 0 },
      }),
    ),
  );
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

async function addedLatency(): Promise<SinkReport & { waitedForConnection: number }> {
  const sink = await startSink();
  const url = new URL(sink.url);
  const sender = await RawSender.open(url, PACED_CONNECTIONS);
  // Connections opened and code compiled before the measurement, as in a run that has been going for a while.
  for (let i = 0; i < WARMUP; i += PACED_CONNECTIONS) {
    for (let c = 0; c < PACED_CONNECTIONS; c++) sender.send();
    await sender.drain();
  }
  await sink.reset();
  sender.waitedForConnection = 0;
  const start = monotonicNow();
  for (let i = 0; i < PACED_RATE * PACED_SECONDS; i++) {
    const due = start + (i * 1000) / PACED_RATE;
    const wait = due - monotonicNow();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    sender.send();
  }
  await sender.drain();
  sender.close();
  return { ...(await sink.report()), waitedForConnection: sender.waitedForConnection };
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
    addedLatencyMs: {
      rate: PACED_RATE,
      connections: PACED_CONNECTIONS,
      ...paced.added,
      invalid: paced.invalid,
      waitedForConnection: paced.waitedForConnection,
    },
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
  console.log(
    `| deliveries that waited for a free connection (of ${PACED_CONNECTIONS}) | ${paced.waitedForConnection} |`,
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
