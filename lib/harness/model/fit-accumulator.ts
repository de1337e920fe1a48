/**
 * What the fit keeps while the logs stream: counts per endpoint, key, status and arrival bucket, and the closed
 * sessions folded into signatures (first call + calls per endpoint, large counts bucketed). Everything here is bounded
 * by the API's endpoints, the keys, the logged period and the distinct journeys, not by the number of lines.
 */
import { ENDPOINT_NAMES, ENDPOINTS, type EndpointName } from "../../contract/endpoints.ts";
import type { KeptRequest } from "./read-log.ts";
import { Reservoir } from "./reservoir.ts";
import type { ClosedSession } from "./sessions.ts";

/** Gaps shorter than this are back-to-back calls (sent as the last answer came), not think times. */
export const IMMEDIATE_BELOW_SECONDS = 0.02;
/** Arrival buckets are gathered per minute (coarsened to 5 minutes for logs longer than a day). */
export const ARRIVAL_BUCKET_SECONDS = 60;
/** Think-time gaps kept per signature for the fit. */
const GAPS_PER_SIGNATURE = 2000;
/** Distinct signatures kept; sessions of further ones are counted as unclustered (reported). */
export const MAX_SIGNATURES = 20_000;

const N = ENDPOINT_NAMES.length;

export interface Signature {
  first: number;
  /** Calls per endpoint (bucketed above 4: 8, 16, 32, ...). */
  counts: number[];
  sessions: number;
  calls: number;
  /** transitions[from * (N + 1) + to], to = N for the end of the session. */
  transitions: Float64Array;
  thinks: Reservoir;
  immediate: number;
}

function bucketed(count: number): number {
  return count <= 4 ? count : 2 ** Math.ceil(Math.log2(count));
}

export class FitAccumulator {
  readonly endpointCalls = new Map<EndpointName, number>();
  readonly keyCalls = new Map<string, number>();
  readonly arrivals = new Map<number, number>();
  readonly signatures = new Map<string, Signature>();
  sessions = 0;
  unclustered = 0;
  rateLimited = 0;
  throttled = 0;
  booked = { created: 0, confirmed: 0, cancelled: 0 };

  request(r: KeptRequest): void {
    this.endpointCalls.set(r.endpoint, (this.endpointCalls.get(r.endpoint) ?? 0) + 1);
    this.keyCalls.set(r.clientHash, (this.keyCalls.get(r.clientHash) ?? 0) + 1);
    if (ENDPOINTS[r.endpoint].rateLimited) {
      this.rateLimited++;
      if (r.status === 429) this.throttled++;
    }
    if (r.status >= 200 && r.status < 300) {
      if (r.endpoint === "bookingCreate") this.booked.created++;
      else if (r.endpoint === "bookingConfirm") this.booked.confirmed++;
      else if (r.endpoint === "bookingCancel") this.booked.cancelled++;
    }
  }

  session(s: ClosedSession): void {
    this.sessions++;
    const bucket = Math.floor(s.startMs / 1000 / ARRIVAL_BUCKET_SECONDS);
    this.arrivals.set(bucket, (this.arrivals.get(bucket) ?? 0) + 1);
    const sig = this.#signatureOf(s);
    if (sig === undefined) {
      this.unclustered++;
      return;
    }
    sig.sessions++;
    sig.calls += s.calls.length;
    for (let i = 0; i < s.calls.length; i++) {
      const to = i + 1 < s.calls.length ? (s.calls[i + 1] as number) : N;
      const at = (s.calls[i] as number) * (N + 1) + to;
      sig.transitions[at] = (sig.transitions[at] ?? 0) + 1;
    }
    for (const gap of s.gapsSeconds) {
      if (gap < IMMEDIATE_BELOW_SECONDS) sig.immediate++;
      else sig.thinks.add(gap);
    }
  }

  #signatureOf(s: ClosedSession): Signature | undefined {
    const counts = new Array<number>(N).fill(0);
    for (const call of s.calls) counts[call] = (counts[call] ?? 0) + 1;
    const first = s.calls[0] as number;
    const id = `${first}:${counts.map(bucketed).join(",")}`;
    let sig = this.signatures.get(id);
    if (sig === undefined) {
      if (this.signatures.size >= MAX_SIGNATURES) return undefined;
      sig = {
        first,
        counts: counts.map(bucketed),
        sessions: 0,
        calls: 0,
        transitions: new Float64Array(N * (N + 1)),
        thinks: new Reservoir(GAPS_PER_SIGNATURE, this.signatures.size + 1),
        immediate: 0,
      };
      this.signatures.set(id, sig);
    }
    return sig;
  }
}
