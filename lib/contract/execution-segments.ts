/**
 * How the API keys are split over k6 execution segments, in one definition for both sides: the harness slices them
 * before it starts the runners of `harness run --segments N` (lib/harness/segments/segment-keys.ts), and a k6 runner
 * of the k6-operator, which gets every key, takes its own slice by its execution segment (ATD_KEYS_BY_SEGMENT=1,
 * lib/k6/config.ts). k6 runners share no state, so two runners on one key would each spend its allowance believing
 * they have all of it: every key goes to exactly one runner.
 */

/**
 * Splits the keys into n disjoint slices as even as they go, contiguous so that a slice is easy to read in a log. A
 * slice is empty when there are fewer keys than n: the callers refuse that, each with its own advice.
 */
export function partitionKeys(keys: readonly string[], n: number): string[][] {
  const slices: string[][] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const size = Math.floor(keys.length / n) + (i < keys.length % n ? 1 : 0);
    slices.push(keys.slice(at, at + size));
    at += size;
  }
  return slices;
}

/** Why a segment and sequence do not say which runner this is; the reason reads after "Failed to ...: ". */
export class ExecutionSegmentError extends Error {
  override name = "ExecutionSegmentError";
}

/** A rational number as k6 writes it in segments: "0", "1", "1/3", also "0.25" and "25%" as k6 accepts them. */
type Fraction = readonly [numerator: number, denominator: number];

function parseFraction(text: string): Fraction | undefined {
  const t = text.trim();
  let m = /^(\d+)(?:\/(\d+))?$/.exec(t);
  if (m) {
    const d = m[2] === undefined ? 1 : Number(m[2]);
    return d > 0 ? [Number(m[1]), d] : undefined;
  }
  m = /^(\d*)\.(\d+)(%?)$/.exec(t) ?? /^(\d+)()(%)$/.exec(t);
  if (!m) return undefined;
  const digits = m[2] ?? "";
  const scale = 10 ** digits.length * (m[3] === "%" ? 100 : 1);
  return [Number(`${m[1] || "0"}${digits}`), scale];
}

function same(a: Fraction, b: Fraction): boolean {
  return a[0] * b[1] === b[0] * a[1];
}

function less(a: Fraction, b: Fraction): boolean {
  return a[0] * b[1] < b[0] * a[1];
}

const ZERO: Fraction = [0, 1];
const ONE: Fraction = [1, 1];

/**
 * Which of the runners this k6 process is: the position of its execution segment ("from:to", or "to" for "0:to") in
 * the execution segment sequence all runners share ("0,1/3,2/3,1"), as k6 reports them (exec.test.options). The
 * k6-operator writes "1/4:2/4", k6 reports "1/4:1/2": the comparison is by value. No segment (or 0:1) is the whole
 * test: runner 0 of 1. A segment without a sequence cannot say how many runners there are.
 */
export function segmentPosition(
  segment: string | null | undefined,
  sequence: string | null | undefined,
): { index: number; count: number } {
  const seg = segment?.trim() ?? "";
  const parts = seg === "" ? ["0", "1"] : seg.includes(":") ? seg.split(":") : ["0", seg];
  const from = parseFraction(parts[0] ?? "");
  const to = parseFraction(parts[1] ?? "");
  if (parts.length !== 2 || !from || !to || !less(from, to) || less(ONE, to)) {
    throw new ExecutionSegmentError(`the execution segment "${seg}" is not of the form from:to, e.g. 1/3:2/3`);
  }
  const seq = sequence?.trim() ?? "";
  if (seq === "") {
    if (same(from, ZERO) && same(to, ONE)) return { index: 0, count: 1 };
    throw new ExecutionSegmentError(
      `k6 runs the execution segment ${seg} without an execution segment sequence, so it cannot tell how many runners share the keys`,
    );
  }
  const points: Fraction[] = [];
  for (const text of seq.split(",")) {
    const point = parseFraction(text);
    const last = points[points.length - 1];
    if (!point || less(ONE, point) || (last && !less(last, point))) {
      throw new ExecutionSegmentError(
        `the execution segment sequence "${seq}" is not a rising list of fractions from 0 to 1, e.g. 0,1/3,2/3,1`,
      );
    }
    points.push(point);
  }
  // k6 fills a sequence that does not start at 0 or end at 1 (GetFilledExecutionSegmentSequence): so does this.
  if (points[0] && !same(points[0], ZERO)) points.unshift(ZERO);
  const lastPoint = points[points.length - 1];
  if (lastPoint && !same(lastPoint, ONE)) points.push(ONE);
  for (let i = 0; i + 1 < points.length; i++) {
    if (same(points[i] as Fraction, from) && same(points[i + 1] as Fraction, to)) {
      return { index: i, count: points.length - 1 };
    }
  }
  throw new ExecutionSegmentError(`the execution segment ${seg} is not one of the sequence ${seq}`);
}
