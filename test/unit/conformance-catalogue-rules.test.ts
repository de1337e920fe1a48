/**
 * The catalogue rules' judges (lib/k6/conformance/catalogue-rules.ts) against a small service behind the k6 shims:
 * right, every judge passes; with one thing broken the way a reference defect breaks it, that rule's judge fails
 * with evidence and no other judge does.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { PRODUCT_DETAIL_KEYS, PRODUCT_TYPE_DETAIL_KEYS } from "../../lib/contract/index.ts";
import { ApiClient } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import { weekdayProblem } from "../../lib/k6/answer-rules.ts";
import { CATALOGUE_JUDGES, addMonths } from "../../lib/k6/conformance/catalogue-rules.ts";
import {
  passed,
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
const TYPE = "22222222-2222-4222-8222-222222222222";
const PROBE = "2030-01-07";
const LANGUAGES = ["en", "de"];

/** One wrong behaviour at a time, named by the rule it breaks (as the reference service's defects do). */
type Break =
  | "1-options"
  | "2.2-product-detail-keys"
  | "gaps-formats-money"
  | "gaps-formats-timestamps"
  | "2.5-weekday-matches-date"
  | "2.5-available-consistent"
  | "2.6-no-cache"
  | "4.0-fields-honoured"
  | "4.0-unknown-values-refused"
  | "4.2-date-range-required"
  | "4.2-six-months";

