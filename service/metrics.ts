/** Prometheus text metrics for GET /metrics on the control listener (the soak check scrapes it). */
import { monitorEventLoopDelay } from "node:perf_hooks";

export class Metrics {
  readonly #requests = new Map<string, number>();
  readonly #loop: ReturnType<typeof monitorEventLoopDelay>;
  openConnections = 0;
  /** Gauges supplied by the state at scrape time. */
  readonly gauges = new Map<string, () => number>();

  constructor() {
    this.#loop = monitorEventLoopDelay({ resolution: 10 });
    this.#loop.enable();
  }

  request(route: string, status: number): void {
    const key = `${route}|${status}`;
    this.#requests.set(key, (this.#requests.get(key) ?? 0) + 1);
  }

  stop(): void {
    this.#loop.disable();
  }

  render(): string {
    const mem = process.memoryUsage();
    const lines: string[] = [
      "# HELP process_resident_memory_bytes Resident set size in bytes.",
      "# TYPE process_resident_memory_bytes gauge",
      `process_resident_memory_bytes ${mem.rss}`,
      "# HELP nodejs_heap_used_bytes V8 heap used in bytes.",
      "# TYPE nodejs_heap_used_bytes gauge",
      `nodejs_heap_used_bytes ${mem.heapUsed}`,
      "# HELP nodejs_heap_total_bytes V8 heap total in bytes.",
      "# TYPE nodejs_heap_total_bytes gauge",
      `nodejs_heap_total_bytes ${mem.heapTotal}`,
      "# HELP nodejs_eventloop_lag_seconds Event loop delay since the last scrape.",
      "# TYPE nodejs_eventloop_lag_seconds gauge",
      `nodejs_eventloop_lag_seconds{quantile="0.5"} ${(this.#loop.percentile(50) / 1e9).toFixed(6)}`,
      `nodejs_eventloop_lag_seconds{quantile="0.99"} ${(this.#loop.percentile(99) / 1e9).toFixed(6)}`,
      `nodejs_eventloop_lag_seconds{quantile="1"} ${(this.#loop.max / 1e9).toFixed(6)}`,
      "# HELP http_open_connections Open connections on the API listener.",
      "# TYPE http_open_connections gauge",
      `http_open_connections ${this.openConnections}`,
      "# HELP http_requests_total API requests by route and status.",
      "# TYPE http_requests_total counter",
    ];
    this.#loop.reset();
    for (const [key, count] of this.#requests) {
      const [route, status] = key.split("|");
      lines.push(`http_requests_total{route="${route ?? ""}",status="${status ?? ""}"} ${count}`);
    }
    for (const [name, read] of this.gauges) {
      lines.push(`# TYPE ${name} gauge`, `${name} ${read()}`);
    }
    return `${lines.join("\n")}\n`;
  }
}
