/**
 * A run's digest: what a release comparison needs of it, compact enough to keep as a baseline for months. Per
 * endpoint the whole latency distribution (an HdrHistogram, a few hundred bytes), requests, errors and throttles; the
 * measured seconds; the run's identity (what must match for two runs to be comparable); and what each extension
 * measured (alternatives accuracy as counts, webhook latency as a distribution and loss as counts, soak drift and
 * capacity figures). Written as digest.json into every run directory with the reports, from the same stream of k6's
 * raw samples, so nothing is read twice; `harness baseline save` keeps a copy under a name.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Ajv } from "ajv";
import { compiledOnFirstUse } from "../compiled-on-first-use.ts";
import { shown } from "../../contract/index.ts";
import type { RunSummary } from "../reports/summary.ts";
import { seriesOf } from "../reports/extension-series.ts";
import type { RawSample } from "../reports/raw-samples.ts";
import { LatencyHistogram } from "../latency-histogram.ts";

export const DIGEST_FILE = "digest.json";
export const DIGEST_VERSION = 1;

/** What must be the same for two runs to be compared, and what is shown beside the comparison. */
export interface RunIdentity {
  runId: string;
  startedAt: string;
  scenarios: string[];
  profile: string;
  duration: string | undefined;
  seed: number | undefined;
  /** "default" or the sha256 of the traffic model file's text. */
  trafficModel: string;
  /** "default" or the sha256 of the SLO file's text. */
  sloTable: string;
  target: { kind: string; image?: string; url?: string };
  harnessVersion: string;
}

export interface EndpointDigest {
  requests: number;
  /** Answers with status 0 (no answer) or 5xx. */
  errors: number;
  /** 429 answers. */
  throttles: number;
  /** http_req_duration, LatencyHistogram.encode(). */
  latency: string;
}

/** A proportion as its counts, so its confidence interval can be computed again. */
export interface Proportion {
  x: number;
  n: number;
}

export interface ExtensionDigest {
  alternatives?: { precision: Proportion; recall: Proportion; qtyExactness: Proportion };
  /** Delivery latency of every event type together (ms, encoded) and lost of expected. */
  webhooks?: { latency: string; loss: Proportion };
  /** Soak drift figures (lower is better): p95 drift ratio, memory slopes in bytes per minute. */
  soak?: Record<string, number>;
  /** Capacity figures (higher is better), requests per second. */
  capacity?: Record<string, number>;
}

export interface RunDigest {
  version: typeof DIGEST_VERSION;
  identity: RunIdentity;
  verdict: RunSummary["verdict"];
  /** From the first to the last measured sample (setup and control calls excluded). */
  seconds: number;
  endpoints: Record<string, EndpointDigest>;
  extensions: ExtensionDigest;
}

interface EndpointTally {
  requests: number;
  errors: number;
  throttles: number;
  latency: LatencyHistogram;
}

/**
 * Fed every raw sample of a run (the reports' stream), builds the per-endpoint part of the digest. Only the traffic
 * is measured: samples of k6 setup, teardown and control-API calls carry a `phase` tag and are left out, as are
 * requests without an endpoint tag.
 */
export class DigestCollector {
  readonly #endpoints = new Map<string, EndpointTally>();
  #first = Number.POSITIVE_INFINITY;
  #last = Number.NEGATIVE_INFINITY;

  observe(sample: RawSample): void {
    const endpoint = sample.tags.endpoint;
    if (endpoint === undefined || sample.tags.phase !== undefined) return;
    let tally = this.#endpoints.get(endpoint);
    if (tally === undefined) {
      tally = { requests: 0, errors: 0, throttles: 0, latency: LatencyHistogram.empty() };
      this.#endpoints.set(endpoint, tally);
    }
    if (sample.metric === "http_req_duration") {
      tally.latency.record(sample.value);
      this.#first = Math.min(this.#first, sample.time);
      this.#last = Math.max(this.#last, sample.time);
    } else if (sample.metric === "http_reqs") {
      const status = Number(sample.tags.status ?? "0");
      tally.requests += sample.value;
      if (status === 0 || status >= 500) tally.errors += sample.value;
      if (status === 429) tally.throttles += sample.value;
    }
  }

