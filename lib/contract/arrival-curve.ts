/**
 * --arrival-curve: partner-mix's executor follows the fitted arrival curve (fitted-traffic.ts ArrivalCurve) instead of
 * the profile. Each bucket of the curve becomes a step of a ramping-arrival-rate: it lasts bucketSeconds /
 * timeCompression and starts sessionsPerSecond x rateMultiplier iterations a second (a jump between buckets, then a
 * hold, so the sessions started per bucket are the curve's). --time-compression 24 plays a day in an hour.
 */
import type { ArrivalCurve } from "./fitted-traffic.ts";

export const DEFAULT_TIME_COMPRESSION = 24;
export const DEFAULT_RATE_MULTIPLIER = 1;
/** Bounds of the two settings: a week played in a minute, a thousand times the logged rate. */
export const MAX_TIME_COMPRESSION = 10_080;
export const MAX_RATE_MULTIPLIER = 1000;
/** A compressed bucket shorter than this is noise: k6 starts iterations on a schedule, not a second's fraction. */
export const MIN_COMPRESSED_BUCKET_SECONDS = 1;
/**
 * Rates are per hour: k6 takes whole targets, and a night bucket of 0.05 sessions/s would round to 0 per second;
 * per hour it is 180, within 0.3%.
 */
const TIME_UNIT_SECONDS = 3600;

export interface CurveReplay {
  curve: ArrivalCurve;
  timeCompression: number;
  rateMultiplier: number;
  /** Mean seconds of a session (fitted-traffic-mix.ts meanSessionSeconds): sizes the VUs. */
  sessionSeconds: number;
}

/** Milliseconds each compressed bucket lasts. */
export function compressedBucketMs(replay: Pick<CurveReplay, "curve" | "timeCompression">): number {
  return Math.round((replay.curve.bucketSeconds * 1000) / replay.timeCompression);
}

/** Why the curve cannot be replayed at these settings, or undefined. */
export function curveReplayProblem(replay: Pick<CurveReplay, "curve" | "timeCompression">): string | undefined {
  const ms = compressedBucketMs(replay);
  if (ms < MIN_COMPRESSED_BUCKET_SECONDS * 1000) {
    return `a bucket of ${String(replay.curve.bucketSeconds)} s compressed ${String(replay.timeCompression)} times lasts ${String(ms)} ms, under ${String(MIN_COMPRESSED_BUCKET_SECONDS)} s`;
  }
  return undefined;
}

/** profiles.ts's RampingArrivalRate, structurally (profiles.ts builds on this file, not the other way). */
export interface CurveScenario {
  executor: "ramping-arrival-rate";
  startRate: number;
  timeUnit: string;
  preAllocatedVUs: number;
  maxVUs: number;
  stages: { target: number; duration: string }[];
}

/** The ramping-arrival-rate of the curve: a 0 s jump to each bucket's rate, held for the compressed bucket. */
export function arrivalCurveScenario(replay: CurveReplay): CurveScenario {
  const ms = `${String(compressedBucketMs(replay))}ms`;
  const targets = replay.curve.sessionsPerSecond.map((r) => Math.round(r * replay.rateMultiplier * TIME_UNIT_SECONDS));
  const peakPerSecond = Math.max(0, ...targets) / TIME_UNIT_SECONDS;
  // A session lasts its calls and think times; VUs for the peak's sessions in flight, with room to spare.
  const inFlight = Math.ceil(peakPerSecond * (replay.sessionSeconds + 1));
  const preAllocatedVUs = Math.max(5, Math.min(1000, inFlight * 2));
  return {
    executor: "ramping-arrival-rate",
    startRate: targets[0] ?? 0,
    timeUnit: `${String(TIME_UNIT_SECONDS)}s`,
    preAllocatedVUs,
    maxVUs: Math.max(20, Math.min(2000, preAllocatedVUs * 3)),
    stages: targets.flatMap((target, i) => [
      ...(i === 0 ? [] : [{ target, duration: "0s" }]),
      { target, duration: ms },
    ]),
  };
}
