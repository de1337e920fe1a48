/**
 * The rate-limit value checks of every answer (lib/k6/checks.ts, RATE_LIMIT_VALUE_CHECKS): each rule fails on the
 * sequence of answers it is there for, and none of them fails on what the reference service's three algorithms answer
 * to one VU while others spend the same key, driven through the real limiter (service/ratelimit.ts) on a simulated
 * clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { RATE_LIMIT_ALGORITHMS, type RateLimitAlgorithm } from "../../lib/contract/index.ts";
import { checkRateLimitHeaders, checkResponse, RATE_LIMIT_VALUE_CHECKS } from "../../lib/k6/checks.ts";
import { ApiClient } from "../../lib/k6/client.ts";
import { RateLimiter } from "../../service/ratelimit.ts";
import { k6State } from "../shims/k6-state.ts";

const { limitConstant, belowLimit, neverRises } = RATE_LIMIT_VALUE_CHECKS;
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

let keyCount = 0;

/** A client with a key of its own: what one VU saw of another test's key must not carry over. */
function freshClient(): ApiClient {
  keyCount += 1;
  return new ApiClient({
    baseUrl: "http://127.0.0.1:9",
    apiKey: `atd-secret-key-${String(keyCount).padStart(4, "0")}`,
    timeout: "5s",
    phase: "load",
    onThrottle: "return",
    maxThrottleWaitSeconds: 0,
  });
}

interface Answer {
  status?: number;
  limit: number;
  remaining: number;
  /** X-RateLimit-Reset, UNIX seconds; omitted when undefined. */
  reset?: number;
  /** The Date header, ms since the epoch; omitted when undefined. */
  date?: number;
}

function headersOf(a: Answer): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Ratelimit-Limit": String(a.limit),
    "X-Ratelimit-Remaining": String(a.remaining),
  };
  if (a.reset !== undefined) headers["X-Ratelimit-Reset"] = String(a.reset);
  if (a.date !== undefined) headers.Date = new Date(a.date).toUTCString();
  return headers;
}

/** Sends one request of `client` that gets `answer`, `afterMs` after the previous one, and checks it. */
function answer(client: ApiClient, a: Answer, afterMs = 5): void {
  vi.setSystemTime(Date.now() + afterMs);
  k6State.handler = () => ({ status: a.status ?? 200, headers: headersOf(a), body: "{}" });
  checkRateLimitHeaders(client.getProductType("t1"));
}

function recorded(name: string): boolean[] {
  return k6State.checks.filter((c) => c.name === name).map((c) => c.ok);
}

function problems(warn: { mock: { calls: unknown[][] } }): string {
  return warn.mock.calls.map((c) => String(c[0])).join("\n");
}

let warn: MockInstance<typeof console.warn>;

beforeEach(() => {
  k6State.reset();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
});

afterEach(() => {
  warn.mockRestore();
  vi.useRealTimers();
});

describe("X-RateLimit-Limit constant per key", () => {
  it("should fail a limit that changes between two answers of one key, naming both values", () => {
    const client = freshClient();
    answer(client, { limit: 400, remaining: 399 });
    answer(client, { limit: 400, remaining: 398 });
    answer(client, { limit: 500, remaining: 397 });
    expect(recorded(limitConstant)).toEqual([true, false]);
    expect(problems(warn)).toContain("X-RateLimit-Limit changed from 400 (productType) to 500 (productType)");
  });

  it("should name the key by its last four characters only", () => {
    const client = freshClient();
    answer(client, { limit: 400, remaining: 399 });
    answer(client, { limit: 401, remaining: 398 });
    const key = client.options.apiKey;
    expect(problems(warn)).toContain(`for key …${key.slice(-4)}`);
    expect(problems(warn)).not.toContain(key);
  });

  it("should judge each key against its own answers", () => {
    const a = freshClient();
    const b = freshClient();
    answer(a, { limit: 400, remaining: 399 });
    answer(b, { limit: 20, remaining: 19 });
    answer(a, { limit: 400, remaining: 398 });
    answer(b, { limit: 20, remaining: 18 });
    expect(recorded(limitConstant)).toEqual([true, true]);
  });
});

