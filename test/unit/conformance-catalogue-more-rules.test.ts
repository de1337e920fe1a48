/**
 * The judges of catalogue-more-rules.ts (lib/k6/conformance/) against a small service behind the k6 shims: right,
 * every judge passes; with one thing broken the way a reference defect breaks it, that rule's judge fails with
 * evidence and no other judge does.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import {
  camelCaseProblem,
  datesProblem,
  timeslotsMarkProblem,
  timeslotsProblem,
  uuidsProblem,
  versionPrefixProblem,
  voucherValidityProblem,
} from "../../lib/k6/answer-rules.ts";
import { CATALOGUE_MORE_JUDGES, configItemsProblem } from "../../lib/k6/conformance/catalogue-more-rules.ts";
import {
  type ConformanceContext,
  type FoundProductType,
  type RawAnswer,
  type Verdict,
  sendRaw,
  type RawRequest,
} from "../../lib/k6/conformance/judge.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";

const BASE = "http://svc.test";
const KEY = "key-1";
const PRODUCT = "11111111-1111-4111-8111-111111111111";
const OTHER_PRODUCT = "33333333-3333-4333-8333-333333333333";
const TYPE = "22222222-2222-4222-8222-222222222222";
const KIND = "44444444-4444-4444-8444-444444444444";
const BOOKING = "55555555-5555-4555-8555-555555555555";
const PROBE = "2030-01-07";

/** One wrong behaviour at a time, named by the rule it breaks (as the reference service's defects do). */
type Break =
  | "gaps-formats-uuids"
  | "gaps-formats-dates"
  | "gaps-formats-timeslots"
  | "gaps-error-404"
  | "gaps-lists-envelope"
  | "gaps-pagination-params"
  | "9-version-prefix"
  | "4.2-date-format"
  | "2.5-one-entry-per-date"
  | "2.6-voucher-validity-by-age"
  | "1-product-has-types"
  | "4.1-product-types-of-product"
  | "4.1-restrictions-answer"
  | "4.4-config-items"
  | "2-keys-camel-case"
  | "2-query-snake-case"
  | "2.6-real-time"
  | "gaps-error-410-gone"
  | "2.6-timeslots-mark-availability";

let broken: Break | undefined;
/** Breaks of the rules beyond one per rule: the vouchers answer with pagination, the calendar's dates backwards. */
let brokenToo: "vouchers-paginated" | "calendar-descending" | undefined;
/** The page size without per_page: the service's own (the freedom lists-default-page-size). */
let defaultPerPage = "10";

const CONTROL = "http://control.test";
const TOKEN = "control-token";
/** The control API's state: seats set per date (the seeded 5 per timeslot otherwise) and the type's availability. */
const hookState = { seats: new Map<string, number>(), withdrawn: false };

