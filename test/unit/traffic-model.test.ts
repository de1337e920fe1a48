import { beforeEach, describe, expect, it, vi } from "vitest";
import { ENDPOINTS, type EndpointName } from "../../lib/contract/index.ts";
import { ApiClient } from "../../lib/k6/client.ts";
import { keyFor } from "../../lib/k6/partner.ts";
import type { CatalogueSample } from "../../lib/k6/traffic/catalogue-sample.ts";
import { decide, pickWeighted } from "../../lib/k6/traffic/decide.ts";
import { JOURNEYS } from "../../lib/k6/traffic/journeys.ts";
import { prepareTraffic } from "../../lib/k6/traffic/setup.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import {
  DEFAULT_TRAFFIC_MODEL,
  PERSONAS,
  expectedCallsPerJourney,
  expectedEndpointMix,
  mergeTrafficModel,
  type TrafficModel,
} from "../../lib/contract/traffic-model.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";

const links = [{ rel: "self", href: "/x", method: "GET" }];
const ok = (data: unknown, list = false): ShimResponse => ({
  status: 200,
  headers: { "Content-Type": "application/json", "X-RateLimit-Limit": "400", "X-RateLimit-Remaining": "100" },
  body: JSON.stringify(
    list
      ? { data, meta: { pagination: { total: 3, count: 3, per_page: 10, current_page: 1, total_pages: 1 } }, links }
      : { data, links },
  ),
});

/** The stand-in catalogue: PRODUCTS products, four pages of the model's page size. */
const PRODUCTS = 200;
const productUuids = Array.from({ length: PRODUCTS }, (_, i) => `p${String(i + 1)}`);

/** A page of the products list, sliced as page and per_page ask. */
function productsPage(query: URLSearchParams, uuids: readonly string[] = productUuids): ShimResponse {
  const page = Number(query.get("page") ?? "1");
  const perPage = Number(query.get("per_page") ?? "10");
  const data = uuids.slice((page - 1) * perPage, page * perPage).map((uuid) => ({ uuid }));
  const pagination = {
    total: uuids.length,
    count: data.length,
    per_page: perPage,
    current_page: page,
    total_pages: Math.ceil(uuids.length / perPage),
  };
  return { ...ok(data), body: JSON.stringify({ data, meta: { pagination }, links }) };
}

/** A stand-in service that answers every endpoint with something a journey can go on with. */
function fakeService(method: string, url: string): ShimResponse {
  const path = new URL(url).pathname;
  if (/\/price-lists\/\d{4}-\d{2}-\d{2}$/.test(path)) {
    return ok({
      date: "2030-01-01",
      available: true,
      timeslots: [{ timeslot: "09:00", available: true, remaining: 5 }],
    });
  }
  if (path.endsWith("/price-lists"))
    return ok(
      [
        { date: "2030-01-01", available: true },
        { date: "2030-01-02", available: true },
      ],
      true,
    );
  if (path.endsWith("/product-types")) return ok([{ uuid: "t1", title: "T", links }], true);
  if (path.startsWith("/v2/product-types/")) return ok({ uuid: "t1" });
  if (path === "/v2/products") return productsPage(new URL(url).searchParams);
  if (path.startsWith("/v2/products/")) return ok({ uuid: "p1" });
  if (path.endsWith("/vouchers")) return { ...ok([]), body: JSON.stringify({ data: [], links }) };
  if (path === "/v2/bookings" && method === "GET") return ok([{ uuid: "b1" }, { uuid: "b2" }, { uuid: "b3" }], true);
  return ok({ uuid: "b1", status: method === "POST" ? "reserved" : "approved" });
}

