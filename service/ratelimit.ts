/**
 * The rate limiter of spec Part 8: one allowance per bucket (an API key), three selectable algorithms.
 * Refused requests do not consume allowance. Time is real time (ms since epoch), passed in by the caller.
 */
import type { RateLimitAlgorithm } from "../lib/contract/index.ts";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left after this one. */
  remaining: number;
  /** When a refused request may be retried (429), or when the allowance is whole again (success). Real ms. */
  resetMs: number;
}

export interface RateLimitConfig {
  limit: number;
  windowSeconds: number;
  algorithm: RateLimitAlgorithm;
}

interface Algorithm {
  consume(bucket: string, now: number): RateDecision;
  /** Opaque copy of a bucket's state, and its restoration: used only by the counter-race defect. */
  snapshot(bucket: string): unknown;
  restore(bucket: string, state: unknown): void;
}

class FixedWindow implements Algorithm {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #buckets = new Map<string, { start: number; count: number }>();
  constructor(limit: number, windowMs: number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }
  consume(bucket: string, now: number): RateDecision {
    let b = this.#buckets.get(bucket);
    if (b === undefined || now >= b.start + this.#windowMs) {
      b = { start: now, count: 0 };
      this.#buckets.set(bucket, b);
    }
    const resetMs = b.start + this.#windowMs;
    if (b.count >= this.#limit) return { allowed: false, limit: this.#limit, remaining: 0, resetMs };
    b.count++;
    return { allowed: true, limit: this.#limit, remaining: this.#limit - b.count, resetMs };
  }
  snapshot(bucket: string): unknown {
    const b = this.#buckets.get(bucket);
    return b === undefined ? undefined : { ...b };
  }
  restore(bucket: string, state: unknown): void {
    if (state === undefined) this.#buckets.delete(bucket);
    else this.#buckets.set(bucket, { ...(state as { start: number; count: number }) });
  }
}

/** Sliding log: a request is allowed when fewer than `limit` were allowed in the last window. */
class SlidingWindow implements Algorithm {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #logs = new Map<string, number[]>();
  constructor(limit: number, windowMs: number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }
  consume(bucket: string, now: number): RateDecision {
    let log = this.#logs.get(bucket);
    if (log === undefined) {
      log = [];
      this.#logs.set(bucket, log);
    }
    let drop = 0;
    while (drop < log.length && (log[drop] ?? 0) + this.#windowMs <= now) drop++;
    if (drop > 0) log.splice(0, drop);
    if (log.length >= this.#limit) {
      return { allowed: false, limit: this.#limit, remaining: 0, resetMs: (log[0] ?? now) + this.#windowMs };
    }
    log.push(now);
    return {
      allowed: true,
      limit: this.#limit,
      remaining: this.#limit - log.length,
      resetMs: (log[0] ?? now) + this.#windowMs,
    };
  }
  snapshot(bucket: string): unknown {
    return [...(this.#logs.get(bucket) ?? [])];
  }
  restore(bucket: string, state: unknown): void {
    this.#logs.set(bucket, [...(state as number[])]);
  }
}

/** Token bucket: `limit` tokens, refilled evenly over the window; starts full. */
class TokenBucket implements Algorithm {
  readonly #limit: number;
  readonly #perMs: number;
  readonly #buckets = new Map<string, { tokens: number; last: number }>();
  constructor(limit: number, windowMs: number) {
    this.#limit = limit;
    this.#perMs = limit / windowMs;
  }
  consume(bucket: string, now: number): RateDecision {
    let b = this.#buckets.get(bucket);
    if (b === undefined) {
      b = { tokens: this.#limit, last: now };
      this.#buckets.set(bucket, b);
    }
    b.tokens = Math.min(this.#limit, b.tokens + Math.max(0, now - b.last) * this.#perMs);
    b.last = now;
    if (b.tokens < 1) {
      return { allowed: false, limit: this.#limit, remaining: 0, resetMs: now + (1 - b.tokens) / this.#perMs };
    }
    b.tokens -= 1;
    return {
      allowed: true,
      limit: this.#limit,
      remaining: Math.floor(b.tokens),
      resetMs: now + (this.#limit - b.tokens) / this.#perMs,
    };
  }
  snapshot(bucket: string): unknown {
    const b = this.#buckets.get(bucket);
    return b === undefined ? undefined : { ...b };
  }
  restore(bucket: string, state: unknown): void {
    if (state === undefined) this.#buckets.delete(bucket);
    else this.#buckets.set(bucket, { ...(state as { tokens: number; last: number }) });
  }
}

export class RateLimiter {
  #config: RateLimitConfig;
  #algorithm: Algorithm;

  constructor(config: RateLimitConfig) {
    this.#config = { ...config };
    this.#algorithm = RateLimiter.#make(config);
  }

  static #make(config: RateLimitConfig): Algorithm {
    const windowMs = config.windowSeconds * 1000;
    switch (config.algorithm) {
      case "fixed-window":
        return new FixedWindow(config.limit, windowMs);
      case "sliding-window":
        return new SlidingWindow(config.limit, windowMs);
      case "token-bucket":
        return new TokenBucket(config.limit, windowMs);
    }
  }

  get config(): RateLimitConfig {
    return { ...this.#config };
  }

  /** Replaces the configuration and forgets every bucket. */
  configure(config: RateLimitConfig): void {
    this.#config = { ...config };
    this.#algorithm = RateLimiter.#make(config);
  }

  reset(): void {
    this.#algorithm = RateLimiter.#make(this.#config);
  }

  consume(bucket: string, now: number): RateDecision {
    return this.#algorithm.consume(bucket, now);
  }

  snapshot(bucket: string): unknown {
    return this.#algorithm.snapshot(bucket);
  }

  restore(bucket: string, state: unknown): void {
    this.#algorithm.restore(bucket, state);
  }
}
