/**
 * What report.html plots over time, aggregated while the raw samples stream past: per endpoint the latency (p50, p95)
 * of each time slot, per scenario the throughput, per endpoint the throttles. Memory is bounded by the number of slots
 * (at most MAX_SLOTS whatever the run's length), not by the number of samples.
 */
import type { RawSample } from "./raw-samples.ts";

export interface Point {
  /** Seconds since the run started. */
  x: number;
  y: number;
}

export interface PlotSeries {
  name: string;
  points: Point[];
}

const MAX_SLOTS = 120;
/** Latency bins: geometric from 0.1 ms, 10% wide, up to ~10 minutes; a percentile is read to within 5%. */
const BIN_BASE_MS = 0.1;
const BIN_RATIO = 1.1;
const BIN_COUNT = Math.ceil(Math.log(6_000_000) / Math.log(BIN_RATIO));

function binOf(ms: number): number {
  if (ms <= BIN_BASE_MS) return 0;
  return Math.min(BIN_COUNT - 1, Math.floor(Math.log(ms / BIN_BASE_MS) / Math.log(BIN_RATIO)) + 1);
}

/** The geometric middle of a bin. */
function binValue(bin: number): number {
  return bin === 0 ? BIN_BASE_MS : BIN_BASE_MS * BIN_RATIO ** (bin - 0.5);
}

function percentile(bins: Uint32Array, total: number, p: number): number {
  const rank = Math.ceil(total * p);
  let seen = 0;
  for (let i = 0; i < bins.length; i++) {
    seen += bins[i] ?? 0;
    if (seen >= rank) return binValue(i);
  }
  return binValue(bins.length - 1);
}

function add(counts: Float64Array, slot: number, value: number): void {
  counts[slot] = (counts[slot] ?? 0) + value;
}

export class Timeline {
  readonly slotSeconds: number;
  readonly slots: number;
  private readonly startMs: number;
  private readonly latency = new Map<string, Map<number, Uint32Array>>();
  private readonly requests = new Map<string, Float64Array>();
  private readonly throttles = new Map<string, Float64Array>();

  /** startMs/endMs: the run's start and end (summary.json), which every sample falls between. */
  constructor(startMs: number, endMs: number) {
    const seconds = Math.max(1, (endMs - startMs) / 1000);
    this.slotSeconds = Math.max(1, Math.ceil(seconds / MAX_SLOTS));
    this.slots = Math.ceil(seconds / this.slotSeconds) + 1;
    this.startMs = startMs;
  }

  private slotOf(time: number): number {
    const slot = Math.floor((time - this.startMs) / 1000 / this.slotSeconds);
    return Math.min(this.slots - 1, Math.max(0, slot));
  }

  private counts(map: Map<string, Float64Array>, key: string): Float64Array {
    let counts = map.get(key);
    if (!counts) {
      counts = new Float64Array(this.slots);
      map.set(key, counts);
    }
    return counts;
  }

  observe(scenario: string, sample: RawSample): void {
    const slot = this.slotOf(sample.time);
    const endpoint = sample.tags.endpoint ?? "untagged";
    if (sample.metric === "http_req_duration") {
      let bySlot = this.latency.get(endpoint);
      if (!bySlot) {
        bySlot = new Map();
        this.latency.set(endpoint, bySlot);
      }
      let bins = bySlot.get(slot);
      if (!bins) {
        bins = new Uint32Array(BIN_COUNT);
        bySlot.set(slot, bins);
      }
      const bin = binOf(sample.value);
      bins[bin] = (bins[bin] ?? 0) + 1;
    } else if (sample.metric === "http_reqs") {
      add(this.counts(this.requests, scenario), slot, sample.value);
    } else if (sample.metric === "atd_throttles") {
      add(this.counts(this.throttles, endpoint), slot, sample.value);
    }
  }

  private x(slot: number): number {
    return slot * this.slotSeconds;
  }

  /** Latency per endpoint and slot at percentile p (0.95), in ms; slots without requests have no point. */
  latencySeries(p: number): PlotSeries[] {
    return [...this.latency.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([endpoint, bySlot]) => ({
        name: endpoint,
        points: [...bySlot.entries()]
          .sort(([a], [b]) => a - b)
          .map(([slot, bins]) => ({
            x: this.x(slot),
            y: percentile(
              bins,
              bins.reduce((s, c) => s + c, 0),
              p,
            ),
          })),
      }));
  }

  private rateSeries(map: Map<string, Float64Array>): PlotSeries[] {
    return [...map.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, counts]) => ({
        name,
        points: [...counts].map((c, slot) => ({ x: this.x(slot), y: c / this.slotSeconds })),
      }));
  }

  /** Requests per second per scenario. */
  throughputSeries(): PlotSeries[] {
    return this.rateSeries(this.requests);
  }

  /** 429 answers per second per endpoint. */
  throttleSeries(): PlotSeries[] {
    return this.rateSeries(this.throttles);
  }
}
