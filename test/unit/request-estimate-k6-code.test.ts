/**
 * The estimate against the code it estimates: lib/k6's setup() and iterations run under the k6 shims, against the
 * reference service's own handlers (setup) and a stand-in whose availability and approvals are known (iterations).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ENDPOINTS, ENDPOINT_NAMES, type EndpointName } from "../../lib/contract/index.ts";
import { DEFAULT_TRAFFIC_MODEL, type TrafficModel } from "../../lib/contract/traffic-model.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import type { CatalogueSample } from "../../lib/k6/traffic/catalogue-sample.ts";
import { JOURNEYS } from "../../lib/k6/traffic/journeys.ts";
import { partnerClient } from "../../lib/k6/partner.ts";
import { trafficScenario } from "../../lib/k6/traffic/scenario.ts";
import { prepareTraffic } from "../../lib/k6/traffic/setup.ts";
import { referenceCatalogueFacts } from "../../lib/harness/plan/reference-catalogue.ts";
import {
  ASSUMED_CATALOGUE,
  callsPerIteration,
  trafficSetup,
  type CatalogueFacts,
} from "../../lib/harness/plan/request-estimate.ts";
import { API_ROUTES, errorReply } from "../../service/api/server.ts";
import { matchRoute, type Reply } from "../../service/http.ts";
import { DEFAULT_OPTIONS } from "../../service/options.ts";
import { ServiceState } from "../../service/state.ts";
import { k6State, type ShimHandler, type ShimResponse } from "../shims/k6-state.ts";

const BASE_URL = "http://127.0.0.1:9";

/** The reference service's handlers, called in-process: setup's endpoints all answer synchronously. */
function referenceService(state: ServiceState): ShimHandler {
  return (method, url, body, params) => {
    const { pathname, searchParams } = new URL(url);
    let reply: Reply;
    try {
      const partner = state.partners.get(params.headers?.["X-Authorization"] ?? "");
      const match = matchRoute(API_ROUTES, pathname);
      const described = match?.route.handlers[method];
      if (!partner || !match || !described) throw new Error(`${method} ${pathname} is not a partner API call`);
      const answer = described.handler({
        state,
        partner,
        method,
        path: pathname,
        params: match.params,
        query: searchParams,
        body: body === null ? undefined : Buffer.from(body),
      });
      if (answer instanceof Promise) throw new Error(`${method} ${pathname} answers asynchronously`);
      reply = answer;
    } catch (error) {
      reply = errorReply(state, error, pathname, method);
    }
    return {
      status: reply.status,
      headers: { "Content-Type": "application/json", ...reply.headers },
      body: typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body),
    };
  };
}

/** Requests the shims recorded, per endpoint: by tag for load requests, by method and path template for setup's. */
function recordedByEndpoint(): Partial<Record<EndpointName, number>> {
  const counts: Partial<Record<EndpointName, number>> = {};
  for (const r of k6State.requests) {
    const tags = r.params.tags ?? {};
    const endpoint =
      (tags.endpoint as EndpointName | undefined) ??
      ENDPOINT_NAMES.find((e) => ENDPOINTS[e].path === tags.name && ENDPOINTS[e].method === r.method);
    if (endpoint) counts[endpoint] = (counts[endpoint] ?? 0) + 1;
  }
  return counts;
}