const sample: CatalogueSample = {
  productUuids: ["p1", "p2"],
  productPages: 4,
  productTypes: [
    { uuid: "t1", productUuid: "p1", timeslotted: true, daysInAdvance: 0, minPax: 1, maxPax: 4, options: [] },
    { uuid: "t2", productUuid: "p1", timeslotted: false, daysInAdvance: 2, minPax: 1, maxPax: 2, options: [] },
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

function callsByEndpoint(): Partial<Record<EndpointName, number>> {
  const counts: Partial<Record<EndpointName, number>> = {};
  for (const r of k6State.requests) {
    const e = r.params.tags?.endpoint as EndpointName;
    counts[e] = (counts[e] ?? 0) + 1;
  }
  return counts;
}

const noThink: TrafficModel = { ...DEFAULT_TRAFFIC_MODEL, thinkTimeSeconds: { min: 0, max: 0 } };

beforeEach(() => {
  k6State.reset();
  k6State.handler = fakeService;
});

describe("decide and pickWeighted", () => {
  it("should say yes to the stated ratio of iterations, within one iteration in a thousand", () => {
    for (const ratio of [0.1, 0.25, 0.75, 0.8]) {
      const yes = Array.from({ length: 1000 }, (_, n) => decide(ratio, n, 3)).filter(Boolean).length;
      expect(Math.abs(yes - ratio * 1000)).toBeLessThanOrEqual(2);
    }
  });

  it("should pick personas in proportion to their weights even over a short run", () => {
    for (const runLength of [100, 2000]) {
      const counts = new Map<string, number>();
      for (let n = 0; n < runLength; n++) {
        const p = pickWeighted(DEFAULT_TRAFFIC_MODEL.weights, n);
        counts.set(p, (counts.get(p) ?? 0) + 1);
      }
      for (const persona of PERSONAS) {
        expect(Math.abs((counts.get(persona) ?? 0) / runLength - DEFAULT_TRAFFIC_MODEL.weights[persona])).toBeLessThan(
          0.02,
        );
      }
    }
  });

  it("should never pick a persona of weight 0", () => {
    const weights = { catalogueSync: 0, shopper: 0, booker: 1, backOffice: 0 };
    expect(new Set(Array.from({ length: 200 }, (_, n) => pickWeighted(weights, n)))).toEqual(new Set(["booker"]));
  });
});

describe("journeys", () => {
  it.each(PERSONAS)("should make the %s journey's stated calls per iteration on average", (persona) => {
    const iterations = 2000;
    for (let n = 0; n < iterations; n++) JOURNEYS[persona]({ client, sample, model: noThink, n });
    const expected = expectedCallsPerJourney(noThink, PRODUCTS)[persona];
    const observed = callsByEndpoint();
    expect(Object.keys(observed).sort()).toEqual(Object.keys(expected).sort());
    for (const [endpoint, perIteration] of Object.entries(expected)) {
      expect((observed[endpoint as EndpointName] ?? 0) / iterations).toBeCloseTo(perIteration, 2);
    }
  });

  it("should give the whole mix the endpoint shares the model states", () => {
    const iterations = 4000;
    for (let n = 0; n < iterations; n++) {
      JOURNEYS[pickWeighted(noThink.weights, n)]({ client, sample, model: noThink, n });
    }
    const observed = callsByEndpoint();
    const total = Object.values(observed).reduce((a, b) => a + b, 0);
    for (const [endpoint, share] of Object.entries(expectedEndpointMix(noThink, PRODUCTS))) {
      expect(Math.abs((observed[endpoint as EndpointName] ?? 0) / total - share)).toBeLessThan(0.01);
    }
  });

  it("should cover the six rate-limited endpoints and the booking flow", () => {
    const endpoints = Object.keys(expectedEndpointMix(DEFAULT_TRAFFIC_MODEL, PRODUCTS));
    for (const name of Object.keys(ENDPOINTS) as EndpointName[]) {
      if (ENDPOINTS[name].rateLimited) expect(endpoints).toContain(name);
    }
    expect(endpoints).toEqual(
      expect.arrayContaining(["bookingCreate", "bookingConfirm", "bookingCancel", "booking", "bookings", "vouchers"]),
    );
  });

  it("should think between calls within the model's bounds", () => {
    const model = { ...DEFAULT_TRAFFIC_MODEL, thinkTimeSeconds: { min: 0.2, max: 0.4 } };
    for (let n = 0; n < 50; n++) JOURNEYS.shopper({ client, sample, model, n });
    expect(k6State.sleeps.length).toBeGreaterThan(0);
    expect(k6State.sleeps.every((s) => s >= 0.2 && s <= 0.4)).toBe(true);
  });

  it("should fill every required option of the product type in a booking", () => {
    const withOptions: CatalogueSample = {
      ...sample,
      productTypes: [
        {
          ...(sample.productTypes[1] as CatalogueSample["productTypes"][number]),
          options: [
            { uuid: "o1", type: "select", required: true, values: ["v1", "v2"] },
            { uuid: "o2", type: "text", required: true, values: [] },
            { uuid: "o3", type: "select", required: false, values: ["v3"] },
          ],
        },
      ],
    };
    JOURNEYS.booker({
      client,
      sample: withOptions,
      model: { ...noThink, booker: { ...noThink.booker, createRatio: 1 } },
      n: 0,
    });
    const create = k6State.requests.find((r) => r.method === "POST");
    expect(JSON.parse(create?.body ?? "{}")).toMatchObject({
      productTypeUuid: "t1".replace("1", "2"),
      options: [
        { uuid: "o1", value: "v1" },
        { uuid: "o2", value: "load test" },
      ],
    });
  });
});

describe("setup", () => {
  it("should seed each key's booking on an open date, never on a sold-out one", () => {
    // Every other date is sold out: a booking there would be refused with a 422, rightly.
    const soldOut = (url: string) => Number(/-(\d{2})$/.exec(new URL(url).pathname)?.[1]) % 2 === 0;
    k6State.handler = (method, url) =>
      /\/price-lists\/\d{4}-\d{2}-\d{2}$/.test(new URL(url).pathname) && soldOut(url)
        ? ok({ date: "x", available: false, timeslots: [{ timeslot: "09:00", available: false, remaining: 0 }] })
        : fakeService(method, url);
    vi.stubGlobal("__ENV", {});
    prepareTraffic(loadConfig({ ATD_BASE_URL: "http://127.0.0.1:9", ATD_API_KEYS: "a,b,c,d" }), DEFAULT_TRAFFIC_MODEL);
    const booked = k6State.requests
      .filter((r) => r.method === "POST")
      .map((r) => JSON.parse(r.body ?? "{}") as { date: string });
    expect(booked).toHaveLength(4);
    for (const b of booked) expect(soldOut(`http://x/${b.date}`), b.date).toBe(false);
    vi.unstubAllGlobals();
  });
});

describe("key spreading", () => {
  it("should give each key the same share of iterations", () => {
    const keys = ["a", "b", "c", "d"];
    const counts = new Map<string, number>();
    for (let n = 0; n < 400; n++) counts.set(keyFor(keys, n), (counts.get(keyFor(keys, n)) ?? 0) + 1);
    expect([...counts.values()]).toEqual([100, 100, 100, 100]);
  });

  it("should keep every key under 400 requests per minute at 20 iterations/s with 40 keys", () => {
    // partner-mix makes about 2.2 calls per iteration; spread over 40 keys each sees 20 * 2.2 * 60 / 40 = 66/min.
    const mix = expectedCallsPerJourney(DEFAULT_TRAFFIC_MODEL, PRODUCTS);
    const callsPerIteration = PERSONAS.reduce(
      (sum, p) => sum + DEFAULT_TRAFFIC_MODEL.weights[p] * Object.values(mix[p]).reduce((a, b) => a + b, 0),
      0,
    );
    expect((20 * callsPerIteration * 60) / 40).toBeLessThan(400);
  });
});

describe("mergeTrafficModel", () => {
  it("should override the given settings only", () => {
    const model = mergeTrafficModel(
      DEFAULT_TRAFFIC_MODEL,
      { weights: { booker: 0.5 }, booker: { confirmRatio: 1 } },
      "t.json",
    );
    expect(model.weights).toEqual({ ...DEFAULT_TRAFFIC_MODEL.weights, booker: 0.5 });
    expect(model.booker.confirmRatio).toBe(1);
    expect(model.shopper).toEqual(DEFAULT_TRAFFIC_MODEL.shopper);
  });

  it.each([
    [{ weights: { robot: 1 } }, /model\.weights\.robot is not a setting/],
    [{ booker: { confirmRatio: 1.5 } }, /model\.booker\.confirmRatio is a ratio and must be at most 1/],
    [{ shopper: { calendarDays: -1 } }, /must be a number >= 0/],
    [{ weights: { catalogueSync: 0, shopper: 0, booker: 0, backOffice: 0 } }, /weights are all 0/],
    [{ thinkTimeSeconds: { min: 3, max: 1 } }, /min > max/],
  ])("should refuse %j with a message naming the setting", (override, message) => {
    expect(() => mergeTrafficModel(DEFAULT_TRAFFIC_MODEL, override, "t.json")).toThrow(message);
  });
});
