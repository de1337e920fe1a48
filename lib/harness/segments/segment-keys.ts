/**
 * Execution segments of a split run and the API keys each gets. k6 runners share no state, so two runners on one
 * key would each spend its allowance believing they have all of it: every key goes to exactly one runner.
 */
import { partitionKeys } from "../../contract/index.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";

export interface Segment {
  index: number;
  /** k6's --execution-segment, e.g. "1/3:2/3". */
  segment: string;
  /** k6's --execution-segment-sequence, the same for every runner, e.g. "0,1/3,2/3,1". */
  sequence: string;
}

function fraction(i: number, n: number): string {
  return i === 0 ? "0" : i === n ? "1" : `${String(i)}/${String(n)}`;
}

/** The most k6 processes one scenario is split over on one machine. */
export const MAX_SEGMENTS = 64;

/** n equal segments covering the whole test. */
export function executionSegments(n: number): Segment[] {
  if (!Number.isInteger(n) || n < 1 || n > MAX_SEGMENTS) {
    throw new HarnessError(
      `Failed to split the run: --segments ${String(n)} is not a whole number from 1 to ${String(MAX_SEGMENTS)}. Please give e.g. 2.`,
      EXIT.usage,
    );
  }
  const sequence = Array.from({ length: n + 1 }, (_, i) => fraction(i, n)).join(",");
  return Array.from({ length: n }, (_, i) => ({
    index: i,
    segment: `${fraction(i, n)}:${fraction(i + 1, n)}`,
    sequence,
  }));
}

/**
 * Splits the keys into n disjoint slices (lib/contract/execution-segments.ts: the same split a k6-operator runner
 * takes by its segment), refusing a split that leaves a runner without a key.
 */
export function partitionKeysAcrossSegments(keys: readonly string[], n: number): string[][] {
  if (keys.length < n) {
    throw new HarnessError(
      `Failed to split the run over ${String(n)} segments: there are only ${String(keys.length)} API keys and no two runners may share one. Please pass more keys (--keys) or fewer segments.`,
      EXIT.usage,
    );
  }
  return partitionKeys(keys, n);
}
