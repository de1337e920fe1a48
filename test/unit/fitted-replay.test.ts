import { beforeEach, describe, expect, it } from "vitest";
import { arrivalCurveScenario, compressedBucketMs } from "../../lib/contract/arrival-curve.ts";
import { decodeK6Env, encodeK6Env, type EndpointName } from "../../lib/contract/index.ts";
import {
  expectedSessionCalls,
  fittedEndpointMix,
  MAX_FITTED_SESSION_CALLS,
} from "../../lib/contract/fitted-traffic-mix.ts";
import { arrivalOf, expectedIterations } from "../../lib/contract/profiles.ts";
import { DEFAULT_TRAFFIC_MODEL, mergeTrafficModel } from "../../lib/contract/traffic-model.ts";
import { HarnessError } from "../../lib/harness/exit-codes.ts";
import { checkArrivalCurve } from "../../lib/harness/plan/curve-replay-plan.ts";
import { ApiClient } from "../../lib/k6/client.ts";
import type { CatalogueSample } from "../../lib/k6/traffic/catalogue-sample.ts";
import { MAX_THINK_SECONDS, walkFittedSession } from "../../lib/k6/traffic/fitted-walk.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";
import { fittedModel } from "./fitted-models.ts";
import type { FittedPersona } from "../../lib/contract/fitted-traffic.ts";
import { quantile } from "simple-statistics";

const links = [{ rel: "self", href: "/x", method: "GET" }];
const answer = (data: unknown): ShimResponse => ({
  status: 200,
  headers: { "Content-Type": "application/json", "X-RateLimit-Limit": "400", "X-RateLimit-Remaining": "100" },
  body: JSON.stringify(
    Array.isArray(data) ? { data, meta: { pagination: { total: data.length } }, links } : { data, links },
  ),
});

/** A stand-in service: every date open with a slot, bookings reserved on create and approved on confirm. */
function fakeService(method: string, url: string): ShimResponse {
  const path = new URL(url).pathname;
  if (/\/price-lists\/\d{4}-\d{2}-\d{2}$/.test(path)) {
    return answer({ date: "2030-01-01", available: true, timeslots: [{ timeslot: "09:00", available: true }] });
  }
  if (path.endsWith("/price-lists")) return answer([{ date: "2030-01-01", available: true }]);
  if (path === "/v2/bookings" && method === "GET") return answer([{ uuid: "b1" }]);
  if (path.startsWith("/v2/bookings"))
    return answer({ uuid: "b1", status: method === "POST" ? "reserved" : "approved" });
  return answer({ uuid: "x" });
}

const sample: CatalogueSample = {
  productUuids: ["p1", "p2"],
  productPages: 1,
  productTypes: [
    { uuid: "t1", productUuid: "p1", timeslotted: true, daysInAdvance: 0, minPax: 1, maxPax: 4, options: [] },
  ],
};
const client = new ApiClient({
  baseUrl: "http://127.0.0.1:9",
  apiKey: "k",
  timeout: "5s",
  phase: "load",
  onThrottle: "wait",
  maxThrottleWaitSeconds: 60,
});

/** Walks sessions 0 to sessions-1; seed: the key's seed booking (null: setup made none). */
function walk(sessions: number, fitted = fittedModel(), seed: string | null = "seed"): void {
  const seedBooking = seed ?? undefined;
  for (let n = 0; n < sessions; n++) walkFittedSession(fitted, { client, sample, pageSize: 50, n, seedBooking });
}

function calls(): Partial<Record<EndpointName, number>> {
  const counts: Partial<Record<EndpointName, number>> = {};
  for (const r of k6State.requests) {
    const e = r.params.tags?.endpoint as EndpointName;
    counts[e] = (counts[e] ?? 0) + 1;
  }
  return counts;
}

function personaAt(index: number, fitted = fittedModel()): FittedPersona {
  const persona = fitted.personas[index];
  if (!persona) throw new Error(`no persona ${String(index)}`);
  return persona;
}

const metric = (name: string) => k6State.metrics.filter((m) => m.metric === name);

beforeEach(() => {
  k6State.reset();
  k6State.handler = fakeService;
});

