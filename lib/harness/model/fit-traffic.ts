/**
 * The fit: reads the logs once (streaming), sessionizes, and turns the accumulated counts into the `fitted` part of a
 * traffic model (lib/contract/fitted-traffic.ts) with what the report shows beside it.
 */
import { ENDPOINT_NAMES, type EndpointName } from "../../contract/endpoints.ts";
import { SESSION_END, type FittedPersona, type FittedTraffic } from "../../contract/fitted-traffic.ts";
import { ARRIVAL_BUCKET_SECONDS, FitAccumulator, type Signature } from "./fit-accumulator.ts";
import { clusterSignatures, type Clustering } from "./cluster-sessions.ts";
import { lineParser, type FieldMap, type LogFormat } from "./log-formats.ts";
import { personaOf, shapeOf, type ClusterProfile } from "./name-personas.ts";
import { readLogs, type ReadCounts } from "./read-log.ts";
import { Sessionizer } from "./sessions.ts";
import { fitThinkTime } from "./think-time-fit.ts";

export interface FitOptions {
  files: readonly string[];
  format: LogFormat;
  fields: FieldMap;
  sessionGapSeconds: number;
}

/** The fit and what the report shows beside it. */
export interface FitResult {
  fitted: FittedTraffic;
  counts: ReadCounts;
  clustering: Clustering;
  /** Per persona (same order), a sample of its think-time gaps, for the report's histogram. */
  thinkSamples: number[][];
  peakOpenSessions: number;
  unclustered: number;
}

const N = ENDPOINT_NAMES.length;
const THINKS_PER_PERSONA = 20_000;
const round = (x: number, digits = 4) => Number(x.toFixed(digits));

export async function fitTraffic(options: FitOptions): Promise<FitResult> {
  const acc = new FitAccumulator();
  const sessions = new Sessionizer(options.sessionGapSeconds, (s) => {
    acc.session(s);
  });
  const counts = await readLogs(options.files, lineParser(options.format, options.fields), (r) => {
    acc.request(r);
    sessions.add(r);
  });
  sessions.finish();
  const signatures = [...acc.signatures.values()];
  const clustering = clusterSignatures(signatures);
  const groups = personaGroups(signatures, clustering.labels);
  const clustered = signatures.reduce((a, s) => a + s.sessions, 0);
  const personas = groups.map((g) => fittedPersona(g.name, g.members, clustered));
  const kept = [...acc.endpointCalls.values()].reduce((a, b) => a + b, 0);
  const fitted: FittedTraffic = {
    personas: personas.map((p) => p.persona),
    arrival: arrivalCurve(acc.arrivals),
    endpointMix: Object.fromEntries([...acc.endpointCalls].map(([e, n]) => [e, round(n / kept, 6)])),
    keySkew: keySkew([...acc.keyCalls.values()]),
    conversion: {
      createdPerSession: round(acc.sessions === 0 ? 0 : acc.booked.created / acc.sessions),
      confirmedPerCreated: round(acc.booked.created === 0 ? 0 : acc.booked.confirmed / acc.booked.created),
      cancelledPerCreated: round(acc.booked.created === 0 ? 0 : acc.booked.cancelled / acc.booked.created),
    },
    throttledShare: round(acc.rateLimited === 0 ? 0 : acc.throttled / acc.rateLimited, 6),
    source: {
      files: [...options.files],
      lines: counts.lines,
      malformed: counts.malformed,
      kept: counts.kept,
      sessions: acc.sessions,
    },
  };
  return {
    fitted,
    counts,
    clustering,
    thinkSamples: personas.map((p) => p.thinks),
    peakOpenSessions: sessions.peakOpen,
    unclustered: acc.unclustered,
  };
}

/** Clusters by name: those of one built-in persona together, the others by shape as cluster-1, cluster-2, ... */
function personaGroups(signatures: readonly Signature[], labels: readonly number[]) {
  const byCluster = new Map<number, Signature[]>();
  signatures.forEach((s, i) => {
    const label = labels[i] as number;
    byCluster.set(label, [...(byCluster.get(label) ?? []), s]);
  });
  const clusters = [...byCluster.values()].sort((a, b) => sessionsOf(b) - sessionsOf(a));
  const groups = new Map<string, Signature[]>();
  const unnamed = new Map<string, string>();
  for (const members of clusters) {
    const profile = profileOf(members);
    const shape = shapeOf(profile);
    const name = personaOf(profile) ?? unnamed.get(shape) ?? `cluster-${String(unnamed.size + 1)}`;
    if (name.startsWith("cluster-")) unnamed.set(shape, name);
    groups.set(name, [...(groups.get(name) ?? []), ...members]);
  }
  return [...groups].map(([name, members]) => ({ name, members }));
}

const sessionsOf = (members: readonly Signature[]) => members.reduce((a, s) => a + s.sessions, 0);

