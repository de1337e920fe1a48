/**
 * The key-set rules' judges (lib/k6/conformance/shape-rules.ts) against a small service behind the k6 shims: with
 * every answer in its envelope and key set, each passes; with one endpoint's items carrying a key the contract does
 * not list (for the open booking detail, a key it drops), that rule's judge fails naming the key, and no other does. The booking rules read a booking made for
 * them and cancel it.
 */
import { beforeEach, describe, expect, it } from "vitest";
import {
  BOOKING_DETAIL_REQUIRED_KEYS,
  BOOKING_LIST_ITEM_KEYS,
  PRICE_LIST_ENTRY_KEYS,
  PRODUCT_DETAIL_KEYS,
  PRODUCT_LIST_ITEM_KEYS,
  PRODUCT_TYPE_DETAIL_KEYS,
  PRODUCT_TYPE_SUMMARY_KEYS,
  SINGLE_DATE_PRICE_KEYS,
  VOUCHER_FILE_KEYS,
} from "../../lib/contract/index.ts";
import { ApiClient } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import type { ConformanceContext, FoundProductType, RawAnswer, Verdict } from "../../lib/k6/conformance/judge.ts";
import { SHAPE_JUDGES } from "../../lib/k6/conformance/shape-rules.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";

const BASE = "http://svc.test";
const PRODUCT = "11111111-1111-4111-8111-111111111111";
const TYPE = "22222222-2222-4222-8222-222222222222";
const BOOKING = "33333333-3333-4333-8333-333333333333";

/** The rule whose endpoint answers an extra key, as a service that leaks one would. */
let broken: string | undefined;
let cancelled: string[] = [];

function item(keys: readonly string[], rule: string): Record<string, unknown> {
  const data: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, `${k} value`]));
  if ("links" in data) data.links = [{ rel: "self", href: "/x", method: "GET" }];
  // The nested values the partner document fixes (2.12-nested-shapes), bare timeslot items where that is broken.
  const slot = broken === "2.12-nested-shapes" ? { uuid: BOOKING, timeslot: "10:00" } : NESTED_SLOT;
  if ("timeslots" in data) data.timeslots = [slot];
  if ("options" in data) data.options = [];
  for (const key of keys) if (key.endsWith("Translated")) data[key] = { en: `${key} text` };
  // The booking detail's key set is open (spec 2.12): what breaks it is a key 2.8 says it drops.
  if (broken === rule) data[rule === "2.8-booking-detail-keys" ? "totalAmountRequestCurrency" : "leakedKey"] = "leaked";
  return data;
}