describe("the fitted section of a traffic model", () => {
  it("should be taken whole by mergeTrafficModel when it is sound", () => {
    const fitted = fittedModel();
    expect(mergeTrafficModel(DEFAULT_TRAFFIC_MODEL, { fitted }, "t.json").fitted).toEqual(fitted);
  });

  it.each([
    [
      "shares not adding up to 1",
      { personas: fittedModel().personas.map((p) => ({ ...p, share: 0.5 })) },
      "model.fitted.personas have shares adding up to 1.5, not 1",
    ],
    [
      "a row not adding up to 1",
      {
        personas: fittedModel().personas.map((p, i) =>
          i === 2 ? { ...p, transitions: { booking: { booking: 0.6 } } } : p,
        ),
      },
      "model.fitted.personas[2].transitions.booking adds up to 0.6, not 1",
    ],
    [
      "an unknown endpoint",
      { personas: fittedModel().personas.map((p, i) => (i === 2 ? { ...p, start: { basket: 1 } } : p)) },
      "model.fitted.personas[2].start.basket is not an endpoint of the table",
    ],
    [
      "an endpoint reached without a row",
      {
        personas: fittedModel().personas.map((p, i) =>
          i === 2 ? { ...p, transitions: { booking: { vouchers: 1 } } } : p,
        ),
      },
      "has no row for vouchers, which the chain reaches",
    ],
    [
      "no arrival buckets",
      { arrival: { start: "x", bucketSeconds: 60, sessionsPerSecond: [] } },
      "model.fitted.arrival.sessionsPerSecond must be a list",
    ],
  ])("should refuse %s with where to fix it", (_, change, message) => {
    const fitted = { ...fittedModel(), ...change };
    expect(() => mergeTrafficModel(DEFAULT_TRAFFIC_MODEL, { fitted }, "t.json")).toThrow(message);
    expect(() => mergeTrafficModel(DEFAULT_TRAFFIC_MODEL, { fitted }, "t.json")).toThrow(
      /^Failed to read the traffic model t\.json: .* Please /,
    );
  });
});

describe("walkFittedSession", () => {
  it("should start sessions of each persona in its share, recorded per persona", () => {
    walk(1000);
    const started = metric("atd_sessions");
    expect(started).toHaveLength(1000);
    for (const persona of fittedModel().personas) {
      const share = started.filter((m) => m.tags?.persona === persona.name).length / 1000;
      expect(Math.abs(share - persona.share)).toBeLessThan(0.01);
    }
  });

  it("should make the calls the chains predict, within 3% per endpoint", () => {
    walk(2000);
    const fitted = fittedModel();
    const mix = fittedEndpointMix(fitted);
    const counts = calls();
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    for (const [endpoint, share] of Object.entries(mix) as [EndpointName, number][]) {
      expect(Math.abs((counts[endpoint] ?? 0) / total - share)).toBeLessThan(0.03 * share + 0.002);
    }
    expect(metric("atd_replay_skips")).toHaveLength(0);
  });

  it("should sleep log-normal think times between calls, recorded, with the fitted median", () => {
    const fitted = fittedModel({ personas: [{ ...personaAt(2), share: 1 }] });
    walk(1000, fitted);
    const thinks = metric("atd_think_seconds").map((m) => m.value);
    expect(thinks).toEqual(k6State.sleeps);
    // One think between two calls: calls minus sessions.
    expect(thinks).toHaveLength(k6State.requests.length - 1000);
    const median = quantile(thinks, 0.5);
    expect(Math.abs(median / 0.05 - 1)).toBeLessThan(0.05);
  });

  it("should send the persona's share of back-to-back calls with no think time, recorded as 0 s", () => {
    const base = personaAt(2);
    const fitted = fittedModel({
      personas: [{ ...base, share: 1, thinkTime: { ...base.thinkTime, immediateShare: 0.3 } }],
    });
    walk(1000, fitted);
    const thinks = metric("atd_think_seconds").map((m) => m.value);
    const immediate = thinks.filter((t) => t === 0).length / thinks.length;
    expect(Math.abs(immediate - 0.3)).toBeLessThan(0.03);
    const median = quantile(
      thinks.filter((t) => t > 0),
      0.5,
    );
    expect(Math.abs(median / 0.05 - 1)).toBeLessThan(0.05);
  });

  it("should stop a session that never ends at the call bound", () => {
    const loop = fittedModel({
      personas: [{ ...personaAt(0), share: 1, start: { config: 1 }, transitions: { config: { config: 1 } } }],
    });
    walk(2, loop);
    expect(k6State.requests).toHaveLength(2 * MAX_FITTED_SESSION_CALLS);
    expect(Object.values(expectedSessionCalls(personaAt(0, loop)))[0]).toBeCloseTo(MAX_FITTED_SESSION_CALLS);
    expect(Math.max(...k6State.sleeps)).toBeLessThanOrEqual(MAX_THINK_SECONDS);
  });

  it("should skip and count a step whose prerequisite is missing, then go on from it", () => {
    const confirmFirst = fittedModel({
      personas: [
        {
          ...personaAt(0),
          share: 1,
          start: { bookingConfirm: 1 },
          transitions: { bookingConfirm: { booking: 1 }, booking: { end: 1 } },
        },
      ],
    });
    walk(3, confirmFirst, null);
    expect(metric("atd_replay_skips").map((m) => m.tags?.endpoint)).toEqual([
      "bookingConfirm",
      "booking",
      "bookingConfirm",
      "booking",
      "bookingConfirm",
      "booking",
    ]);
    expect(k6State.requests).toHaveLength(0);
    k6State.reset();
    k6State.handler = fakeService;
    walk(3, confirmFirst, "seed");
    expect(calls()).toEqual({ booking: 3 });
  });
});

