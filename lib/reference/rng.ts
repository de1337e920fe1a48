/** Deterministic hashing for the seeded catalogue and inventory: same inputs, same numbers, on every machine. */

export function mix32(input: number): number {
  let h = input | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** An unsigned 32-bit hash of up to four integers. */
export function hash(a: number, b = 0, c = 0, d = 0): number {
  let h = mix32(a ^ 0x9e3779b9);
  h = mix32(h ^ Math.imul(b | 0, 0x27d4eb2d));
  h = mix32(h ^ Math.imul(c | 0, 0x165667b1));
  h = mix32(h ^ Math.imul(d | 0, 0x61c88647));
  return h;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function hex8(n: number): string {
  return (
    (HEX[(n >>> 24) & 255] ?? "") + (HEX[(n >>> 16) & 255] ?? "") + (HEX[(n >>> 8) & 255] ?? "") + (HEX[n & 255] ?? "")
  );
}

/**
 * A UUID derived from (seed, kind, index): stable across runs. Version 4's shape by default; version 7's (RFC 9562
 * 5.7) under wire-uuids-v7, its Unix-millisecond prefix also derived, within 2023 to 2025.
 */
export function uuidFrom(seed: number, kind: number, index: number, version: 4 | 7 = 4): string {
  const a = hex8(hash(seed, kind, index, 1));
  const b = hex8(hash(seed, kind, index, 2));
  const c = hex8(hash(seed, kind, index, 3));
  const d = hex8(hash(seed, kind, index, 4));
  const variant = ((parseInt(c.charAt(0), 16) & 3) | 8).toString(16);
  const tail = `${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
  if (version === 7)
    return uuidV7(V7_SEEDED_FROM_MS + (hash(seed, kind, index, 5) % V7_SEEDED_SPAN_MS), `${b}${c}${d}`);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${tail}`;
}

const V7_SEEDED_FROM_MS = Date.UTC(2023, 0, 1);
const V7_SEEDED_SPAN_MS = 3 * 365 * 86_400_000;

/**
 * A version-7 UUID (RFC 9562 5.7): 48 bits of Unix time in ms, the version 7, 12 bits, the variant 10, 62 bits; the 74
 * bits after the time are taken from `randomHex` (at least 19 hex digits).
 */
export function uuidV7(unixMs: number, randomHex: string): string {
  const time = Math.max(0, Math.floor(unixMs)).toString(16).padStart(12, "0").slice(-12);
  const variant = ((parseInt(randomHex.charAt(3), 16) & 3) | 8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomHex.slice(0, 3)}-${variant}${randomHex.slice(4, 7)}-${randomHex.slice(7, 19)}`;
}

/** Picks from a list by a hash value. */
export function pick<T>(list: readonly T[], h: number): T {
  const value = list[h % list.length];
  if (value === undefined) throw new Error("pick from an empty list");
  return value;
}

/** A small seeded PRNG (mulberry32) for fault injection and random UUIDs of runtime objects. */
export class Prng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
