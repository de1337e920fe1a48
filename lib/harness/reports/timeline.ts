/**
 * What report.html plots over time, aggregated while the raw samples stream past: per endpoint the latency (p50, p95)
 * of each time slot, per scenario the throughput, per endpoint the throttles. The plots start at the first sample, not
 * at the run's start (a first run spends a minute building k6 before any request), and end at the last one (not when
 * the extensions finished judging). Slots start one second wide and double whenever the samples run past MAX_SLOTS,
 * so memory is bounded by the number of slots whatever the run's length, not by the number of samples.
 */
import type { RawSample } from "./raw-samples.ts";

export interface Point {
  /** Seconds since the first sample. */
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
  #slotSeconds = 1;
  #startMs: number | undefined;
  /** The last slot a sample fell in; -1 before the first. */
  #lastSlot = -1;
  private readonly latency = new Map<string, Map<number, Uint32Array>>();
  private readonly requests = new Map<string, Float64Array>();
  private readonly throttles = new Map<string, Float64Array>();

  /**
   * startMs: where the plots start, the earliest sample of the run (write-reports.ts reads it off the head of each raw
   * results file); undefined: the first sample observed. A sample before it counts in the first slot.
   */
  constructor(startMs?: number) {
    this.#startMs = startMs;
  }

  get slotSeconds(): number {
    return this.#slotSeconds;
  }

  /** Slots that have a sample or lie between samples. */
  get slots(): number {
    return this.#lastSlot + 1;
  }

  private slotOf(time: number): number {
    const start = (this.#startMs ??= time);
    let slot = Math.max(0, Math.floor((time - start) / 1000 / this.#slotSeconds));
    while (slot >= MAX_SLOTS) {
      this.coarsen();
      slot = Math.floor(slot / 2);
    }
    this.#lastSlot = Math.max(this.#lastSlot, slot);
    return slot;
  }

  /** Doubles the slot width, merging each pair of slots. */
  private coarsen(): void {
    this.#slotSeconds *= 2;
    this.#lastSlot = Math.floor(this.#lastSlot / 2);
    for (const [endpoint, bySlot] of this.latency) {
      const merged = new Map<number, Uint32Array>();
      for (const [slot, bins] of bySlot) {
        const into = merged.get(Math.floor(slot / 2));
        if (into === undefined) merged.set(Math.floor(slot / 2), bins);
        else for (let i = 0; i < bins.length; i++) into[i] = (into[i] ?? 0) + (bins[i] ?? 0);
      }
      this.latency.set(endpoint, merged);
    }
    for (const map of [this.requests, this.throttles]) {
      for (const [key, counts] of map) {
        const merged = new Float64Array(MAX_SLOTS);
        counts.forEach((c, slot) => {
          add(merged, Math.floor(slot / 2), c);
        });
        map.set(key, merged);
      }
    }
  }

  private counts(map: Map<string, Float64Array>, key: string): Float64Array {
    let counts = map.get(key);
    if (!counts) {
      counts = new Float64Array(MAX_SLOTS);
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
    return slot * this.#slotSeconds;
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
        points: [...counts.subarray(0, this.slots)].map((c, slot) => ({ x: this.x(slot), y: c / this.#slotSeconds })),
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