describe("--arrival-curve", () => {
  const curve = { start: "2026-11-26T00:00:00Z", bucketSeconds: 300, sessionsPerSecond: [0.05, 2, 10, 0] };

  it("should hold each bucket's rate times the multiplier for the bucket over the compression", () => {
    const arrival = arrivalCurveScenario({ curve, timeCompression: 24, rateMultiplier: 2, sessionSeconds: 1 });
    expect(compressedBucketMs({ curve, timeCompression: 24 })).toBe(12_500);
    const holds = arrival.stages.filter((s) => s.duration !== "0s");
    expect(holds.map((s) => s.duration)).toEqual(Array(4).fill("12500ms"));
    // Per hour, so a night's 0.05 sessions/s is not rounded to 0.
    expect(holds.map((s) => s.target)).toEqual([360, 14_400, 72_000, 0]);
    expect(expectedIterations(arrival)).toBeCloseTo((0.05 + 2 + 10 + 0) * 2 * 12.5, 6);
  });

  it("should reach k6 as ATD_ARRIVAL_CURVE and be refused there when malformed", () => {
    const base = { baseUrl: "http://127.0.0.1:9", apiKeys: ["k"] };
    const env = encodeK6Env({ ...base, arrivalCurve: { timeCompression: 24, rateMultiplier: 1.5 } });
    expect(env.ATD_ARRIVAL_CURVE).toBe("24x1.5");
    expect(decodeK6Env(env).arrivalCurve).toEqual({ timeCompression: 24, rateMultiplier: 1.5 });
    expect(() => decodeK6Env({ ...env, ATD_ARRIVAL_CURVE: "24" })).toThrow(
      /ATD_ARRIVAL_CURVE="24" is not .* Please give e\.g\. 24x1\./,
    );
  });

  it("should be partner-mix's executor in place of the profile", () => {
    const curveReplay = { curve, timeCompression: 24, rateMultiplier: 1, sessionSeconds: 1 };
    expect(arrivalOf(undefined, { profile: "smoke", curveReplay }).profile).toBe("arrival-curve");
    expect(arrivalOf("soak", { profile: "smoke", curveReplay }).profile).toBe("soak");
  });

  it.each([
    [
      "a model without a fitted curve",
      {},
      ["partner-mix"],
      DEFAULT_TRAFFIC_MODEL,
      "the traffic model has no fitted arrival curve",
    ],
    ["--duration beside it", { duration: "5m" }, ["partner-mix"], undefined, "--duration 5m was given too"],
    ["a run without partner-mix", {}, ["smoke"], undefined, "only partner-mix replays the curve"],
    [
      "buckets compressed under a second",
      { timeCompression: 600 },
      ["partner-mix"],
      undefined,
      "lasts 100 ms, under 1 s",
    ],
  ])("should refuse %s (exit 2)", (_, values, scenarios, model, message) => {
    const traffic = model ?? { ...DEFAULT_TRAFFIC_MODEL, fitted: fittedModel() };
    const settings = { arrivalCurve: true, timeCompression: 24, rateMultiplier: 1, duration: undefined, ...values };
    let error: unknown;
    try {
      checkArrivalCurve(settings, scenarios, traffic);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(
      new RegExp(`^Failed to plan --arrival-curve: .*${message.replace(/[-.]/g, "\\$&")}.*\\. Please `),
    );
  });
});