describe("X-RateLimit-Remaining below the limit on a 200", () => {
  it("should fail a 200 whose Remaining is the limit: the request just counted spent one", () => {
    const client = freshClient();
    answer(client, { limit: 400, remaining: 400 });
    expect(recorded(belowLimit)).toEqual([false]);
    expect(problems(warn)).toContain("X-RateLimit-Remaining is 400 on a 200 of productType");
    expect(problems(warn)).toContain("expected below the limit 400");
  });

  it("should pass 0 and limit - 1 on a 200, and not judge a 429", () => {
    const client = freshClient();
    answer(client, { limit: 400, remaining: 399 });
    answer(client, { limit: 400, remaining: 0 });
    answer(client, { status: 429, limit: 400, remaining: 0 });
    expect(recorded(belowLimit)).toEqual([true, true]);
  });

  it("should record it in the load path too (checkResponse), beside the headers check", () => {
    const client = freshClient();
    k6State.handler = () => ({ status: 200, headers: headersOf({ limit: 400, remaining: 400 }), body: "{}" });
    expect(checkResponse(client.getProductType("t1"))).toBe(false);
    expect(k6State.checks.slice(0, 2).map((c) => [c.name, c.ok])).toEqual([
      ["productType: rate-limit headers", true],
      [belowLimit, false],
    ]);
  });
});

describe("X-RateLimit-Remaining never rises within a window", () => {
  const reset = T0 / 1000 + 60;

  it("should fail Remaining rising while Reset stays and the window is far from its end", () => {
    const client = freshClient();
    answer(client, { limit: 400, remaining: 300, reset, date: T0 });
    answer(client, { limit: 400, remaining: 380, reset, date: T0 });
    expect(recorded(neverRises)).toEqual([false]);
    expect(problems(warn)).toMatch(
      /X-RateLimit-Remaining rose from 300 \(productType\) to 380 \(productType\) for key …\d{4} 0\.01 s later, with X-RateLimit-Reset \d+ then \d+/,
    );
  });

  it("should fail Remaining rising when Reset moves backward", () => {
    const client = freshClient();
    answer(client, { limit: 400, remaining: 100, reset, date: T0 });
    answer(client, { limit: 400, remaining: 250, reset: reset - 10, date: T0 });
    expect(recorded(neverRises)).toEqual([false]);
  });

  it("should pass Remaining falling by more than one: other VUs spend the same key", () => {
    const client = freshClient();
    answer(client, { limit: 400, remaining: 390, reset, date: T0 });
    answer(client, { limit: 400, remaining: 350, reset, date: T0 });
    answer(client, { limit: 400, remaining: 350, reset, date: T0 });
    answer(client, { status: 429, limit: 400, remaining: 0, reset, date: T0 });
    expect(recorded(neverRises)).toEqual([true, true, true]);
  });

  it("should pass a reset to a whole allowance in a new window (Reset moved forward), without needing Date", () => {
    const client = freshClient();
    answer(client, { status: 429, limit: 400, remaining: 0, reset });
    answer(client, { limit: 400, remaining: 399, reset: reset + 60 }, 100);
    expect(recorded(neverRises)).toEqual([true]);
  });

  it("should pass a rise once the earlier answer's Reset has come (a sliding window), even with the same Reset", () => {
    const client = freshClient();
    answer(client, { limit: 400, remaining: 10, reset, date: T0 });
    // The oldest requests aged out; the next oldest ones fall in the same second, so Reset reads the same.
    answer(client, { limit: 400, remaining: 120, reset, date: (reset - 1) * 1000 }, 59_000);
    expect(recorded(neverRises)).toEqual([true]);
  });

  it("should pass a rise no larger than what refills at the limit per minute in the time between (a token bucket)", () => {
    const client = freshClient();
    answer(client, { limit: 400, remaining: 100, reset, date: T0 });
    // 3 s at 400 per 60 s refill 20.
    answer(client, { limit: 400, remaining: 119, reset, date: T0 + 3000 }, 3000);
    answer(client, { limit: 400, remaining: 150, reset, date: T0 + 3010 }, 10);
    expect(recorded(neverRises)).toEqual([true, false]);
  });

  it("should count the time from the earlier request's sending, however long its answer took", () => {
    const client = freshClient();
    vi.setSystemTime(T0);
    k6State.handler = () => {
      // The answer takes 6 s to come (a slow service): 40 refill between the two requests being counted.
      vi.setSystemTime(Date.now() + 6000);
      return { status: 200, headers: headersOf({ limit: 400, remaining: 100, reset, date: T0 }), body: "{}" };
    };
    checkRateLimitHeaders(client.getProductType("t1"));
    answer(client, { limit: 400, remaining: 140, reset, date: T0 + 6000 }, 10);
    expect(recorded(neverRises)).toEqual([true]);
  });

  it("should not judge a rise that no Reset or no Date can place in a window", () => {
    const client = freshClient();
    answer(client, { limit: 400, remaining: 100 });
    answer(client, { limit: 400, remaining: 300 }); // no Reset: not judged
    answer(client, { limit: 400, remaining: 100, reset }); // a fall: passes whatever the window
    answer(client, { limit: 400, remaining: 300, reset }); // the same Reset, but no Date: not judged
    expect(recorded(neverRises)).toEqual([true]);
  });

  it("should judge each key against its own answers", () => {
    const a = freshClient();
    const b = freshClient();
    answer(a, { limit: 400, remaining: 100, reset, date: T0 });
    answer(b, { limit: 400, remaining: 300, reset, date: T0 });
    answer(a, { limit: 400, remaining: 99, reset, date: T0 });
    expect(recorded(neverRises)).toEqual([true]);
  });
});

