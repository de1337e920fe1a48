/**
 * How much worse a candidate may be before a comparison calls it regressed: the defaults, and a tolerances file
 * (YAML or JSON, any subset of the fields) validated against TOLERANCES_SCHEMA so a misspelt key is an error, not a
 * silently ignored wish.
 */
import { readFile } from "node:fs/promises";
import { Ajv } from "ajv";
import { isRecord } from "../../contract/index.ts";
import { compiledOnFirstUse } from "../compiled-on-first-use.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { FileTextError, parseYamlText } from "../parse-file-text.ts";

export interface PercentileTolerances {
  /** Relative growth allowed (0.1 = 10%) of each percentile. */
  p50: number;
  p95: number;
  p99: number;
}

export interface Tolerances {
  /** Confidence of every interval and test (0.95: a change is called only when 95% sure). */
  confidence: number;
  /** HTTP latency per endpoint: relative growth allowed. */
  latency: PercentileTolerances;
  /** Requests per second per endpoint: relative fall allowed. */
  throughput: number;
  /** Share of 5xx and unanswered requests per endpoint: growth allowed in absolute terms (0.001 = 0.1 point). */
  errorRate: number;
  /** Share of 429 answers per endpoint: growth allowed in absolute terms. */
  throttleRate: number;
  /** Alternatives precision, recall and qty exactness: fall allowed in absolute terms (0: may not fall). */
  accuracy: number;
  /** Webhook delivery latency: relative growth allowed. */
  webhookLatency: PercentileTolerances;
  /** Share of expected webhook events lost: growth allowed in absolute terms. */
  webhookLoss: number;
  /** Soak: relative growth allowed of the p95 drift ratio; absolute growth of the memory slopes (bytes/minute). */
  soakDriftRatio: number;
  soakMemorySlopeBytesPerMinute: number;
  /** Capacity knee and safe operating rate: relative fall allowed. */
  capacity: number;
  /** Endpoints with fewer requests than this in either run are shown but not judged. */
  minRequests: number;
}

export const DEFAULT_TOLERANCES: Readonly<Tolerances> = {
  confidence: 0.95,
  latency: { p50: 0.1, p95: 0.1, p99: 0.1 },
  throughput: 0.1,
  errorRate: 0.001,
  throttleRate: 0.001,
  accuracy: 0,
  webhookLatency: { p50: 0.1, p95: 0.1, p99: 0.1 },
  webhookLoss: 0.001,
  soakDriftRatio: 0.1,
  soakMemorySlopeBytesPerMinute: 1024 * 1024,
  capacity: 0.1,
  minRequests: 20,
};

const share = { type: "number", minimum: 0, maximum: 1 } as const;
const relative = { type: "number", minimum: 0 } as const;
const percentiles = {
  type: "object",
  additionalProperties: false,
  properties: { p50: relative, p95: relative, p99: relative },
} as const;

/** The tolerances file: every field optional, defaults fill the rest. */
export const TOLERANCES_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    confidence: { type: "number", exclusiveMinimum: 0.5, exclusiveMaximum: 1 },
    latency: percentiles,
    throughput: share,
    errorRate: share,
    throttleRate: share,
    accuracy: share,
    webhookLatency: percentiles,
    webhookLoss: share,
    soakDriftRatio: relative,
    soakMemorySlopeBytesPerMinute: { type: "number", minimum: 0 },
    capacity: share,
    minRequests: { type: "integer", minimum: 1 },
  },
} as const;

const validator = compiledOnFirstUse(() => new Ajv({ allErrors: true, strict: true }).compile(TOLERANCES_SCHEMA));

/** Defaults overlaid with what a parsed file says (already known to match the schema). */
export function mergeTolerances(given: Record<string, unknown>): Tolerances {
  const out: Tolerances = {
    ...DEFAULT_TOLERANCES,
    latency: { ...DEFAULT_TOLERANCES.latency },
    webhookLatency: { ...DEFAULT_TOLERANCES.webhookLatency },
  };
  for (const [key, value] of Object.entries(given)) {
    if (key === "latency" || key === "webhookLatency") Object.assign(out[key], value);
    else (out as unknown as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** The tolerances in a file (YAML or JSON), or the defaults without one; exit 2 with the first problem otherwise. */
export async function readTolerances(file: string | undefined): Promise<Tolerances> {
  if (file === undefined) return mergeTolerances({});
  const fail = (why: string, where = file) =>
    new HarnessError(
      `Failed to read the tolerances file ${where}: ${why}. Please fix it (keys: ${Object.keys(TOLERANCES_SCHEMA.properties).join(", ")}; see README "Comparing releases").`,
      EXIT.usage,
    );
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw fail((error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(error));
  }
  let parsed: unknown;
  try {
    parsed = parseYamlText(text, file);
  } catch (error) {
    if (!(error instanceof FileTextError)) throw error;
    throw fail(`not YAML or JSON (${error.reason})`, error.where);
  }
  if (parsed === null || parsed === undefined) return mergeTolerances({});
  const validate = validator();
  if (!validate(parsed) || !isRecord(parsed)) {
    const first = validate.errors?.[0];
    const where = first?.instancePath ? first.instancePath.slice(1).replace(/\//g, ".") : "the file";
    const extra =
      first?.params && "additionalProperty" in first.params ? ` "${String(first.params.additionalProperty)}"` : "";
    throw fail(`${where} ${first?.message ?? "is not valid"}${extra}`);
  }
  return mergeTolerances(parsed);
}
