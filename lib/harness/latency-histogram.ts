/**
 * The harness's one latency distribution (HdrHistogram, 3 significant digits: every value within 0.1% of what was
 * recorded; percentiles from it, never from averages): the webhook sink's delivery latencies, and a run digest's
 * per-endpoint latencies, kept compactly so that a saved baseline holds each endpoint's whole distribution in a few
 * hundred bytes instead of k6's gzipped JSON. Values are recorded in microseconds and read back in milliseconds.
 */
import {
  build,
  decodeFromCompressedBase64,
  encodeIntoCompressedBase64,
  type Histogram,
  type JsHistogram,
} from "hdr-histogram-js";

/** Microseconds per millisecond: HdrHistogram records integers. */
const US_PER_MS = 1000;
/** One hour in microseconds: the longest latency kept exactly (longer ones are clamped to it). */
const HIGHEST_US = 3_600_000_000;

function newHistogram(): Histogram {
  return build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: 3,
    bitBucketSize: "packed",
    useWebAssembly: false,
  });
}

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export class LatencyHistogram {
  readonly #h: Histogram;

  /** An empty histogram (or one decoded from its saved form). */
  constructor(h: Histogram = newHistogram()) {
    this.#h = h;
  }

  static empty(): LatencyHistogram {
    return new LatencyHistogram(newHistogram());
  }

  static of(valuesMs: readonly number[]): LatencyHistogram {
    const h = LatencyHistogram.empty();
    for (const v of valuesMs) h.record(v);
    return h;
  }

  /** A histogram saved with encode(). */
  static decode(encoded: string): LatencyHistogram {
    if (encoded === "") return LatencyHistogram.empty();
    return new LatencyHistogram(decodeFromCompressedBase64(encoded, 32, false));
  }

  /** Negative values (clocks that disagree) count as 0; longer than an hour as an hour. */
  record(ms: number): void {
    if (!Number.isFinite(ms)) return;
    this.#h.recordValue(Math.min(HIGHEST_US, Math.max(0, Math.round(ms * US_PER_MS))));
  }

  get count(): number {
    return this.#h.totalCount;
  }

  /** The q-quantile (0 < q <= 1) in milliseconds; 0 for an empty histogram. */
  quantile(q: number): number {
    if (this.count === 0) return 0;
    return this.#h.getValueAtPercentile(Math.min(100, Math.max(0, q * 100))) / US_PER_MS;
  }

  /** Milliseconds at a percentile (0-100). */
  percentile(p: number): number {
    return this.quantile(p / 100);
  }

  summary(): LatencySummary {
    const ms = (us: number) => Math.round(us) / US_PER_MS;
    return {
      count: this.count,
      p50Ms: ms(this.#h.getValueAtPercentile(50)),
      p95Ms: ms(this.#h.getValueAtPercentile(95)),
      p99Ms: ms(this.#h.getValueAtPercentile(99)),
      maxMs: ms(this.#h.maxValue),
    };
  }

  /** Every distinct recorded value (ms, ascending) with its count: what a rank test needs. */
  bins(): [number, number][] {
    const out: [number, number][] = [];
    const iterator = (this.#h as JsHistogram).recordedValuesIterator;
    iterator.reset();
    while (iterator.hasNext()) {
      const v = iterator.next();
      out.push([v.valueIteratedTo / US_PER_MS, v.countAtValueIteratedTo]);
    }
    return out;
  }

  /** Compressed base64 (HdrHistogram's own interchange format), "" when empty. */
  encode(): string {
    return this.count === 0 ? "" : encodeIntoCompressedBase64(this.#h);
  }
}
