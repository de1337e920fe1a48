/**
 * 2.6-real-time without the test hooks (lib/k6/conformance/real-time.ts) against a small service behind the k6
 * shims: a slot of a few seats that reservations take and cancels give back. The judge passes when the read after the
 * sell-out follows the inventory, fails a cached answer, takes seats that came back without blaming the service, and
 * cancels everything it reserved.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import { CATALOGUE_MORE_JUDGES } from "../../lib/k6/conformance/catalogue-more-rules.ts";
import {
  sendRaw,
  type ConformanceContext,
  type FoundProductType,
  type RawRequest,
} from "../../lib/k6/conformance/judge.ts";
import { SELL_OUT_BUDGET, slotShownBookable } from "../../lib/k6/conformance/real-time.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";

const BASE = "http://svc.test";
const KEY = "key-1";
const TYPE = "22222222-2222-4222-8222-222222222222";
const PROBE = "2030-01-07";
/** The judge's date: five days after the probe date. */
const DATE = "2030-01-12";

/** The slot's state: free seats, the reservations holding seats, and how the service misbehaves. */
const svc = {
  seats: 7,
  held: new Map<string, number>(),
  /** Reads answered from the first one (a cache that never expires within the test). */
  stale: false,
  cached: undefined as string | undefined,
  /** Seats handed back (a hold lapsing) right after the n-th refusal of a single seat. */
  giveBackAfterRefusal: 0,
  refusals: 0,
  /** Refuse every reservation (a request the service never takes). */
  refuseAll: false,
};

