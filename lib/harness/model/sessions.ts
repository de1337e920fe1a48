/**
 * Sessions per client: a client's requests belong to one session until it is idle for longer than the gap. Lines are
 * assumed roughly in time order (as a server writes them; several files: oldest first), so a session idle beyond the
 * gap of the newest time seen is closed as the stream goes and its memory freed: only the sessions open at one moment
 * are held, whatever the log's length.
 */
import { ENDPOINT_NAMES, type EndpointName } from "../../contract/endpoints.ts";
import type { KeptRequest } from "./read-log.ts";

/** A finished session: its calls in order (indices into ENDPOINT_NAMES) and the seconds between them. */
export interface ClosedSession {
  startMs: number;
  calls: number[];
  gapsSeconds: number[];
}

interface OpenSession extends ClosedSession {
  lastMs: number;
}

/** A session this long is cut: a client that never pauses (a crawler) must not grow one session without end. */
export const MAX_SESSION_CALLS = 10_000;

export const ENDPOINT_INDEX: ReadonlyMap<EndpointName, number> = new Map(ENDPOINT_NAMES.map((name, i) => [name, i]));

export class Sessionizer {
  readonly #gapMs: number;
  readonly #onClose: (session: ClosedSession) => void;
  readonly #open = new Map<string, OpenSession>();
  #lastSweepMs = -Infinity;
  /** The most sessions open at once: the memory bound, reported. */
  peakOpen = 0;

  constructor(gapSeconds: number, onClose: (session: ClosedSession) => void) {
    this.#gapMs = gapSeconds * 1000;
    this.#onClose = onClose;
  }

  add(request: KeptRequest): void {
    const { timeMs, clientHash } = request;
    const call = ENDPOINT_INDEX.get(request.endpoint) as number;
    const open = this.#open.get(clientHash);
    if (open !== undefined && timeMs - open.lastMs <= this.#gapMs && open.calls.length < MAX_SESSION_CALLS) {
      // A line a little out of order counts as no gap, not a negative one.
      open.gapsSeconds.push(Math.max(0, timeMs - open.lastMs) / 1000);
      open.calls.push(call);
      open.lastMs = Math.max(open.lastMs, timeMs);
    } else {
      if (open !== undefined) this.#close(clientHash, open);
      this.#open.set(clientHash, { startMs: timeMs, lastMs: timeMs, calls: [call], gapsSeconds: [] });
      this.peakOpen = Math.max(this.peakOpen, this.#open.size);
    }
    if (timeMs - this.#lastSweepMs > this.#gapMs) this.#sweep(timeMs);
  }

  /** Closes every session still open (the end of the logs). */
  finish(): void {
    for (const [client, session] of this.#open) this.#close(client, session);
  }

  #sweep(nowMs: number): void {
    this.#lastSweepMs = nowMs;
    for (const [client, session] of this.#open) {
      if (nowMs - session.lastMs > this.#gapMs) this.#close(client, session);
    }
  }

  #close(client: string, session: OpenSession): void {
    this.#open.delete(client);
    this.#onClose({ startMs: session.startMs, calls: session.calls, gapsSeconds: session.gapsSeconds });
  }
}
