/**
 * Scrapes, at an interval for the length of a soak, the service's /metrics (control listener: RSS, heap, event-loop
 * lag, open connections) and the harness's own process, and appends every scrape to a JSON-lines file in the run
 * directory, so a nightly run's resource curves can be read back and compared over time.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { ResourcePoint } from "./drift.ts";

export const SOAK_RESOURCES_FILE = "soak-resources.jsonl";

export interface ResourceLine extends ResourcePoint {
  source: "service" | "harness";
}

/** The values of a Prometheus text exposition, by series as written (`name` or `name{labels}`). */
export function parsePrometheusText(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    if (at <= 0) continue;
    const value = Number(line.slice(at + 1));
    if (Number.isFinite(value)) values.set(line.slice(0, at), value);
  }
  return values;
}

export function servicePoint(t: number, text: string): ResourcePoint {
  const v = parsePrometheusText(text);
  return {
    t,
    rssBytes: v.get("process_resident_memory_bytes"),
    heapUsedBytes: v.get("nodejs_heap_used_bytes"),
    openConnections: v.get("http_open_connections"),
    eventLoopLagP99Seconds: v.get('nodejs_eventloop_lag_seconds{quantile="0.99"}'),
  };
}

export class ResourceScraper {
  readonly #metrics: { url: string; headers: Record<string, string> } | undefined;
  readonly #intervalMs: number;
  readonly #out: WriteStream;
  readonly #loop = monitorEventLoopDelay({ resolution: 10 });
  readonly service: ResourcePoint[] = [];
  readonly harness: ResourcePoint[] = [];
  readonly errors: string[] = [];
  /** The service answered 404 on /metrics: an optional hook it does not offer, so scraping it stops. */
  metricsAbsent = false;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<void> = Promise.resolve();

  /** metrics: the service's /metrics and the headers it needs; undefined without a control API (harness only). */
  constructor(
    metrics: { url: string; headers: Record<string, string> } | undefined,
    intervalSeconds: number,
    file: string,
  ) {
    this.#metrics = metrics;
    this.#intervalMs = intervalSeconds * 1000;
    this.#out = createWriteStream(file, { flags: "a" });
  }

  start(): void {
    this.#loop.enable();
    const tick = () => {
      this.#inFlight = this.#inFlight.then(() => this.scrapeOnce());
    };
    tick();
    this.#timer = setInterval(tick, this.#intervalMs);
  }

  async scrapeOnce(): Promise<void> {
    const t = Date.now();
    const mem = process.memoryUsage();
    const own: ResourcePoint = {
      t,
      rssBytes: mem.rss,
      heapUsedBytes: mem.heapUsed,
      eventLoopLagP99Seconds: this.#loop.percentile(99) / 1e9,
    };
    this.#loop.reset();
    this.harness.push(own);
    this.#write({ source: "harness", ...own });
    if (!this.#metrics || this.metricsAbsent) return;
    try {
      // A scrape slower than the interval would pile up; a stuck service shows as missing points instead.
      const res = await fetch(this.#metrics.url, {
        headers: this.#metrics.headers,
        signal: AbortSignal.timeout(Math.max(1000, this.#intervalMs)),
      });
      if (res.status === 404) {
        // /metrics is an extension of the reference service, not a hook every implementation has (test-hooks.ts).
        this.metricsAbsent = true;
        return;
      }
      if (!res.ok) throw new Error(`/metrics answered ${String(res.status)}`);
      const point = servicePoint(t, await res.text());
      this.service.push(point);
      this.#write({ source: "service", ...point });
    } catch (error) {
      if (this.errors.length < 10) this.errors.push(`scrape at ${new Date(t).toISOString()}: ${String(error)}`);
    }
  }

  #write(line: ResourceLine): void {
    this.#out.write(`${JSON.stringify(line)}\n`);
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
    this.#loop.disable();
    if (!this.#out.closed) await new Promise<void>((resolve) => this.#out.end(resolve));
  }
}