function json(status: number, body: unknown): ShimResponse {
  return { status, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

const links = (path: string) => [{ rel: "self", href: path, method: "GET" }];

function free(): number {
  return svc.seats - [...svc.held.values()].reduce((a, b) => a + b, 0);
}

function single(path: string): ShimResponse {
  if (svc.stale && svc.cached !== undefined) return { ...json(200, {}), body: svc.cached };
  const open = free() > 0;
  const data = {
    date: DATE,
    available: open,
    timeslots: [
      { timeslot: "10:00", available: open, remaining: free() },
      { timeslot: "14:00", available: false, remaining: 0 },
    ],
  };
  const res = json(200, { data, links: links(path) });
  svc.cached = res.body;
  return res;
}

function reserve(body: string | null): ShimResponse {
  const request = JSON.parse(body ?? "{}") as { adults: number; timeslot?: string };
  if (svc.refuseAll || request.adults > free()) {
    if (request.adults === 1 && ++svc.refusals === svc.giveBackAfterRefusal) svc.held.clear();
    return json(422, { error: { code: "invalid_data", message: "no seats", http_code: 422 }, links: links("/") });
  }
  const uuid = `b-${String(svc.held.size + 1)}-${String(k6State.requests.length)}`;
  svc.held.set(uuid, request.adults);
  return json(201, { data: { uuid, status: "reserved" }, links: links(`/v2/bookings/${uuid}`) });
}

function service(method: string, url: string, body: string | null): ShimResponse {
  const { pathname: path } = new URL(url);
  if (method === "GET" && path === `/v2/product-types/${TYPE}/price-lists/${DATE}`) return single(path);
  if (method === "POST" && path === "/v2/bookings") return reserve(body);
  const cancel = /^\/v2\/bookings\/([^/]+)\/cancel$/.exec(path)?.[1];
  if (method === "PUT" && cancel !== undefined) {
    svc.held.delete(cancel);
    return json(200, { data: { uuid: cancel, status: "cancelled" }, links: links(path) });
  }
  return json(404, { error: { code: "not_found", message: path, http_code: 404 }, links: links(path) });
}

const TYPE_FOUND: FoundProductType = {
  uuid: TYPE,
  productUuid: "11111111-1111-4111-8111-111111111111",
  available: true,
  timeslots: ["10:00", "14:00"],
  instantConfirmation: true,
  daysInAdvance: 0,
  minPax: 1,
  maxPax: 4,
  categories: ["adults"],
  requiredOptions: [],
  timeslotted: true,
};

function context(types: readonly FoundProductType[] = [TYPE_FOUND]): ConformanceContext {
  const client = new ApiClient({
    baseUrl: BASE,
    apiKey: KEY,
    timeout: "5s",
    phase: "setup",
    onThrottle: "return",
    maxThrottleWaitSeconds: 1,
  });
  const raw = (request: RawRequest) => sendRaw(BASE, KEY, request);
  const config = loadConfig({ ATD_BASE_URL: BASE, ATD_API_KEYS: KEY });
  return { config, client, raw, productTypes: types, probeDate: PROBE, hooks: false };
}

const judge = () => CATALOGUE_MORE_JUDGES["2.6-real-time"]?.(context());
const reservations = () => k6State.requests.filter((r) => r.method === "POST").length;

beforeEach(() => {
  k6State.reset();
  k6State.handler = service;
  Object.assign(svc, { seats: 7, stale: false, cached: undefined, giveBackAfterRefusal: 0, refusals: 0 });
  svc.refuseAll = false;
  svc.held.clear();
});

describe("2.6-real-time through the public API alone", () => {
  it("should pass when the read right after the sell-out shows the slot sold out, and cancel what it reserved", () => {
    expect(judge()).toEqual({ problem: undefined });
    // 4, 2 and 1 taken, each larger party refused on the way, then a single seat refused: the last seat was taken.
    expect(
      k6State.requests
        .filter((r) => r.method === "POST")
        .map((r) => (JSON.parse(r.body ?? "{}") as { adults: number }).adults),
    ).toEqual([4, 4, 2, 2, 1, 1]);
    expect(svc.held.size).toBe(0);
    expect(k6State.requests.filter((r) => r.method === "PUT")).toHaveLength(3);
  });

  it("should fail a single-date answer cached from before the sell-out, naming the slot and the answer", () => {
    svc.stale = true;
    const verdict = judge() as { problem: string };
    expect(verdict.problem).toMatch(
      /the run's key took the last seat of 22222222-\S+ on 2030-01-12 at 10:00 .*yet the single-date answer still shows it bookable: GET \/v2\/product-types\/\S+\/price-lists\/2030-01-12 -> 200/,
    );
    expect(svc.held.size).toBe(0);
  });

  it("should take seats that came back between the sell-out and the read, sell out again and pass", () => {
    // The first sell-out's reservations lapse right after its last refusal: the read then rightly shows seats.
    svc.giveBackAfterRefusal = 1;
    expect(judge()).toEqual({ problem: undefined });
    expect(reservations()).toBeGreaterThan(5);
    expect(svc.held.size).toBe(0);
  });

  it("should not judge a slot larger than its budget, saying so, and stay within the budget", () => {
    svc.seats = 1000;
    expect(judge()).toEqual({ notJudged: expect.stringMatching(/could be sold out within 60 seats/) as string });
    expect(reservations()).toBeLessThanOrEqual(SELL_OUT_BUDGET.requests);
    expect(svc.held.size).toBe(0);
  });

  it("should not take a refusal of every reservation for a sold-out slot", () => {
    svc.refuseAll = true;
    expect(judge()).toEqual({ notJudged: expect.stringMatching(/could be sold out/) as string });
  });

  it("should pass over types whose smallest party is more than one person", () => {
    expect(CATALOGUE_MORE_JUDGES["2.6-real-time"]?.(context([{ ...TYPE_FOUND, minPax: 2 }]))).toEqual({
      notJudged: expect.stringMatching(/types with minPax 1/) as string,
    });
    expect(k6State.requests).toEqual([]);
  });

  it("should read a slot as bookable by its timeslot, or by the day for a type without timeslots", () => {
    const data = { available: true, timeslots: [{ timeslot: "10:00", available: false }, "14:00"] };
    expect(slotShownBookable(data, "10:00")).toBe(false);
    expect(slotShownBookable(data, "14:00")).toBe(true);
    expect(slotShownBookable({ available: true }, undefined)).toBe(true);
    expect(slotShownBookable({ available: false, timeslots: ["14:00"] }, "14:00")).toBe(false);
  });
});