describe("the refill window", () => {
  it("should take the window from ATD_RATE_WINDOW_SECONDS (--rate-window) when given", async () => {
    vi.resetModules();
    vi.stubGlobal("__ENV", { ATD_RATE_WINDOW_SECONDS: "3" });
    try {
      const checks = await import("../../lib/k6/checks.ts");
      const { ApiClient: FreshClient } = await import("../../lib/k6/client.ts");
      const { k6State: state } = await import("../shims/k6-state.ts");
      const client = new FreshClient({ ...freshClient().options });
      const reset = T0 / 1000 + 3;
      for (const [remaining, after] of [
        [5, 0],
        [18, 2000], // 2 s of a 20-per-3-s bucket refill 14: explained
        [19, 10], // 10 ms refill 1 (+1 for rounding): explained
      ] as const) {
        vi.setSystemTime(Date.now() + after);
        state.handler = () => ({
          status: 200,
          headers: headersOf({ limit: 20, remaining, reset, date: T0 }),
          body: "{}",
        });
        checks.checkRateLimitHeaders(client.getProductType("t1"));
      }
      expect(state.checks.filter((c) => c.name === neverRises).map((c) => c.ok)).toEqual([true, true]);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});

describe("problem reports", () => {
  it("should log at most ten problems per value check and VU, however many answers fail", async () => {
    vi.resetModules();
    try {
      const checks = await import("../../lib/k6/checks.ts");
      const { ApiClient: FreshClient } = await import("../../lib/k6/client.ts");
      const { k6State: state } = await import("../shims/k6-state.ts");
      const client = new FreshClient({ ...freshClient().options });
      for (let i = 0; i < 30; i++) {
        vi.setSystemTime(Date.now() + 5);
        const limit = 400 + i;
        state.handler = () => ({ status: 200, headers: headersOf({ limit, remaining: 0 }), body: "{}" });
        checks.checkRateLimitHeaders(client.getProductType("t1"));
      }
      expect(state.checks.filter((c) => c.name === limitConstant && !c.ok)).toHaveLength(29);
      expect(problems(warn).match(/X-RateLimit-Limit changed/g)).toHaveLength(10);
    } finally {
      vi.resetModules();
    }
  });
});

/** A seeded generator (mulberry32): the simulations below are the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type HeaderBug = "none" | "remaining-per-endpoint";

/**
 * One VU's view of a key that others spend too, for `seconds` of simulated time, answered by the reference service's
 * limiter with the headers its API sends (service/api/server.ts): Reset = the decision's time rounded up to seconds,
 * Date = the second, up to a second late (Node caches it). Others spend in bursts (a sync partner paging through) and
 * steadily, sometimes past the limit. Returns how often this VU saw Remaining rise.
 */
function simulate(algorithm: RateLimitAlgorithm, seed: number, seconds: number, bug: HeaderBug = "none"): number {
  const limiter = new RateLimiter({ limit: 400, windowSeconds: 60, algorithm });
  const next = random(seed);
  const client = freshClient();
  const key = client.options.apiKey;
  const perEndpoint = new Map<string, { resetMs: number; count: number }>();
  const endpoints = ["products", "product", "productType"] as const;
  let previous: number | undefined;
  let rises = 0;
  vi.setSystemTime(T0 + Math.floor(next() * 1000));
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const others = next() < 0.02 ? Math.floor(next() * 150) : Math.floor(next() * 4);
    for (let i = 0; i < others; i++) limiter.consume(key, Date.now());
    const endpoint = endpoints[Math.floor(next() * endpoints.length)] ?? "products";
    k6State.handler = () => {
      const now = Date.now();
      const decision = limiter.consume(key, now);
      let remaining = decision.allowed ? decision.remaining : 0;
      if (bug === "remaining-per-endpoint" && decision.allowed) {
        const count = perEndpoint.get(endpoint);
        const current = count && count.resetMs === decision.resetMs ? count : { resetMs: decision.resetMs, count: 0 };
        current.count += 1;
        perEndpoint.set(endpoint, current);
        remaining = decision.limit - current.count;
      }
      if (previous !== undefined && remaining > previous) rises += 1;
      previous = remaining;
      const lag = Math.floor(next() * 1000);
      return {
        status: decision.allowed ? 200 : 429,
        headers: headersOf({
          limit: decision.limit,
          remaining,
          reset: Math.ceil(decision.resetMs / 1000),
          date: Math.floor((now - lag) / 1000) * 1000,
        }),
        body: "{}",
      };
    };
    const res =
      endpoint === "products"
        ? client.listProducts()
        : endpoint === "product"
          ? client.getProduct("p1")
          : client.getProductType("t1");
    vi.setSystemTime(Date.now() + 2 + Math.floor(next() * 40));
    checkResponse(res);
    vi.setSystemTime(Date.now() + Math.floor(next() * (next() < 0.1 ? 3000 : 300)));
  }
  return rises;
}

describe("the reference service's algorithms", () => {
  it.each(RATE_LIMIT_ALGORITHMS)(
    "should raise no false alarm under %s over three windows while others spend the same key",
    (algorithm) => {
      for (const seed of [1, 2, 3]) {
        const rises = simulate(algorithm, seed, 180);
        // The run saw the allowance come back (new windows, aged-out requests, refills), not a flat line.
        expect(rises, `seed ${seed}`).toBeGreaterThanOrEqual(2);
      }
      // Only the rate-limit checks judge these answers (their bodies are no envelope, and 429s are no 200).
      const failed = k6State.checks.filter((c) => !c.ok && c.name.includes("rate-limit")).map((c) => c.name);
      expect(failed, problems(warn)).toEqual([]);
      expect(recorded(neverRises).length).toBeGreaterThan(1000);
      expect(recorded(belowLimit).length).toBeGreaterThan(1000);
      expect(recorded(limitConstant).length).toBeGreaterThan(1000);
    },
  );

  it("should catch Remaining counted per endpoint while the allowance is shared (a fixed window)", () => {
    simulate("fixed-window", 7, 30, "remaining-per-endpoint");
    expect(recorded(neverRises)).toContain(false);
    expect(recorded(limitConstant)).not.toContain(false);
    expect(recorded(belowLimit)).not.toContain(false);
  });
});