let broken: Break | undefined;

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function json(status: number, body: unknown, headers: Record<string, string> = {}): ShimResponse {
  return { status, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

function links(path: string, method = "GET") {
  return [{ rel: "self", href: path, method }];
}

function error(status: number, code: string, path: string): ShimResponse {
  return json(status, {
    error: { code, message: `${code} on ${path}`, http_code: status },
    links: [{ rel: "self", href: path, method: "GET" }],
    timestamp: "2030-01-01T00:00:00.000Z",
  });
}

/** A detail with every key of its set; `fields` and `language` applied as the contract says. */
function detail(keys: readonly string[], query: URLSearchParams, self: string): ShimResponse {
  const asked = query.get("language") ?? "en";
  if (!LANGUAGES.includes(asked) && broken !== "4.0-unknown-values-refused") return error(400, "invalid_params", self);
  const language = !LANGUAGES.includes(asked) ? "en" : asked;
  const fields = query.get("fields")?.split(",");
  if (fields?.some((f) => !keys.includes(f))) return error(400, "invalid_params", self);
  const data: Record<string, unknown> = {};
  for (const key of keys) {
    if (fields && broken !== "4.0-fields-honoured" && !["uuid", "links", ...fields].includes(key)) continue;
    data[key] = key.endsWith("Translated") ? { [language]: `${language} text` } : `${key} value`;
  }
  if ("uuid" in data) data.uuid = self.split("/")[3];
  if ("links" in data) data.links = [{ rel: "self", href: self, method: "GET" }];
  if ("updatedAt" in data)
    data.updatedAt =
      broken === "gaps-formats-timestamps" ? "2030-01-01T08:00:00.000+08:00" : "2030-01-01T00:00:00.000Z";
  if ("basePrice" in data) data.basePrice = "25.00";
  if ("currency" in data) data.currency = "THB";
  if (broken === "2.2-product-detail-keys" && keys === PRODUCT_DETAIL_KEYS && !fields)
    data.url = "https://www.example/p";
  return json(200, { data, links: links(self) });
}

/** A price entry: odd days of the month open at 10:00 only, even days sold out. */
function entry(date: string, calendar: boolean): Record<string, unknown> {
  const open = Number(date.slice(8)) % 2 === 1;
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  const slots = [
    { timeslot: "10:00", available: open, remaining: open ? 5 : 0 },
    { timeslot: "14:00", available: false, remaining: 0 },
  ];
  return {
    date,
    weekday: WEEKDAYS[calendar && broken === "2.5-weekday-matches-date" ? (day + 1) % 7 : day],
    available: open,
    currency: "THB",
    prices: broken === "gaps-formats-money" ? { adults: 25 } : { adults: "25.00", children: "12.50" },
    timeslots: calendar && open && broken === "2.5-available-consistent" ? [] : slots,
    options: [],
    ...(calendar ? {} : { voucherValidity: { adults: { validFrom: date } } }),
    links: [{ rel: "self", href: `/v2/product-types/${TYPE}/price-lists/${date}`, method: "GET" }],
  };
}

function days(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = Date.parse(`${start}T00:00:00Z`); d <= Date.parse(`${end}T00:00:00Z`); d += 86_400_000)
    out.push(new Date(d).toISOString().slice(0, 10));
  return out;
}

function calendar(query: URLSearchParams, self: string): ShimResponse {
  let start = query.get("date_start");
  let end = query.get("date_end");
  if (broken === "4.2-date-range-required") {
    start ??= PROBE;
    end ??= "2030-02-06";
  }
  if (start === null || end === null) return error(400, "invalid_params", self);
  const limit = addMonths(start, broken === "4.2-six-months" ? 12 : 6);
  if (end > limit || end < start) return error(400, "invalid_params", self);
  const data = days(start, end).map((d) => entry(d, true));
  const pagination = { total: data.length, count: data.length, per_page: data.length, current_page: 1, total_pages: 1 };
  return json(200, { data, meta: { pagination }, links: links(self) }, { "Cache-Control": "no-store" });
}

const ALLOW: Record<string, string> = { "/v2/bookings": "GET, POST, OPTIONS" };

/** The small service: the paths the judges ask about, answered as the contract says unless `broken` names a rule. */
function service(method: string, url: string, _body: string | null, params: { headers?: Record<string, string> }) {
  const { pathname: path, searchParams: query } = new URL(url);
  if (params.headers?.["X-Authorization"] !== KEY) return error(401, "GEN-UNAUTHORIZED", path);
  if (method === "OPTIONS") {
    const allow = ALLOW[path] ?? "GET, OPTIONS";
    const methods = allow
      .split(", ")
      .filter((m) => m !== "OPTIONS")
      .map((m) => ({ method: m, parameters: [], keys: [] }));
    return json(
      200,
      { data: { methods }, links: links(path, "OPTIONS") },
      broken === "1-options" ? {} : { Allow: allow },
    );
  }
  if (path === "/v2/config")
    return json(200, { data: { languages: LANGUAGES, currencies: ["THB", "USD"] }, links: links(path) });
  if (path === `/v2/products/${PRODUCT}`) return detail(PRODUCT_DETAIL_KEYS, query, path);
  if (path === `/v2/product-types/${TYPE}`) return detail(PRODUCT_TYPE_DETAIL_KEYS, query, path);
  if (path === `/v2/product-types/${TYPE}/price-lists`) return calendar(query, path);
  const date = /^\/v2\/product-types\/[^/]+\/price-lists\/(\d{4}-\d{2}-\d{2})$/.exec(path)?.[1];
  if (date !== undefined) {
    const headers: Record<string, string> =
      broken === "2.6-no-cache"
        ? { "Cache-Control": "public, max-age=300", Expires: "Wed, 01 Jan 2031 00:00:00 GMT" }
        : { "Cache-Control": "no-store" };
    return json(200, { data: entry(date, false), links: links(path) }, headers);
  }
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
  categories: ["adults", "children"],
  requiredOptions: [],
  timeslotted: true,
};

function context(productTypes: readonly FoundProductType[] = [TYPE_FOUND]): ConformanceContext {
  const config = loadConfig({ ATD_BASE_URL: BASE, ATD_API_KEYS: KEY });
  const client = new ApiClient({
    baseUrl: BASE,
    apiKey: KEY,
    timeout: "5s",
    phase: "setup",
    onThrottle: "return",
    maxThrottleWaitSeconds: 1,
  });
  return { config, client, raw, productTypes, probeDate: PROBE, hooks: false };
}

function judgeAll(): Record<string, Verdict> {
  const ctx = context();
  return Object.fromEntries(Object.entries(CATALOGUE_JUDGES).map(([id, judge]) => [id, judge(ctx)]));
}

function failedIds(verdicts: Record<string, Verdict>): string[] {
  return Object.entries(verdicts)
    .filter(([, v]) => "problem" in v && v.problem !== undefined)
    .map(([id]) => id);
}

/** What each broken rule's judge must say, in part. */
const PROBLEMS: Record<Break, RegExp> = {
  "1-options": /no Allow header: OPTIONS \/v2\/products\/\S+ -> 200/,
  "2.2-product-detail-keys": /the product detail has forbidden url: GET/,
  "gaps-formats-money": /the single-date result's prices\.adults is the number 25, not a decimal string/,
  "gaps-formats-timestamps": /updatedAt is "2030-01-01T08:00:00\.000\+08:00", not an ISO 8601 time in UTC/,
  "2.5-weekday-matches-date": /2030-01-07 is a Monday, the entry says "Tuesday"/,
  "2.5-available-consistent": /2030-01-07: available with no bookable timeslot listed/,
  "2.6-no-cache": /Cache-Control is "public, max-age=300", expected no-store, no-cache or max-age=0/,
  "4.0-fields-honoured": /fields=title, but the detail has \d+ more keys/,
  "4.0-unknown-values-refused": /expected 400: GET \/v2\/products\/\S+\?language=zz -> 200/,
  "4.2-date-range-required": /expected 400: GET \/v2\/product-types\/\S+\/price-lists\?date_start=2030-01-07 -> 200/,
  "4.2-six-months": /expected 400: GET \S+date_start=2030-01-07&date_end=2030-07-08 -> 200/,
};

beforeEach(() => {
  k6State.reset();
  k6State.handler = service;
  broken = undefined;
});

describe("the catalogue rules' judges", () => {
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

  it("should send few requests: at most three per judge, twenty-four in all", () => {
    const counts = Object.entries(CATALOGUE_JUDGES).map(([id, judge]) => {
      const before = k6State.requests.length;
      judge(context());
      return [id, k6State.requests.length - before] as const;
    });
    for (const [id, count] of counts) expect(count, id).toBeLessThanOrEqual(3);
    expect(counts.reduce((sum, [, n]) => sum + n, 0)).toBe(24);
  });

  it("should not judge a rule when setup found no product type, saying why", () => {
    const ctx = context([]);
    for (const [id, judge] of Object.entries(CATALOGUE_JUDGES))
      expect(judge(ctx), id).toEqual({ notJudged: "setup found no product type to ask about" });
    expect(k6State.requests).toEqual([]);
  });

  it("should not judge the answer rules on a 429, naming the answer", () => {
    k6State.handler = (method, url, body, params) =>
      method === "GET" && url.includes("/v2/products/")
        ? error(429, "GEN-TOO-MANY-REQUESTS", new URL(url).pathname)
        : service(method, url, body, params);
    const verdict = CATALOGUE_JUDGES["2.2-product-detail-keys"]?.(context());
    expect(verdict).toEqual({
      notJudged: expect.stringMatching(/not a 200 .*GET \/v2\/products\/\S+ -> 429/) as string,
    });
  });

  it("should take max-age=0 as not cached and fail an Expires after the answer's Date", () => {
    const singleWith = (headers: Record<string, string>) => {
      k6State.handler = (method, url, body, params) => {
        const res = service(method, url, body, params);
        return url.includes("/price-lists/") ? { ...res, headers: { ...res.headers, ...headers } } : res;
      };
      return CATALOGUE_JUDGES["2.6-no-cache"]?.(context());
    };
    expect(singleWith({ "Cache-Control": "max-age=0, must-revalidate", Expires: "0" })).toEqual(passed);
    expect(
      singleWith({
        "Cache-Control": "no-cache",
        Date: "Wed, 01 Jan 2031 00:00:00 GMT",
        Expires: "Wed, 01 Jan 2031 00:05:00 GMT",
      }),
    ).toEqual({ problem: expect.stringMatching(/Expires is 300 s after the answer's Date/) as string });
  });

  it("should fail money in a currency the config does not list", () => {
    k6State.handler = (method, url, body, params) =>
      url.endsWith("/v2/config")
        ? json(200, { data: { languages: LANGUAGES, currencies: ["USD"] }, links: links("/v2/config") })
        : service(method, url, body, params);
    expect(CATALOGUE_JUDGES["gaps-formats-money"]?.(context())).toEqual({
      problem: expect.stringMatching(
        /^currency THB is not one GET \/v2\/config lists: GET \/v2\/config -> 200/,
      ) as string,
    });
  });
});

describe("the answer checks cheap enough for every answer", () => {
  it("should read the weekday as an English name or its abbreviation, and name a mismatch", () => {
    // 2030-01-07 is a Monday.
    for (const weekday of ["Monday", "MON", "monday"])
      expect(weekdayProblem({ date: "2030-01-07", weekday }), weekday).toBeUndefined();
    expect(weekdayProblem({ date: "2030-01-07", weekday: "Tuesday" })).toBe(
      '2030-01-07 is a Monday, the entry says "Tuesday"',
    );
    expect(weekdayProblem({ date: "2030-02-30", weekday: "Monday" })).toMatch(/is not a YYYY-MM-DD date/);
  });

  it("should count six calendar months, clamped to the end of a shorter month", () => {
    expect(addMonths("2030-01-07", 6)).toBe("2030-07-07");
    expect(addMonths("2030-08-31", 6)).toBe("2031-02-28");
    expect(addMonths("2031-12-31", 2)).toBe("2032-02-29");
  });
});
