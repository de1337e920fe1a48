/**
 * What `harness model check` reads of a run: from its k6 raw results (k6-raw-<scenario>.json.gz, streamed), the
 * requests per endpoint (http_reqs by endpoint tag; setup's requests carry none), the sessions per persona
 * (atd_sessions), the think times slept per persona (atd_think_seconds) and the fitted walk's skipped steps
 * (atd_replay_skips). Think times are kept as a bounded reservoir per persona, so a soak's millions stay in memory as
 * a fixed sample.
 */
import { readRawSamples } from "../reports/raw-samples.ts";

/** Think times kept per persona: enough for a Kolmogorov-Smirnov distance to about ±0.01. */
export const MAX_THINK_SAMPLES = 20_000;

export interface RunObservations {
  endpointCalls: Record<string, number>;
  personaSessions: Record<string, number>;
  thinkSeconds: Record<string, number[]>;
  /** Think times seen per persona (the kept samples are at most MAX_THINK_SAMPLES of them). */
  thinkCount: Record<string, number>;
  skips: Record<string, number>;
  truncated: boolean;
}

const METRICS = new Set(["http_reqs", "atd_sessions", "atd_think_seconds", "atd_replay_skips"]);

/** A reproducible reservoir: the same run gives the same sample (a fixed-seed linear congruential draw). */
function reservoir(): (kept: number[], seen: number, value: number) => void {
  let state = 12_345;
  const next = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
  return (kept, seen, value) => {
    if (kept.length < MAX_THINK_SAMPLES) kept.push(value);
    else {
      const slot = Math.floor(next() * seen);
      if (slot < MAX_THINK_SAMPLES) kept[slot] = value;
    }
  };
}

export async function readRunObservations(rawFile: string): Promise<RunObservations> {
  const obs: RunObservations = {
    endpointCalls: {},
    personaSessions: {},
    thinkSeconds: {},
    thinkCount: {},
    skips: {},
    truncated: false,
  };
  const keep = reservoir();
  const bump = (counts: Record<string, number>, key: string | undefined, by: number) => {
    if (key !== undefined) counts[key] = (counts[key] ?? 0) + by;
  };
  const { truncated } = await readRawSamples(rawFile, METRICS, (s) => {
    if (s.metric === "http_reqs") bump(obs.endpointCalls, s.tags.endpoint, s.value);
    else if (s.metric === "atd_sessions") bump(obs.personaSessions, s.tags.persona, s.value);
    else if (s.metric === "atd_replay_skips") bump(obs.skips, s.tags.endpoint, s.value);
    else {
      const persona = s.tags.persona ?? "";
      bump(obs.thinkCount, persona, 1);
      keep((obs.thinkSeconds[persona] ??= []), obs.thinkCount[persona] ?? 1, s.value);
    }
  });
  obs.truncated = truncated;
  return obs;
}
