/**
 * A traffic model fitted from access logs (`harness model fit`): the `fitted` part of the traffic model file. Where
 * the hand-written model describes four personas by their journey settings, a fitted one describes each persona the
 * logs show as a Markov chain over the endpoint table (the first call, then the next call or the end), with its think
 * times, plus what the logs show of the whole traffic: the arrival curve of sessions over the day, the endpoint mix,
 * the skew across keys, booking conversion and the share of 429s. With `fitted` present, partner-mix walks these
 * chains instead of the built-in journeys; `harness model check` judges a run against it.
 */
import type { EndpointName } from "./endpoints.ts";

/** The transitions' name for the end of a session. */
export const SESSION_END = "end";

/** Think time between two calls of a session, fitted as a log-normal (ln of the seconds is normal). */
export interface FittedThinkTime {
  distribution: "lognormal";
  /** Mean and standard deviation of ln(seconds). */
  mu: number;
  sigma: number;
  /** exp(mu), and the observed median beside it. */
  medianSeconds: number;
  observedMedianSeconds: number;
  /** Gaps the fit was made from. */
  samples: number;
  /** Kolmogorov-Smirnov distance between the observed gaps and the fit (0 = identical), the fit's quality. */
  ksStatistic: number;
  /**
   * Share of a session's gaps that are back-to-back calls (under immediateBelowSeconds: the next call sent as soon
   * as the last answered, no think time); the log-normal describes the other gaps. Absent: every gap is a think time.
   */
  immediateShare?: number;
  immediateBelowSeconds?: number;
}

export interface FittedPersona {
  /** A built-in persona's name (traffic-model.ts PERSONAS) when the cluster is its journey, else "cluster-N". */
  name: string;
  /** Share of sessions, 0-1; the personas' shares add up to 1. */
  share: number;
  sessions: number;
  /** Mean calls per session. */
  meanCalls: number;
  /** Probability of each endpoint being the first call; adds up to 1. */
  start: Partial<Record<EndpointName, number>>;
  /** Per endpoint, the probability of each next call or SESSION_END; each row adds up to 1. */
  transitions: Partial<Record<EndpointName, Partial<Record<EndpointName | typeof SESSION_END, number>>>>;
  thinkTime: FittedThinkTime;
}

/** Sessions started per second, per bucket of the logged period, in order from `start`. */
export interface ArrivalCurve {
  /** ISO 8601 UTC time of the first bucket's start. */
  start: string;
  bucketSeconds: number;
  sessionsPerSecond: number[];
}

export interface FittedTraffic {
  personas: FittedPersona[];
  arrival: ArrivalCurve;
  /** Share of each endpoint among the kept requests. */
  endpointMix: Partial<Record<EndpointName, number>>;
  /** How unevenly traffic spreads over keys (keys are hashed when read, never written). */
  keySkew: { keys: number; topDecileShare: number; gini: number };
  /** Bookings created per session, and confirmed and cancelled per created booking. */
  conversion: { createdPerSession: number; confirmedPerCreated: number; cancelledPerCreated: number };
  /** Share of rate-limited requests answered 429 in the logs. */
  throttledShare: number;
  source: { files: string[]; lines: number; malformed: number; kept: number; sessions: number };
}