function json(status: number, body: unknown): ShimResponse {
  return { status, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

function self(path: string) {
  return [{ rel: "self", href: path, method: "GET" }];
}

function error(status: number, code: string, path: string): ShimResponse {
  return json(status, {
    error: { code, message: `${code} on ${path}`, http_code: status },
    links: self(path),
    timestamp: "2030-01-01T00:00:00.000Z",
  });
}

function productLinks(uuid: string) {
  const version = broken === "9-version-prefix" ? "v1" : "v2";
  return [
    { rel: "self", href: `/v2/products/${uuid}`, method: "GET" },
    { rel: "restrictions", href: `/${version}/products/${uuid}/restrictions`, method: "GET" },
  ];
}

function product(uuid: string, detail: boolean, language = "en"): Record<string, unknown> {
  const slashes = detail && broken === "gaps-formats-dates";
  return {
    uuid,
    updatedAt: "2030-01-01T00:00:00.000Z",
    title: "A product",
    titleTranslated: { [language]: `${language} text` },
    validFrom: slashes ? "01/01/2030" : "2030-01-01",
    validThrough: "2031-01-01",
    typeUuid: detail && broken === "gaps-formats-uuids" ? "kind-2" : KIND,
    links: productLinks(uuid),
  };
}

function list(path: string, query: URLSearchParams, items: Record<string, unknown>[]): ShimResponse {
  const rawPage = query.get("page") ?? "1";
  const rawPerPage = query.get("per_page") ?? defaultPerPage;
  const page = Number(rawPage);
  const perPage = Number(rawPerPage);
  const zeroServed = broken === "gaps-pagination-params" && rawPage === "0";
  if (!zeroServed && (page < 1 || perPage < 1 || perPage > 100)) return error(400, "invalid_params", path);
  const from = (Math.max(page, 1) - 1) * perPage;
  const data = items.slice(from, from + perPage);
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const asStrings = broken === "gaps-lists-envelope" && path === "/v2/products";
  const pagination = {
    total: items.length,
    count: data.length,
    per_page: perPage,
    current_page: asStrings ? String(Math.max(page, 1)) : Math.max(page, 1),
    total_pages: asStrings ? String(pages) : pages,
  };
  return json(200, { data, meta: { pagination }, links: self(path) });
}

function entry(date: string, calendar: boolean): Record<string, unknown> {
  const slot = (t: string) => (calendar && broken === "gaps-formats-timeslots" ? `${t}:00` : t);
  const set = calendar || broken === "2.6-real-time" ? undefined : hookState.seats.get(date);
  // Days before the probe date are inside the lead time: nothing can be booked.
  const seats = date < PROBE ? 0 : (set ?? 5);
  const listed = !calendar && broken === "2.6-timeslots-mark-availability";
  return {
    date,
    weekday: "Monday",
    available: seats > 0 || listed,
    currency: "THB",
    prices: { adults: "25.00" },
    timeslots: [
      { timeslot: slot("10:00"), available: seats > 0, remaining: seats },
      { timeslot: slot("14:00"), available: false, remaining: 0 },
    ],
    options: [],
    ...(calendar ? {} : { voucherValidity: voucherValidity(date) }),
    links: self(`/v2/product-types/${TYPE}/price-lists/${date}`),
  };
}

function voucherValidity(date: string): Record<string, unknown> {
  const validity = { validFrom: date, validUntil: "2030-02-06" };
  return broken === "2.6-voucher-validity-by-age" ? validity : { adults: validity, children: validity };
}

/** A YYYY-MM-DD calendar date, or undefined (DD-MM-YYYY read as its day only when 4.2-date-format is broken). */
function day(raw: string | null): string | undefined {
  const dayFirst = /^(\d{2})-(\d{2})-(\d{4})$/.exec(raw ?? "");
  const value = dayFirst && broken === "4.2-date-format" ? `${dayFirst[3]}-${dayFirst[2]}-${dayFirst[1]}` : raw;
  if (value === null || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(value) ? value : undefined;
}

function calendarOf(path: string, query: URLSearchParams): ShimResponse {
  const start = day(query.get("date_start"));
  const end = day(query.get("date_end"));
  if (start === undefined || end === undefined || end < start) return error(400, "invalid_params", path);
  const dates: string[] = [];
  for (let d = Date.parse(`${start}T00:00:00Z`); d <= Date.parse(`${end}T00:00:00Z`); d += 86_400_000)
    dates.push(new Date(d).toISOString().slice(0, 10));
  if (broken === "2.5-one-entry-per-date" && dates.length > 1) dates.pop();
  if (brokenToo === "calendar-descending") dates.reverse();
  const data = dates.map((d) => entry(d, true));
  const pagination = { total: data.length, count: data.length, per_page: data.length, current_page: 1, total_pages: 1 };
  return json(200, { data, meta: { pagination }, links: self(path) });
}

const PRODUCTS = Array.from({ length: 25 }, (_, i) =>
  i === 0 ? PRODUCT : i === 1 ? OTHER_PRODUCT : `55555555-5555-4555-8555-${String(i).padStart(12, "0")}`,
);

/** The small service: the paths the judges ask about, answered as the contract says unless `broken` names a rule. */
/** The control API's required hooks the judges use: inventory read and write, product-type change. */
function controlApi(method: string, path: string, query: URLSearchParams, body: string | null): ShimResponse {
  const sent = (body === null ? {} : JSON.parse(body)) as Record<string, unknown>;
  const inventory = /^\/__control\/inventory\/[^/]+(?:\/([^/]+))?$/.exec(path);
  if (inventory && method === "GET") {
    const date = query.get("date_start") ?? PROBE;
    const seats = hookState.seats.get(date) ?? 5;
    const timeslots = [
      { timeslot: "10:00", remaining: seats },
      { timeslot: "14:00", remaining: 0 },
    ];
    return json(200, { data: { timeslotted: true, days: [{ date, remaining: seats, timeslots }] } });
  }
  if (inventory?.[1] !== undefined && method === "PUT") {
    if (sent.timeslot !== "14:00") hookState.seats.set(inventory[1], Number(sent.remaining));
    return json(200, { data: { date: inventory[1], remaining: Number(sent.remaining) } });
  }
  if (path === `/__control/product-types/${TYPE}` && method === "PUT") {
    hookState.withdrawn = sent.available === false;
    return json(200, { data: { uuid: TYPE, available: !hookState.withdrawn } });
  }
  return error(404, "not_found", path);
}

const OPTIONS_PARAMETERS: Record<string, string[]> = {
  "/v2/products": ["page", "per_page", "language"],
  "/v2/bookings": ["page", "per_page", "first_name", "last_name", "partner_reference", "date_start", "date_end"],
};

function service(method: string, url: string, body: string | null, params: { headers?: Record<string, string> }) {
  const { pathname: path, searchParams: query } = new URL(url);
  if (url.startsWith(CONTROL))
    return params.headers?.["X-Control-Token"] === TOKEN
      ? controlApi(method, path, query, body)
      : error(401, "unauthorized", path);
  if (params.headers?.["X-Authorization"] !== KEY) return error(401, "GEN-UNAUTHORIZED", path);
  if (method === "OPTIONS" && OPTIONS_PARAMETERS[path] !== undefined) {
    const names = OPTIONS_PARAMETERS[path].map((n) =>
      broken === "2-query-snake-case" ? n.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : n,
    );
    return json(200, { data: { methods: [{ method: "GET", parameters: names, keys: [] }] }, links: self(path) });
  }
  if (path === "/v2/bookings" && method === "POST")
    return json(201, { data: { uuid: BOOKING, status: "reserved" }, links: self(path) });
  if (path === `/v2/bookings/${BOOKING}/confirm` || path === `/v2/bookings/${BOOKING}/cancel`) {
    const status = path.endsWith("confirm") ? "approved" : "cancelled";
    return json(200, { data: { uuid: BOOKING, status }, links: self(path) });
  }
  if (path === `/v2/bookings/${BOOKING}/vouchers`) {
    const pagination = { total: 0, count: 0, per_page: 10, current_page: 1, total_pages: 1 };
    const meta = brokenToo === "vouchers-paginated" ? { meta: { pagination } } : {};
    return json(200, { data: [], ...meta, links: self(path) });
  }
  if (path === "/v2/bookings") return list(path, query, []);
  if (path.startsWith(`/v2/product-types/${TYPE}`) && hookState.withdrawn) {
    const served = broken === "gaps-error-410-gone" && path.endsWith("/price-lists");
    if (!served) return error(410, "gone", path);
  }
  if (path === "/v2/products") {
    const language = query.get("language") ?? "en";
    if (!["en", "de"].includes(language)) return error(400, "invalid_params", path);
    return list(
      path,
      query,
      PRODUCTS.map((uuid) => product(uuid, false, language)),
    );
  }
  if (path === `/v2/products/${PRODUCT}`) return json(200, { data: product(PRODUCT, true), links: self(path) });
  if (path === `/v2/products/${PRODUCT}/product-types`) {
    const res = list(path, query, [{ uuid: TYPE, title: "A type", links: self(`/v2/product-types/${TYPE}`) }]);
    if (broken !== "1-product-has-types") return res;
    const body = JSON.parse(res.body) as { meta: { pagination: { total: number } } };
    body.meta.pagination.total = 0;
    return json(200, body);
  }
  if (path === `/v2/products/${PRODUCT}/restrictions`)
    return json(200, {
      data:
        broken === "2-keys-camel-case"
          ? { product_uuid: PRODUCT, mode: "none" }
          : { productUuid: PRODUCT, mode: "none" },
      links: self(path),
    });
  if (path.endsWith("/restrictions") && broken === "4.1-restrictions-answer")
    return json(200, { data: { productUuid: path.split("/")[3], mode: "none" }, links: self(path) });
  if (path === `/v2/product-types/${TYPE}`) {
    const title = broken === "4.1-product-types-of-product" ? "A product: A type" : "A type";
    const data = { uuid: TYPE, title, allowChildren: true, allowSeniors: false, links: self(path) };
    return json(200, { data, links: self(path) });
  }
  if (path === `/v2/product-types/${TYPE}/price-lists`) return calendarOf(path, query);
  const single = new RegExp(`^/v2/product-types/${TYPE}/price-lists/([^/]+)$`).exec(path)?.[1];
  if (single !== undefined) {
    const date = day(single);
    return date === undefined
      ? error(400, "invalid_params", path)
      : json(200, { data: entry(date, false), links: self(path) });
  }
  if (path === "/v2/config") {
    const data = {
      languages: ["en", "de"],
      currencies: ["THB"],
      ...(broken === "4.4-config-items" ? {} : { locations: [{ country: "TH" }] }),
      imageBaseUrl: "https://images.example/",
    };
    return json(200, { data, links: self(path) });
  }
  if (broken === "gaps-error-404" && path.endsWith("/vouchers")) return json(200, { data: [], links: self(path) });
  return error(404, "not_found", path);
}

/** Raw requests as the conformance scenario sends them (sendRaw), the key unless told otherwise. */
function raw(request: RawRequest): RawAnswer {
  return sendRaw(BASE, KEY, request);
}

const TYPE_FOUND: FoundProductType = {
  uuid: TYPE,
  productUuid: PRODUCT,
  available: true,
  timeslots: ["10:00", "14:00"],
  instantConfirmation: true,
  daysInAdvance: 0,
  minPax: 1,
  maxPax: 10,
  categories: ["adults"],
  requiredOptions: [],
  timeslotted: true,
};

function context(productTypes: readonly FoundProductType[] = [TYPE_FOUND]): ConformanceContext {
  const config = loadConfig({
    ATD_BASE_URL: BASE,
    ATD_API_KEYS: KEY,
    ATD_CONTROL_URL: CONTROL,
    ATD_CONTROL_TOKEN: TOKEN,
  });
  const client = new ApiClient({
    baseUrl: BASE,
    apiKey: KEY,
    timeout: "5s",
    phase: "setup",
    onThrottle: "return",
    maxThrottleWaitSeconds: 1,
  });
  return { config, client, raw, productTypes, probeDate: PROBE, hooks: true };
}

function judgeAll(): Record<string, Verdict> {
  const ctx = context();
  return Object.fromEntries(Object.entries(CATALOGUE_MORE_JUDGES).map(([id, judge]) => [id, judge(ctx)]));
}

function failedIds(verdicts: Record<string, Verdict>): string[] {
  return Object.entries(verdicts)
    .filter(([, v]) => "problem" in v && v.problem !== undefined)
    .map(([id]) => id);
}

/** What each broken rule's judge must say, in part. */
const PROBLEMS: Record<Break, RegExp> = {
  "gaps-formats-uuids": /data\.typeUuid is "kind-2", not a UUID: GET \/v2\/products\/\S+ -> 200/,
  "gaps-formats-dates": /data\.validFrom is "01\/01\/2030", not a YYYY-MM-DD date: GET \/v2\/products\/\S+ -> 200/,
  "gaps-formats-timeslots":
    /data\[0\]\.timeslots\[0\]\.timeslot is "10:00:00", not an HH:MM timeslot: GET \S+price-lists\?/,
  "gaps-error-404": /expected 404 not_found in the error envelope: GET \/v2\/bookings\/\S+\/vouchers -> 200/,
  "gaps-lists-envelope": /meta\.pagination\.current_page is "1", not a whole non-negative number: GET \/v2\/products/,
  "gaps-pagination-params": /expected 400 invalid_params: GET \/v2\/products\?page=0 -> 200/,
  "9-version-prefix": /href "\/v1\/products\/\S+\/restrictions" is not under http:\/\/svc\.test\/v2\//,
  "4.2-date-format":
    /expected 400 invalid_params: GET \S+price-lists\?date_start=07-01-2030&date_end=2030-01-07 -> 200/,
  "2.5-one-entry-per-date": /the calendar from 2030-01-07 to 2030-01-20 has missing 2030-01-20: GET/,
  "2.6-voucher-validity-by-age": /voucherValidity names "validFrom", "validUntil", not an age group/,
  "1-product-has-types": /the product has no product type \(meta\.pagination\.total 0, 1 items\)/,
  "4.1-product-types-of-product":
    /the list says \{"uuid":"\S+","title":"A type"\}, the detail .*"title":"A product: A type"/,
  "4.1-restrictions-answer":
    /expected 404 not_found for an unknown product: GET \/v2\/products\/\S+\/restrictions -> 200/,
  "4.4-config-items": /data has no entry named like location: GET \/v2\/config -> 200/,
  "2-keys-camel-case": /data has the key "product_uuid", not camelCase: GET \/v2\/products\/\S+\/restrictions -> 200/,
  "2-query-snake-case": /parameters perPage are not snake_case: OPTIONS \/v2\/products -> 200/,
  "2.6-real-time":
    /the inventory was set to none, the next read still says available: GET \S+\/price-lists\/2030-01-12 -> 200/,
  "2.6-timeslots-mark-availability":
    /\d{4}-\d{2}-\d{2}: available, but no timeslot can be booked: GET \S+\/price-lists\/\d{4}-/,
  "gaps-error-410-gone":
    /a withdrawn product type: expected 410 gone in the error envelope: GET \S+\/price-lists\?date_start=2030-01-07/,
};

beforeEach(() => {
  k6State.reset();
  k6State.handler = service;
  broken = undefined;
  brokenToo = undefined;
  defaultPerPage = "10";
  hookState.seats.clear();
  hookState.withdrawn = false;
});

describe("the judges of catalogue-more-rules.ts", () => {
  it("should judge every rule of the table and pass them all on a service that keeps them", () => {
    const verdicts = judgeAll();
    expect(Object.keys(verdicts).sort()).toEqual(Object.keys(PROBLEMS).sort());
    for (const [id, verdict] of Object.entries(verdicts)) expect(verdict, id).toEqual({ problem: undefined });
  });

  it.each(Object.keys(PROBLEMS) as Break[])(
    "should fail %s alone, with evidence, when the service breaks it",
    (rule) => {
      broken = rule;
      const verdicts = judgeAll();
      expect(failedIds(verdicts)).toEqual([rule]);
      const verdict = verdicts[rule] as { problem: string };
      expect(verdict.problem).toMatch(PROBLEMS[rule]);
    },
  );

  it("should send few requests: at most five of the public API per judge (eight with a booking), four hook calls", () => {
    for (const [id, judge] of Object.entries(CATALOGUE_MORE_JUDGES)) {
      const before = k6State.requests.length;
      judge(context());
      const sent = k6State.requests.slice(before);
      // gaps-lists-envelope reads an approved booking's vouchers: a single date, create, confirm, read, cancel.
      const most = id === "gaps-lists-envelope" ? 8 : 5;
      expect(sent.filter((r) => r.url.startsWith(BASE)).length, id).toBeLessThanOrEqual(most);
      expect(sent.filter((r) => r.url.startsWith(CONTROL)).length, id).toBeLessThanOrEqual(4);
    }
  });

  it("should not judge the catalogue rules when setup found no product type, saying why", () => {
    const ctx = context([]);
    for (const id of [
      "gaps-formats-uuids",
      "gaps-formats-dates",
      "gaps-lists-envelope",
      "9-version-prefix",
      "4.2-date-format",
      "2.5-one-entry-per-date",
      "2.6-voucher-validity-by-age",
    ])
      expect(CATALOGUE_MORE_JUDGES[id]?.(ctx), id).toEqual({ notJudged: "setup found no product type to ask about" });
    expect(CATALOGUE_MORE_JUDGES["gaps-formats-timeslots"]?.(ctx)).toEqual({
      notJudged: "setup found no timeslotted product type",
    });
  });

  it("should report a per_page over 100 served with at most 100 items as a finding, not a failure", () => {
    k6State.handler = (method, url, body, params) =>
      url.includes("per_page=101")
        ? service(method, url.replace("101", "100"), body, params)
        : service(method, url, body, params);
    expect(CATALOGUE_MORE_JUDGES["gaps-pagination-params"]?.(context())).toEqual({ problem: undefined });
  });

  it("should fail gaps-lists-envelope alone when the vouchers answer carries pagination", () => {
    brokenToo = "vouchers-paginated";
    const verdicts = judgeAll();
    expect(failedIds(verdicts)).toEqual(["gaps-lists-envelope"]);
    expect((verdicts["gaps-lists-envelope"] as { problem: string }).problem).toMatch(
      /the vouchers answer carries meta\.pagination; .*: GET \/v2\/bookings\/\S+\/vouchers -> 200/,
    );
  });

  it("should fail 2.5-one-entry-per-date alone when the calendar's dates are not in date order", () => {
    brokenToo = "calendar-descending";
    const verdicts = judgeAll();
    expect(failedIds(verdicts)).toEqual(["2.5-one-entry-per-date"]);
    expect((verdicts["2.5-one-entry-per-date"] as { problem: string }).problem).toMatch(
      /has 2030-01-19 after 2030-01-20, not in date order/,
    );
  });

  it("should pass every rule on a service whose page size without per_page is not 10", () => {
    defaultPerPage = "25";
    expect(failedIds(judgeAll())).toEqual([]);
    defaultPerPage = "0";
    expect(CATALOGUE_MORE_JUDGES["gaps-pagination-params"]?.(context())).toEqual({
      problem: expect.stringMatching(
        /without per_page, expected a whole meta\.pagination\.per_page of at least 1/,
      ) as string,
    });
  });

  it("should not judge the parameters' names by design where the self-description has a shape of its own", () => {
    k6State.handler = (method, url, body, params) =>
      method === "OPTIONS"
        ? json(200, { data: { path: new URL(url).pathname, get: { query: ["page"] } }, links: self("/x") })
        : service(method, url, body, params);
    expect(CATALOGUE_MORE_JUDGES["2-query-snake-case"]?.(context())).toEqual({
      notJudged: expect.stringMatching(
        /^the Part 4 names are accepted as written, but the self-description names no GET parameters/,
      ) as string,
      byDesign: true,
    });
  });

  it("should not judge a rule on a 429, naming the answer", () => {
    k6State.handler = (method, url, body, params) =>
      url.includes("/v2/products")
        ? error(429, "GEN-TOO-MANY-REQUESTS", new URL(url).pathname)
        : service(method, url, body, params);
    expect(CATALOGUE_MORE_JUDGES["gaps-formats-uuids"]?.(context())).toEqual({
      notJudged: expect.stringMatching(/not a 200 .*GET \/v2\/products\?per_page=5 -> 429/) as string,
    });
  });
});

describe("the judges that change the service through the required hooks", () => {
  it("should put back the seats and the type's availability it changed, even when the rule fails", () => {
    for (const rule of [undefined, "2.6-real-time", "gaps-error-410-gone"] as const) {
      broken = rule;
      CATALOGUE_MORE_JUDGES["2.6-real-time"]?.(context());
      CATALOGUE_MORE_JUDGES["gaps-error-410-gone"]?.(context());
      expect(hookState.seats.get("2030-01-12"), String(rule)).toBe(5);
      expect(hookState.withdrawn, String(rule)).toBe(false);
    }
  });

  it("should not judge the withdrawal without the test hooks, sending nothing", () => {
    const ctx = { ...context(), hooks: false, config: loadConfig({ ATD_BASE_URL: BASE, ATD_API_KEYS: KEY }) };
    expect(CATALOGUE_MORE_JUDGES["gaps-error-410-gone"]?.(ctx)).toEqual({
      notJudged: "needs the test hooks, and this run has none (public API only)",
      byDesign: true,
    });
    expect(k6State.requests).toEqual([]);
  });

  it("should judge 2.6-real-time without the test hooks through the public API, calling no hook", () => {
    const ctx = { ...context(), hooks: false, config: loadConfig({ ATD_BASE_URL: BASE, ATD_API_KEYS: KEY }) };
    CATALOGUE_MORE_JUDGES["2.6-real-time"]?.(ctx);
    expect(k6State.requests.length).toBeGreaterThan(0);
    expect(k6State.requests.filter((r) => r.url.startsWith(CONTROL))).toEqual([]);
  });
});

describe("the answer checks of formats and links", () => {
  it("should take a timeslotted result as available exactly when a listed timeslot can be booked", () => {
    const slot = (remaining: number) => ({ timeslot: "10:00", available: remaining > 0, remaining });
    expect(timeslotsMarkProblem({ date: "2030-01-07", available: false, timeslots: [slot(0)] })).toBeUndefined();
    expect(timeslotsMarkProblem({ date: "2030-01-07", available: true, timeslots: ["10:00"] })).toBeUndefined();
    expect(timeslotsMarkProblem({ date: "2030-01-07", available: false, timeslots: [slot(3)] })).toBe(
      "2030-01-07: not available, but 1 timeslot(s) can be booked",
    );
  });

  it("should take camelCase keys and the spec's own snake_case ones", () => {
    expect(camelCaseProblem({ uuid: "x", partner_reference: "r", typeUuid: "t" })).toBeUndefined();
    expect(camelCaseProblem([{ uuid: "x" }, { TypeName: "y" }])).toBe('item 1 has the key "TypeName", not camelCase');
  });

  it("should take voucherValidity keyed by age group or as entries naming one, every allowed group present", () => {
    const v = { validFrom: "2030-01-07" };
    expect(voucherValidityProblem({ adults: v, children: v }, ["adults", "children"])).toBeUndefined();
    expect(voucherValidityProblem([{ ageGroup: "adults", ...v }], ["adults"])).toBeUndefined();
    expect(voucherValidityProblem({ adults: v }, ["adults", "seniors"])).toBe(
      "voucherValidity has no entry for seniors",
    );
    expect(voucherValidityProblem(null, ["adults"])).toMatch(/not divided by age group/);
  });

  it("should match the config's entries by name and want an image URL", () => {
    const data = { languages: ["en"], currencies: ["THB"], locations: [{}], imageBaseUrl: "https://i.example/" };
    expect(configItemsProblem(data)).toBeUndefined();
    expect(configItemsProblem({ ...data, supportedCurrencies: [], currencies: undefined })).toMatch(
      /not a non-empty array/,
    );
    expect(configItemsProblem({ ...data, imageBaseUrl: "images/" })).toMatch(/not a URL/);
  });

  it("should read uuid and *Uuid keys however deep, and nothing else", () => {
    expect(uuidsProblem({ data: [{ uuid: PRODUCT, categories: [{ uuid: TYPE, slug: "x" }] }] })).toBeUndefined();
    expect(uuidsProblem({ data: { categories: [{ uuid: "cat-1" }] } })).toBe(
      'data.categories[0].uuid is "cat-1", not a UUID',
    );
  });

  it("should take real calendar dates only, and leave voucherValidity to its own rule", () => {
    expect(
      datesProblem({ data: { date: "2030-01-07", voucherValidity: { adults: { validFrom: "x" } } } }),
    ).toBeUndefined();
    expect(datesProblem({ data: { date: "2030-02-30" } })).toBe('data.date is "2030-02-30", not a YYYY-MM-DD date');
  });

  it("should take HH:MM of a real time of day, in objects and as bare strings", () => {
    expect(timeslotsProblem({ data: { timeslots: ["09:30", { timeslot: "23:59" }] } })).toBeUndefined();
    expect(timeslotsProblem({ data: { timeslots: [{ timeslot: "24:00" }] } })).toMatch(/"24:00", not an HH:MM/);
    expect(timeslotsProblem({ data: { timeslots: ["9:30"] } })).toMatch(/holds "9:30", not an HH:MM/);
  });

  it("should take relative and absolute hrefs under the base URL's /v2/", () => {
    const links = (href: string) => ({ links: [{ rel: "self", href, method: "GET" }] });
    expect(versionPrefixProblem(links("/v2/products"), BASE)).toBeUndefined();
    expect(versionPrefixProblem(links(`${BASE}/v2/products`), `${BASE}/`)).toBeUndefined();
    expect(versionPrefixProblem(links("https://other.example/v2/products"), BASE)).toMatch(/is not under/);
    expect(versionPrefixProblem(links("/products"), BASE)).toMatch(/is not under/);
  });
});