function json(body: unknown, status = 200): ShimResponse {
  return { status, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

const LINKS = [{ rel: "self", href: "/x", method: "GET" }];
const NESTED_SLOT = { timeslot: "10:00", available: true, remaining: 4 };
const list = (data: unknown[]) =>
  json({
    data,
    meta: { pagination: { total: data.length, count: data.length, per_page: 10, current_page: 1, total_pages: 1 } },
    links: LINKS,
  });

function service(method: string, url: string): ShimResponse {
  const path = new URL(url).pathname;
  if (method === "GET" && path === "/v2/products") return list([item(PRODUCT_LIST_ITEM_KEYS, "2.1-product-list-keys")]);
  if (path === `/v2/products/${PRODUCT}`) return json({ data: item(PRODUCT_DETAIL_KEYS, "none"), links: LINKS });
  if (path === `/v2/products/${PRODUCT}/product-types`) {
    return list([item(PRODUCT_TYPE_SUMMARY_KEYS, "2.3-product-type-summary-keys")]);
  }
  if (path === `/v2/product-types/${TYPE}`) {
    return json({ data: item(PRODUCT_TYPE_DETAIL_KEYS, "2.4-product-type-detail-keys"), links: LINKS });
  }
  if (path === `/v2/product-types/${TYPE}/price-lists`)
    return list([item(PRICE_LIST_ENTRY_KEYS, "2.5-price-list-entry-keys")]);
  if (path.startsWith(`/v2/product-types/${TYPE}/price-lists/`)) {
    return json({ data: { ...item(SINGLE_DATE_PRICE_KEYS, "2.6-single-date-keys"), available: true }, links: LINKS });
  }
  const booking = (status: string) => ({
    ...item(BOOKING_DETAIL_REQUIRED_KEYS, "2.8-booking-detail-keys"),
    uuid: BOOKING,
    status,
  });
  if (method === "POST" && path === "/v2/bookings") return json({ data: booking("reserved"), links: LINKS }, 201);
  if (method === "PUT" && path === `/v2/bookings/${BOOKING}/confirm`)
    return json({ data: booking("approved"), links: LINKS });
  if (method === "PUT" && path === `/v2/bookings/${BOOKING}/cancel`) {
    cancelled.push(BOOKING);
    return json({ data: booking("approved"), links: LINKS });
  }
  if (path === `/v2/bookings/${BOOKING}`) return json({ data: booking("approved"), links: LINKS });
  if (path === "/v2/bookings")
    return list([{ ...item(BOOKING_LIST_ITEM_KEYS, "2.7-booking-list-keys"), uuid: BOOKING }]);
  if (path === `/v2/bookings/${BOOKING}/vouchers`) {
    return json({ data: [item(VOUCHER_FILE_KEYS, "2.9-voucher-keys")], links: LINKS });
  }
  return json({ error: { code: "not_found", message: path, http_code: 404 }, links: LINKS }, 404);
}

const TYPE_FOUND: FoundProductType = {
  uuid: TYPE,
  productUuid: PRODUCT,
  available: true,
  timeslots: [],
  instantConfirmation: true,
  daysInAdvance: 0,
  minPax: 1,
  maxPax: 10,
  categories: ["adults"],
  requiredOptions: [],
  timeslotted: false,
};

function context(): ConformanceContext {
  const client = new ApiClient({
    baseUrl: BASE,
    apiKey: "key-1",
    timeout: "5s",
    phase: "setup",
    onThrottle: "return",
    maxThrottleWaitSeconds: 1,
  });
  const raw = (): RawAnswer => {
    throw new Error("the key-set judges send no raw request");
  };
  const config = loadConfig({ ATD_BASE_URL: BASE, ATD_API_KEYS: "key-1" });
  return { config, client, raw, productTypes: [TYPE_FOUND], probeDate: "2030-01-07", hooks: false };
}

function failedIds(): string[] {
  const ctx = context();
  const verdicts: [string, Verdict][] = Object.entries(SHAPE_JUDGES).map(([id, judge]) => [id, judge(ctx)]);
  return verdicts.filter(([, v]) => "problem" in v && v.problem !== undefined).map(([id]) => id);
}

beforeEach(() => {
  k6State.reset();
  k6State.handler = service;
  broken = undefined;
  cancelled = [];
});

describe("the key-set rules' judges", () => {
  it("should pass every rule on answers in their envelope and key set, and cancel the bookings they made", () => {
    const ctx = context();
    for (const [id, judge] of Object.entries(SHAPE_JUDGES)) expect(judge(ctx), id).toEqual({ problem: undefined });
    // 2.7, 2.8, 2.9 and 2.12 each made a booking of their own and cancelled it.
    expect(cancelled).toHaveLength(4);
  });

  it.each(Object.keys(SHAPE_JUDGES).filter((id) => !["2.2-product-detail-keys", "2.12-nested-shapes"].includes(id)))(
    "should fail %s alone when its answer carries a key the contract does not list",
    (rule) => {
      broken = rule;
      expect(failedIds()).toEqual([rule]);
      const verdict = SHAPE_JUDGES[rule]?.(context()) as { problem: string };
      expect(verdict.problem).toMatch(
        rule === "2.8-booking-detail-keys" ? /forbidden totalAmountRequestCurrency/ : /unexpected leakedKey/,
      );
    },
  );

  it("should fail 2.12-nested-shapes alone on calendar timeslot items without available and remaining", () => {
    broken = "2.12-nested-shapes";
    expect(failedIds()).toEqual(["2.12-nested-shapes"]);
    expect(SHAPE_JUDGES["2.12-nested-shapes"]?.(context())).toEqual({
      problem: expect.stringMatching(
        /^GET \/v2\/product-types\/\S+\/price-lists\?date_start=2030-01-07&date_end=2030-01-13: item 0: timeslots\[0\] available is null, remaining is null/,
      ) as string,
    });
  });

  it("should fail 2.9-voucher-keys alone when the vouchers answer carries pagination", () => {
    k6State.handler = (method, url) => {
      const res = service(method, url);
      if (!url.endsWith("/vouchers")) return res;
      const body = JSON.parse(res.body) as Record<string, unknown>;
      return json({ ...body, meta: { pagination: { total: 1, count: 1 } } });
    };
    expect(failedIds()).toEqual(["2.9-voucher-keys"]);
    expect(SHAPE_JUDGES["2.9-voucher-keys"]?.(context())).toEqual({
      problem: expect.stringMatching(/vouchers: the vouchers answer carries meta\.pagination/) as string,
    });
  });

  it("should call a rule not judged, never passed, when its answer is a 429", () => {
    k6State.handler = () => json({ error: { code: "GEN-TOO-MANY-REQUESTS", message: "slow", http_code: 429 } }, 429);
    expect(SHAPE_JUDGES["2.1-product-list-keys"]?.(context())).toEqual({
      notJudged: expect.stringMatching(/not a 200 .*GET \/v2\/products\?per_page=5 -> 429/) as string,
    });
  });
});
