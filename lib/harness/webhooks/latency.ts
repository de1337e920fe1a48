/** Latency figures from an HDR histogram (microsecond resolution, 3 significant digits), never from averages. */
import { build, type Histogram } from "hdr-histogram-js";

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export class LatencyHistogram {
  readonly #histogram: Histogram = build({ numberOfSignificantValueDigits: 3 });

  /** Negative values (clocks that disagree) count as 0. */
  record(ms: number): void {
    this.#histogram.recordValue(Math.max(0, Math.round(ms * 1000)));
  }

  get count(): number {
    return this.#histogram.totalCount;
  }

  /** Milliseconds at a percentile (0-100). */
  percentile(p: number): number {
    return this.#histogram.getValueAtPercentile(p) / 1000;
  }

  summary(): LatencySummary {
    const ms = (us: number) => Math.round(us) / 1000;
    return {
      count: this.count,
      p50Ms: ms(this.#histogram.getValueAtPercentile(50)),
      p95Ms: ms(this.#histogram.getValueAtPercentile(95)),
      p99Ms: ms(this.#histogram.getValueAtPercentile(99)),
      maxMs: ms(this.#histogram.maxValue),
    };
  }
}