beforeEach(() => {
  k6State.reset();
  vi.stubGlobal("__ENV", {});
  // The stand-in answers only what the journeys need, not the spec's key sets: the checks' log lines are no news here.
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("setup() of the traffic scenarios against the reference service", () => {
  it("should make the catalogue walk and seed bookings the estimate counts from the reference catalogue", () => {
    const state = new ServiceState({ ...DEFAULT_OPTIONS });
    k6State.handler = referenceService(state);
    const keys = [...state.partners.keys()];
    prepareTraffic(loadConfig({ ATD_BASE_URL: BASE_URL, ATD_API_KEYS: keys.join(",") }), DEFAULT_TRAFFIC_MODEL);
    const recorded = recordedByEndpoint();
    const facts = referenceCatalogueFacts({ seed: DEFAULT_OPTIONS.seed, products: DEFAULT_OPTIONS.products });
    const estimated = trafficSetup(DEFAULT_TRAFFIC_MODEL, facts, keys.length);
    // The walk is read from the same seeded catalogue: exact.
    expect(recorded.products).toBe(estimated.products);
    expect(recorded.productTypes).toBe(estimated.productTypes);
    expect(recorded.productType).toBe(estimated.productType);
    // Seed bookings: the share of open dates is an expectation over the keys' dates, so within a request or two.
    expect(Math.abs((recorded.priceListDate ?? 0) - (estimated.priceListDate ?? 0))).toBeLessThanOrEqual(2);
    expect(Math.abs((recorded.bookingCreate ?? 0) - (estimated.bookingCreate ?? 0))).toBeLessThanOrEqual(1);
    expect(Object.keys(recorded).sort()).toEqual(Object.keys(estimated).sort());
  });

  it("should read as many product types as the reference catalogue's first products have, for another seed", () => {
    const state = new ServiceState({ ...DEFAULT_OPTIONS, seed: 7, products: 30 });
    k6State.handler = referenceService(state);
    const keys = [...state.partners.keys()].slice(0, 3);
    prepareTraffic(loadConfig({ ATD_BASE_URL: BASE_URL, ATD_API_KEYS: keys.join(",") }), {
      ...DEFAULT_TRAFFIC_MODEL,
      weights: { ...DEFAULT_TRAFFIC_MODEL.weights, backOffice: 0 },
    });
    const facts = referenceCatalogueFacts({ seed: 7, products: 30 });
    expect(recordedByEndpoint()).toEqual({ products: 1, productTypes: 12, productType: facts.sampleProductTypes });
  });
});

describe("the reference catalogue's facts", () => {
  it("should give the share of a booker's single-date checks the reference service answers available", () => {
    const state = new ServiceState({ ...DEFAULT_OPTIONS });
    k6State.handler = referenceService(state);
    const config = loadConfig({ ATD_BASE_URL: BASE_URL, ATD_API_KEYS: [...state.partners.keys()].join(",") });
    const sample = prepareTraffic(config, {
      ...DEFAULT_TRAFFIC_MODEL,
      weights: { ...DEFAULT_TRAFFIC_MODEL.weights, backOffice: 0 },
    });
    // Every booker that finds its date available books (createRatio 1); the confirm is not needed here.
    const model: TrafficModel = {
      ...DEFAULT_TRAFFIC_MODEL,
      thinkTimeSeconds: { min: 0, max: 0 },
      booker: { ...DEFAULT_TRAFFIC_MODEL.booker, createRatio: 1, confirmRatio: 0, cancelReservedRatio: 0 },
    };
    k6State.requests.length = 0;
    const facts = referenceCatalogueFacts();
    const iterations = facts.sampleProductTypes * 20;
    for (let n = 0; n < iterations; n++) JOURNEYS.booker({ client: partnerClient(config, n), sample, model, n });
    const recorded = recordedByEndpoint();
    expect(recorded.priceListDate).toBe(iterations);
    // Seats the bookings take in between can close a slot only at its last seat: a request or two.
    expect(Math.abs((recorded.bookingCreate ?? 0) - facts.bookableDateShare * iterations)).toBeLessThanOrEqual(2);
  });

  it("should match the assumed catalogue's figures on average over seeds, which are the reference's seeding rules", () => {
    const seeds = Array.from({ length: 8 }, (_, i) => i + 1);
    const facts = seeds.map((seed) => referenceCatalogueFacts({ seed }));
    const mean = (pick: (f: CatalogueFacts) => number) => facts.reduce((a, f) => a + pick(f), 0) / facts.length;
    expect(mean((f) => f.sampleProductTypes)).toBeGreaterThan(ASSUMED_CATALOGUE.sampleProductTypes - 4);
    expect(mean((f) => f.sampleProductTypes)).toBeLessThan(ASSUMED_CATALOGUE.sampleProductTypes + 4);
    expect(Math.abs(mean((f) => f.bookableDateShare) - ASSUMED_CATALOGUE.bookableDateShare)).toBeLessThan(0.03);
    expect(Math.abs(mean((f) => f.instantConfirmationShare) - ASSUMED_CATALOGUE.instantConfirmationShare)).toBeLessThan(
      0.06,
    );
  });
});

describe("iterations of the partner mix against a stand-in with known availability", () => {
  const types = ["t1", "t2", "t3", "t4"];
  const sample: CatalogueSample = {
    productUuids: ["p1", "p2"],
    productPages: 4,
    productTypes: types.map((uuid, i) => ({
      uuid,
      productUuid: "p1",
      timeslotted: i % 2 === 0,
      daysInAdvance: i % 3,
      minPax: 1,
      maxPax: 4,
      options: [],
    })),
  };
  const links = [{ rel: "self", href: "/x", method: "GET" }];
  const json = (data: unknown): ShimResponse => ({
    status: 200,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      data,
      links,
      meta: { pagination: { total: 3, count: 3, per_page: 10, current_page: 1, total_pages: 1 } },
    }),
  });

  /** The stand-in's three products, one page at whatever per_page is asked (a full sync's walk adds up). */
  const productsPage = (query: URLSearchParams): ShimResponse => {
    const perPage = Number(query.get("per_page") ?? "10");
    const pagination = { total: 3, count: 3, per_page: perPage, current_page: 1, total_pages: 1 };
    const data = [{ uuid: "p1" }, { uuid: "p2" }, { uuid: "p3" }];
    return { ...json(data), body: JSON.stringify({ data, links, meta: { pagination } }) };
  };

  /** t2 is sold out on every date (a quarter of the types); every fifth booking waits for the supplier. */
  function standIn(): ShimHandler {
    let created = 0;
    return (method, url, body) => {
      const path = new URL(url).pathname;
      const single = /\/product-types\/(\w+)\/price-lists\/\d{4}-\d{2}-\d{2}$/.exec(path);
      if (single) {
        const open = single[1] !== "t2";
        return json({ date: "2030-01-01", available: open, timeslots: [{ timeslot: "09:00", available: open }] });
      }
      if (path.endsWith("/price-lists")) return json([{ date: "2030-01-01", available: true }]);
      if (path.endsWith("/product-types")) return json([{ uuid: "t1" }]);
      if (path.startsWith("/v2/product-types/")) return json({ uuid: "t1" });
      if (path === "/v2/products") return productsPage(new URL(url).searchParams);
      if (path.startsWith("/v2/products/")) return json({ uuid: "p1" });
      if (path.endsWith("/vouchers")) return json([]);
      if (path === "/v2/bookings" && method === "GET") return json([{ uuid: "b0" }, { uuid: "b1" }]);
      if (method === "POST" && body !== null) return { ...json({ uuid: `b${String(++created)}` }), status: 201 };
      const n = Number(/\/bookings\/b(\d+)/.exec(path)?.[1] ?? 1);
      return json({ uuid: `b${String(n)}`, status: n % 5 === 0 ? "pending" : "approved" });
    };
  }

  it("should send per iteration what the estimate expects, bookers stopped at sold-out dates", () => {
    const model: TrafficModel = { ...DEFAULT_TRAFFIC_MODEL, thinkTimeSeconds: { min: 0, max: 0 } };
    const config = loadConfig({ ATD_BASE_URL: BASE_URL, ATD_API_KEYS: "a,b,c" });
    const scenario = trafficScenario("partner_mix", config, model);
    k6State.handler = standIn();
    const iterations = 4000;
    for (let n = 0; n < iterations; n++) {
      k6State.vu.iterationInScenario = n;
      scenario.iteration(sample);
    }
    const facts: CatalogueFacts = {
      source: "stand-in",
      products: 3,
      sampleProductTypes: types.length,
      bookableDateShare: 3 / 4,
      seedDateOpenShare: 3 / 4,
      instantConfirmationShare: 4 / 5,
    };
    const expected = callsPerIteration(model, facts);
    const recorded = recordedByEndpoint();
    expect(Object.keys(recorded).sort()).toEqual(Object.keys(expected).sort());
    for (const [endpoint, perIteration] of Object.entries(expected) as [EndpointName, number][]) {
      // Within 2% of the endpoint's count, or a handful of requests for the rare ones (cancels).
      const tolerance = Math.max(0.02 * perIteration * iterations, 5);
      expect(Math.abs((recorded[endpoint] ?? 0) - perIteration * iterations), endpoint).toBeLessThanOrEqual(tolerance);
    }
    // The model's own expectation (every date open) would overcount the booking flow by a third.
    expect(recorded.bookingCreate ?? 0).toBeLessThan(0.8 * 0.15 * iterations * 0.8);
  });
});