function profileOf(members: readonly Signature[]): ClusterProfile {
  const calls: Partial<Record<EndpointName, number>> = {};
  const firsts: Partial<Record<EndpointName, number>> = {};
  for (const s of members) {
    const first = ENDPOINT_NAMES[s.first] as EndpointName;
    firsts[first] = (firsts[first] ?? 0) + s.sessions;
    for (let from = 0; from < N; from++) {
      let made = 0;
      for (let to = 0; to <= N; to++) made += s.transitions[from * (N + 1) + to] as number;
      const name = ENDPOINT_NAMES[from] as EndpointName;
      if (made > 0) calls[name] = (calls[name] ?? 0) + made;
    }
  }
  return { calls, firsts };
}

/** One persona from its signatures: share, first calls, transitions (rows add up to 1) and think time. */
function fittedPersona(
  name: string,
  members: readonly Signature[],
  clustered: number,
): { persona: FittedPersona; thinks: number[] } {
  const sessions = sessionsOf(members);
  const profile = profileOf(members);
  const start = Object.fromEntries(
    Object.entries(profile.firsts).map(([e, n]) => [e, round(n / sessions, 6)]),
  ) as FittedPersona["start"];
  const transitions: FittedPersona["transitions"] = {};
  for (let from = 0; from < N; from++) {
    const row = new Array<number>(N + 1).fill(0);
    for (const s of members)
      for (let to = 0; to <= N; to++) row[to] = (row[to] ?? 0) + (s.transitions[from * (N + 1) + to] as number);
    const total = row.reduce((a, b) => a + b, 0);
    if (total === 0) continue;
    const next: Record<string, number> = {};
    row.forEach((n, to) => {
      if (n > 0) next[to === N ? SESSION_END : (ENDPOINT_NAMES[to] as string)] = round(n / total, 6);
    });
    transitions[ENDPOINT_NAMES[from] as EndpointName] = next;
  }
  const thinks = mergedThinks(members);
  const thinkCount = members.reduce((a, s) => a + s.thinks.seen, 0);
  const immediate = members.reduce((a, s) => a + s.immediate, 0);
  const persona: FittedPersona = {
    name,
    share: round(sessions / clustered, 6),
    sessions,
    meanCalls: round(members.reduce((a, s) => a + s.calls, 0) / sessions),
    start,
    transitions,
    thinkTime: fitThinkTime(thinks, immediate, thinkCount),
  };
  return { persona, thinks };
}

/** The signatures' think-time samples, each in proportion to the gaps it saw: one sample of the persona's gaps. */
function mergedThinks(members: readonly Signature[]): number[] {
  const seen = members.reduce((a, s) => a + s.thinks.seen, 0);
  const out: number[] = [];
  for (const s of members) {
    const want = Math.min(s.thinks.values.length, Math.round((s.thinks.seen / Math.max(1, seen)) * THINKS_PER_PERSONA));
    out.push(...s.thinks.values.slice(0, want));
  }
  return out;
}

/** Sessions per second per bucket, from the first bucket to the last; 5-minute buckets for more than a day. */
export function arrivalCurve(perMinute: ReadonlyMap<number, number>): FittedTraffic["arrival"] {
  if (perMinute.size === 0)
    return { start: new Date(0).toISOString(), bucketSeconds: ARRIVAL_BUCKET_SECONDS, sessionsPerSecond: [] };
  const minutes = [...perMinute.keys()];
  const first = Math.min(...minutes);
  const last = Math.max(...minutes);
  const factor = last - first + 1 > 1440 ? 5 : 1;
  const bucketSeconds = ARRIVAL_BUCKET_SECONDS * factor;
  const startBucket = Math.floor(first / factor);
  const counts = new Array<number>(Math.floor(last / factor) - startBucket + 1).fill(0);
  for (const [minute, n] of perMinute) {
    const at = Math.floor(minute / factor) - startBucket;
    counts[at] = (counts[at] ?? 0) + n;
  }
  return {
    start: new Date(startBucket * bucketSeconds * 1000).toISOString(),
    bucketSeconds,
    sessionsPerSecond: counts.map((n) => round(n / bucketSeconds, 6)),
  };
}

/** How unevenly requests spread over keys: the top tenth's share of requests and the Gini coefficient. */
export function keySkew(perKey: readonly number[]): FittedTraffic["keySkew"] {
  const sorted = [...perKey].sort((a, b) => a - b);
  const n = sorted.length;
  const total = sorted.reduce((a, b) => a + b, 0);
  if (n === 0 || total === 0) return { keys: n, topDecileShare: 0, gini: 0 };
  const top = sorted.slice(n - Math.ceil(n / 10)).reduce((a, b) => a + b, 0);
  const weighted = sorted.reduce((a, x, i) => a + (i + 1) * x, 0);
  return { keys: n, topDecileShare: round(top / total), gini: round((2 * weighted) / (n * total) - (n + 1) / n) };
}