  digest(summary: RunSummary): RunDigest {
    const endpoints: Record<string, EndpointDigest> = {};
    for (const [name, t] of [...this.#endpoints].sort(([a], [b]) => a.localeCompare(b))) {
      endpoints[name] = { requests: t.requests, errors: t.errors, throttles: t.throttles, latency: t.latency.encode() };
    }
    return {
      version: DIGEST_VERSION,
      identity: identityOf(summary),
      verdict: summary.verdict,
      seconds: Number.isFinite(this.#first) ? Math.max(0, (this.#last - this.#first) / 1000) : 0,
      endpoints,
      extensions: extensionDigest(summary),
    };
  }
}

function identityOf(summary: RunSummary): RunIdentity {
  const run = summary.run;
  const inputs = run.inputs;
  return {
    runId: run.id,
    startedAt: run.startedAt,
    scenarios: [...run.scenarios],
    profile: run.profile,
    duration: run.duration,
    seed: inputs?.seed,
    trafficModel: inputs?.trafficModel ?? "default",
    sloTable: inputs?.sloTable ?? "default",
    target: {
      kind: run.target.kind,
      ...(inputs?.image === undefined ? {} : { image: inputs.image }),
      ...(run.target.kind === "url" && run.target.apiUrl !== undefined ? { url: run.target.apiUrl } : {}),
    },
    harnessVersion: inputs?.harnessVersion ?? "unknown",
  };
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A ratio figure and the count it is a share of, as counts (rounded: the figures are exact ratios of counts). */
function proportion(ratio: unknown, of: unknown): Proportion | undefined {
  const r = num(ratio);
  const n = num(of);
  if (r === undefined || n === undefined || n <= 0) return undefined;
  return { x: Math.round(r * n), n };
}

/** Soak figures worth comparing, all lower-is-better. */
const SOAK_FIGURES = [
  "p95DriftRatio",
  "rssSlopeBytesPerMinute",
  "heapSlopeBytesPerMinute",
  "heapFloorSlopeBytesPerMinute",
] as const;
/** Capacity figures worth comparing, all higher-is-better. */
const CAPACITY_FIGURES = ["kneeOfferedPerSecond", "kneeThroughputPerSecond", "safeOperatingRatePerSecond"] as const;

function pick(figures: Record<string, unknown>, names: readonly string[]): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const name of names) {
    const v = num(figures[name]);
    if (v !== undefined) out[name] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function extensionDigest(summary: RunSummary): ExtensionDigest {
  const out: ExtensionDigest = {};
  for (const e of summary.extensions) {
    const f = e.figures;
    if (e.name === "alternatives accuracy") {
      const precision = proportion(f.precision, f.suggested);
      const recall = proportion(f.recall, f.expected);
      const qtyExactness = proportion(f.qtyExactness, f.qtyCompared);
      if (precision && recall && qtyExactness) out.alternatives = { precision, recall, qtyExactness };
    } else if (e.name === "webhook sink") {
      const latency = LatencyHistogram.empty();
      for (const s of seriesOf(e).series) {
        if (s.type !== "histogram" || s.name !== "webhook_delivery_latency_seconds") continue;
        for (const sample of s.samples) for (const seconds of sample.observations) latency.record(seconds * 1000);
      }
      const expected = num(f.expected) ?? 0;
      const followOns = num(f.followOns) ?? 0;
      const lost = num(f.lost) ?? 0;
      if (expected + followOns > 0) {
        out.webhooks = {
          latency: latency.encode(),
          loss: { x: Math.min(lost, expected + followOns), n: expected + followOns },
        };
      }
    } else if (e.name === "soak") {
      const soak = pick(f, SOAK_FIGURES);
      if (soak) out.soak = soak;
    } else if (e.name === "capacity") {
      const capacity = pick(f, CAPACITY_FIGURES);
      if (capacity) out.capacity = capacity;
    }
  }
  return out;
}

const count = { type: "number", minimum: 0 } as const;
const text = { type: "string" } as const;
const proportionSchema = {
  type: "object",
  required: ["x", "n"],
  additionalProperties: false,
  properties: { x: count, n: count },
} as const;
const figuresSchema = { type: "object", additionalProperties: count } as const;

/**
 * What a comparison reads of a digest, every field checked: a digest.json or baseline edited by hand, cut short or
 * written by another tool is refused before it is compared, not met as a TypeError half-way through. Fields the
 * comparison does not read (a newer harness's additions) are let through.
 */
export const DIGEST_SCHEMA = {
  type: "object",
  required: ["version", "identity", "verdict", "seconds", "endpoints", "extensions"],
  properties: {
    version: { const: DIGEST_VERSION },
    identity: {
      type: "object",
      required: ["runId", "startedAt", "scenarios", "profile", "trafficModel", "sloTable", "target", "harnessVersion"],
      properties: {
        runId: text,
        startedAt: text,
        scenarios: { type: "array", items: text },
        profile: text,
        duration: text,
        seed: { type: "number" },
        trafficModel: text,
        sloTable: text,
        target: { type: "object", required: ["kind"], properties: { kind: text, image: text, url: text } },
        harnessVersion: text,
      },
    },
    verdict: text,
    seconds: count,
    endpoints: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["requests", "errors", "throttles", "latency"],
        properties: { requests: count, errors: count, throttles: count, latency: text },
      },
    },
    extensions: {
      type: "object",
      properties: {
        alternatives: {
          type: "object",
          required: ["precision", "recall", "qtyExactness"],
          properties: { precision: proportionSchema, recall: proportionSchema, qtyExactness: proportionSchema },
        },
        webhooks: {
          type: "object",
          required: ["latency", "loss"],
          properties: { latency: text, loss: proportionSchema },
        },
        soak: figuresSchema,
        capacity: figuresSchema,
      },
    },
  },
} as const;

const digestValidator = compiledOnFirstUse(() =>
  new Ajv({ allErrors: false, strict: true }).compile<RunDigest>(DIGEST_SCHEMA),
);

/** What is wrong with a digest that matches the schema: a count above its whole, a histogram that does not decode. */
function digestProblem(digest: RunDigest): string | undefined {
  const histograms: [string, string][] = Object.entries(digest.endpoints).map(([name, e]) => [
    `endpoints.${name}.latency`,
    e.latency,
  ]);
  if (digest.extensions.webhooks) histograms.push(["extensions.webhooks.latency", digest.extensions.webhooks.latency]);
  for (const [where, encoded] of histograms) {
    try {
      LatencyHistogram.decode(encoded);
    } catch (error) {
      return `${where} is not an encoded histogram (${(error as Error).message})`;
    }
  }
  for (const [name, e] of Object.entries(digest.endpoints)) {
    if (e.errors > e.requests || e.throttles > e.requests) {
      return `endpoints.${name} counts more errors or throttles than requests`;
    }
  }
  // The shares the comparison reads, by name: a key a newer harness added is let through, whatever it holds.
  const alternatives = digest.extensions.alternatives;
  const shares: [string, { x: number; n: number } | undefined][] = [
    ["precision", alternatives?.precision],
    ["recall", alternatives?.recall],
    ["qtyExactness", alternatives?.qtyExactness],
    ["loss", digest.extensions.webhooks?.loss],
  ];
  for (const [name, p] of shares)
    if (p !== undefined && p.x > p.n) return `${name} counts more than its whole (${shown(p)})`;
  return undefined;
}

/** A digest nests a few levels; far deeper is no digest, and would overflow the stack where it is written again. */
const MAX_DIGEST_DEPTH = 32;

/** Whether `value` nests objects or arrays deeper than `limit` (walked with a stack of its own, not recursion). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, depth] = next;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Reads and checks a digest (a run directory's digest.json or a saved baseline's `digest`). */
export function parseDigest(value: unknown, where: string): RunDigest {
  const refuse = (why: string): never => {
    throw new Error(`${where} is not a run digest of version ${String(DIGEST_VERSION)}: ${why}`);
  };
  if (nestsDeeperThan(value, MAX_DIGEST_DEPTH))
    return refuse(`it nests deeper than ${String(MAX_DIGEST_DEPTH)} levels`);
  const validateDigest = digestValidator();
  if (!validateDigest(value)) {
    const first = validateDigest.errors?.[0];
    const at = first?.instancePath ? first.instancePath.slice(1).replace(/\//g, ".") : "it";
    return refuse(`${at} ${first?.message ?? "is not valid"}`);
  }
  const problem = digestProblem(value);
  return problem === undefined ? value : refuse(problem);
}

export async function readDigestFile(file: string): Promise<RunDigest> {
  return parseDigest(JSON.parse(await readFile(file, "utf8")) as unknown, path.basename(file));
}
