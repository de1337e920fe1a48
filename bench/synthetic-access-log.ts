/**
 * A synthetic access log with a known persona mix, in the reference service's combined layout (docs/service.md):
 * for the model fit's tests (a persona the built-in model lacks: a partner that only polls booking details) and its
 * benchmark (bench/model-fit.ts streams a large one to disk). Lines come out in time order, as a server writes them.
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import { logTime } from "../service/access-log.ts";

export const SYNTHETIC_PERSONAS = ["catalogueSync", "shopper", "booker", "backOffice", "poller"] as const;
export type SyntheticPersona = (typeof SYNTHETIC_PERSONAS)[number];

export interface SyntheticLogOptions {
  /** Share of sessions per persona (adds up to 1). */
  mix: Readonly<Record<SyntheticPersona, number>>;
  sessionsPerSecond: number;
  /** Stop after this many sessions, or once this many bytes are written. */
  sessions?: number;
  bytes?: number;
  /** One line in this many is garbage (0: none). */
  malformedEvery?: number;
  /** Distinct keys, taken in turn by sessions: enough that one key's sessions never overlap. */
  keys?: number;
  startMs?: number;
  seed?: number;
}

export interface SyntheticLogTruth {
  sessions: Record<SyntheticPersona, number>;
  lines: number;
  malformed: number;
  bytes: number;
}

/** Think times of the built-in personas: uniform [0, 0.5] s (the default model); the poller's about 2 s. */
const THINK_MAX = 0.5;

function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

type Call = [method: string, path: string, status: number];

function journey(persona: SyntheticPersona, random: () => number): { calls: Call[]; thinks: boolean[] } {
  const id = () =>
    Math.floor(random() * 0xffffffff)
      .toString(16)
      .padStart(8, "0") + "-0000-4000-8000-000000000000";
  const calls: Call[] = [];
  const thinks: boolean[] = [];
  const add = (think: boolean, method: string, p: string, status = 200) => {
    if (calls.length > 0) thinks.push(think);
    calls.push([method, p, status]);
  };
  if (persona === "shopper") {
    const t = id();
    add(false, "GET", `/v2/product-types/${t}/price-lists?date_start=2026-12-01&date_end=2026-12-14`);
    add(true, "GET", `/v2/product-types/${t}/price-lists/2026-12-02`);
    add(true, "GET", `/v2/product-types/${t}/price-lists/2026-12-03`);
  } else if (persona === "booker") {
    add(false, "GET", `/v2/product-types/${id()}/price-lists/2026-12-05`);
    if (random() < 0.8) {
      const b = id();
      add(true, "POST", "/v2/bookings", 201);
      if (random() < 0.75) {
        add(true, "PUT", `/v2/bookings/${b}/confirm`);
        add(false, "GET", `/v2/bookings/${b}`);
        if (random() < 0.1) add(false, "PUT", `/v2/bookings/${b}/cancel`);
      } else if (random() < 0.2) add(true, "PUT", `/v2/bookings/${b}/cancel`);
    }
  } else if (persona === "catalogueSync") {
    add(false, "GET", "/v2/products?page=1&per_page=50");
    for (let i = 0; i < 2; i++) {
      const p = id();
      const t = id();
      add(true, "GET", `/v2/products/${p}`);
      add(true, "GET", `/v2/products/${p}/product-types`);
      add(true, "GET", `/v2/product-types/${t}`);
      if (random() < 0.5)
        add(false, "GET", `/v2/product-types/${t}/price-lists?date_start=2026-12-01&date_end=2026-12-30`);
    }
  } else if (persona === "backOffice") {
    add(false, "GET", "/v2/bookings?per_page=10");
    for (let i = 0; i < 2; i++) {
      const b = id();
      add(true, "GET", `/v2/bookings/${b}`);
      if (random() < 0.5) add(false, "GET", `/v2/bookings/${b}/vouchers`);
    }
  } else {
    const b = id();
    const polls = 3 + Math.floor(random() * 4);
    for (let i = 0; i < polls; i++) add(true, "GET", `/v2/bookings/${b}`);
  }
  return { calls, thinks };
}

function pickPersona(mix: SyntheticLogOptions["mix"], u: number): SyntheticPersona {
  let acc = 0;
  for (const p of SYNTHETIC_PERSONAS) {
    acc += mix[p];
    if (u < acc) return p;
  }
  return "poller";
}

/** Seconds of one think: the built-in personas' uniform draw, the poller's log-normal around 2 s. */
function thinkSeconds(persona: SyntheticPersona, random: () => number): number {
  if (persona !== "poller") return random() * THINK_MAX;
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.exp(Math.log(2) + 0.3 * normal);
}

export async function writeSyntheticLog(out: Writable, options: SyntheticLogOptions): Promise<SyntheticLogTruth> {
  const random = prng(options.seed ?? 7);
  const keys = options.keys ?? 10_000;
  const truth: SyntheticLogTruth = {
    sessions: { catalogueSync: 0, shopper: 0, booker: 0, backOffice: 0, poller: 0 },
    lines: 0,
    malformed: 0,
    bytes: 0,
  };
  let pending: { t: number; line: string }[] = [];
  let now = options.startMs ?? Date.UTC(2026, 10, 27, 0, 0, 0);
  let session = 0;
  const done = () =>
    (options.sessions !== undefined && session >= options.sessions) ||
    (options.bytes !== undefined && truth.bytes >= options.bytes);
  const flush = async (before: number) => {
    pending.sort((a, b) => a.t - b.t);
    const cut = pending.findIndex((p) => p.t >= before);
    const ready = cut === -1 ? pending : pending.slice(0, cut);
    pending = cut === -1 ? [] : pending.slice(cut);
    const text = ready.map((p) => p.line).join("");
    truth.bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, "drain");
  };
  while (!done()) {
    // One second of session starts; every later session starts after it, so what is before it can be written.
    const starts = Math.max(1, Math.round(options.sessionsPerSecond));
    for (let i = 0; i < starts && !done(); i++, session++) {
      const persona = pickPersona(options.mix, random());
      truth.sessions[persona]++;
      const key = `partner-${String(session % keys).padStart(5, "0")}`;
      let t = now + random() * 1000;
      const { calls, thinks } = journey(persona, random);
      calls.forEach(([method, p, status], c) => {
        if (c > 0) t += (thinks[c - 1] ? thinkSeconds(persona, random) * 1000 : 0) + 2 + random() * 3;
        truth.lines++;
        const garbage = options.malformedEvery !== undefined && truth.lines % options.malformedEvery === 0;
        if (garbage) truth.malformed++;
        const line = garbage
          ? `${key} this is not a log line ${truth.lines}\n`
          : `10.0.0.${session % 250} - ${key} [${logTime(t)}] "${method} ${p} HTTP/1.1" ${status} 512 "-" "synthetic/1"\n`;
        pending.push({ t, line });
      });
    }
    now += 1000;
    await flush(now);
  }
  await flush(Infinity);
  return truth;
}
