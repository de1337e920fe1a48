/**
 * The soak's verdict rules, each configurable (--soak-config <file.json> with any subset). Windows default to
 * shares of the run's length, so one rule set serves the compressed CI soak (minutes) and the nightly one (hours).
 */
import { readFile } from "node:fs/promises";
import { isRecord } from "../../contract/index.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { FileTextError, parseJsonText } from "../parse-file-text.ts";

export interface SoakRules {
  /** Share of the run at its start that is not judged (JIT, caches, pools filling). */
  warmUpShare: number;
  /** Share of the run each compared window covers (the first after warm-up, and the last). */
  windowShare: number;
  /** Absolute warm-up and window, seconds; win over the shares when set (a nightly soak: 10 min, 15 min). */
  warmUpSeconds?: number;
  windowSeconds?: number;
  /** p95 of the last window may be at most this times the first window's. */
  p95Ratio: number;
  /**
   * ...or at most this many milliseconds above it: a service answering in 3 ms moves by more than 10% on timer and
   * scheduler noise alone, which is no drift a partner would notice.
   */
  p95ToleranceMs: number;
  /** Largest rise of the error rate over the judged span, by its linear trend (0.005 = half a percentage point). */
  errorRateRise: number;
  /** Largest rise of the throttled (429) share over the judged span, by its linear trend. */
  throttleRateRise: number;
  /**
   * Largest slope after warm-up, bytes per minute, of the service's heap floor (its lowest from each scrape on), or of
   * its RSS where it reports no heap (drift.ts, memoryCheck).
   */
  memorySlopeBytesPerMinute: number;
  /** Largest growth of the service's open connections, last window's mean over the first's. */
  connectionGrowth: number;
  /** Iterations the open model could not start. */
  droppedIterations: number;
  /** How often the harness scrapes the service's /metrics and its own process, seconds. */
  scrapeIntervalSeconds?: number;
}

export const DEFAULT_SOAK_RULES: SoakRules = {
  warmUpShare: 0.15,
  windowShare: 0.2,
  p95Ratio: 1.1,
  p95ToleranceMs: 5,
  errorRateRise: 0.005,
  throttleRateRise: 0.01,
  // 4 MiB/min is 480 MiB over a 2 h nightly soak: any slope above it would end in an OOM kill within a day.
  memorySlopeBytesPerMinute: 4 * 1024 * 1024,
  connectionGrowth: 10,
  droppedIterations: 0,
};

/** Scrape interval for a planned run length: about 120 points a run, between 1 s and 15 s apart. */
export function scrapeIntervalSeconds(rules: SoakRules, plannedSeconds: number | undefined): number {
  if (rules.scrapeIntervalSeconds) return rules.scrapeIntervalSeconds;
  return Math.min(15, Math.max(1, Math.round((plannedSeconds ?? 600) / 120)));
}

/** The warm-up and window lengths for a run of the given length, seconds. */
export function soakWindows(rules: SoakRules, runSeconds: number): { warmUp: number; window: number } {
  return {
    warmUp: rules.warmUpSeconds ?? rules.warmUpShare * runSeconds,
    window: rules.windowSeconds ?? rules.windowShare * runSeconds,
  };
}

/** Applies an override (parsed JSON) to the rules; refuses unknown keys and values that are not numbers >= 0. */
export function mergeSoakRules(base: SoakRules, override: unknown, where: string): SoakRules {
  const fail = (why: string): never => {
    throw new HarnessError(
      `Failed to read the soak rules ${where}: ${why}. Please see lib/harness/soak/soak-rules.ts.`,
      EXIT.usage,
    );
  };
  if (!isRecord(override)) return fail("it is not a JSON object");
  const known = new Set([
    ...Object.keys(DEFAULT_SOAK_RULES),
    "warmUpSeconds",
    "windowSeconds",
    "scrapeIntervalSeconds",
  ]);
  const out: Record<string, number> = { ...(base as unknown as Record<string, number>) };
  for (const [key, value] of Object.entries(override)) {
    if (!known.has(key)) fail(`${key} is not a rule`);
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) fail(`${key} must be a number >= 0`);
    out[key] = value as number;
  }
  const rules = out as unknown as SoakRules;
  if (rules.warmUpShare + 2 * rules.windowShare > 1) fail("warmUpShare + 2 x windowShare is more than the whole run");
  return rules;
}

export async function readSoakRules(file: string | undefined): Promise<SoakRules> {
  if (!file) return DEFAULT_SOAK_RULES;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new HarnessError(
      `Failed to read the soak rules ${file}: ${(error as Error).message}. Please give a JSON file.`,
      EXIT.usage,
    );
  }
  let parsed: unknown;
  try {
    parsed = parseJsonText(text, file);
  } catch (error) {
    if (!(error instanceof FileTextError)) throw error;
    throw new HarnessError(
      `Failed to read the soak rules ${error.where}: it is not JSON (${error.reason}). Please fix the file.`,
      EXIT.usage,
    );
  }
  return mergeSoakRules(DEFAULT_SOAK_RULES, parsed, file);
}
