/**
 * The judges of catalogue-more-rules.ts (lib/k6/conformance/) against a small service behind the k6 shims: right,
 * every judge passes; with one thing broken the way a reference defect breaks it, that rule's judge fails with
 * evidence and no other judge does.
 */
import http from "k6/http";
import { beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import {
  CATALOGUE_MORE_JUDGES,
  datesProblem,
  timeslotsProblem,
  uuidsProblem,
  versionPrefixProblem,
} from "../../lib/k6/conformance/catalogue-more-rules.ts";
import type {
  ConformanceContext,
  FoundProductType,
  RawAnswer,
  RawRequest,
  Verdict,
} from "../../lib/k6/conformance/judge.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";

const BASE = "http://svc.test";
const KEY = "key-1";
const PRODUCT = "11111111-1111-4111-8111-111111111111";
const OTHER_PRODUCT = "33333333-3333-4333-8333-333333333333";
const TYPE = "22222222-2222-4222-8222-222222222222";
const KIND = "44444444-4444-4444-8444-444444444444";
const PROBE = "2030-01-07";

/** One wrong behaviour at a time, named by the rule it breaks (as the reference service's defects do). */
type Break =
  | "gaps-formats-uuids"
  | "gaps-formats-dates"
  | "gaps-formats-timeslots"
  | "gaps-error-404"
  | "gaps-lists-envelope"
  | "gaps-pagination-params"
  | "9-version-prefix";

let broken: Break | undefined;

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

function product(uuid: string, detail: boolean): Record<string, unknown> {
  const slashes = detail && broken === "gaps-formats-dates";
  return {
    uuid,
    updatedAt: "2030-01-01T00:00:00.000Z",
    title: "A product",
    validFrom: slashes ? "01/01/2030" : "2030-01-01",
    validThrough: "2031-01-01",
    typeUuid: detail && broken === "gaps-formats-uuids" ? "kind-2" : KIND,
    links: productLinks(uuid),
  };
}

function list(path: string, query: URLSearchParams, items: Record<string, unknown>[]): ShimResponse {
  const rawPage = query.get("page") ?? "1";
  const rawPerPage = query.get("per_page") ?? "10";
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
  return {
    date,
    weekday: "Monday",
    available: true,
    currency: "THB",
    prices: { adults: "25.00" },
    timeslots: [
      { timeslot: slot("10:00"), available: true, remaining: 5 },
      { timeslot: slot("14:00"), available: false, remaining: 0 },
    ],
    options: [],
    ...(calendar ? {} : { voucherValidity: { adults: { validFrom: date, validUntil: "2030-02-06" } } }),
    links: self(`/v2/product-types/${TYPE}/price-lists/${date}`),
  };
}

const PRODUCTS = Array.from({ length: 25 }, (_, i) =>
  i === 0 ? PRODUCT : i === 1 ? OTHER_PRODUCT : `55555555-5555-4555-8555-${String(i).padStart(12, "0")}`,
);

/** The small service: the paths the judges ask about, answered as the contract says unless `broken` names a rule. */
function service(method: string, url: string, _body: string | null, params: { headers?: Record<string, string> }) {
  const { pathname: path, searchParams: query } = new URL(url);
  if (params.headers?.["X-Authorization"] !== KEY) return error(401, "GEN-UNAUTHORIZED", path);
  if (path === "/v2/products")
    return list(
      path,
      query,
      PRODUCTS.map((uuid) => product(uuid, false)),
    );
  if (path === `/v2/products/${PRODUCT}`) return json(200, { data: product(PRODUCT, true), links: self(path) });
  if (path === `/v2/products/${PRODUCT}/product-types`)
    return list(path, query, [{ uuid: TYPE, title: "A type", links: self(`/v2/product-types/${TYPE}`) }]);
  if (path === `/v2/product-types/${TYPE}`)
    return json(200, { data: { uuid: TYPE, title: "A type", links: self(path) }, links: self(path) });
  if (path === `/v2/product-types/${TYPE}/price-lists`) {
    const data = [entry(query.get("date_start") ?? PROBE, true)];
    const pagination = { total: 1, count: 1, per_page: 1, current_page: 1, total_pages: 1 };
    return json(200, { data, meta: { pagination }, links: self(path) });
  }
  if (path === `/v2/product-types/${TYPE}/price-lists/${PROBE}`)
    return json(200, { data: entry(PROBE, false), links: self(path) });
  if (broken === "gaps-error-404" && path.endsWith("/vouchers")) return json(200, { data: [], links: self(path) });
  return error(404, "not_found", path);
}

/** Raw requests as the conformance scenario sends them: through k6's http, the key unless told otherwise. */
function raw(request: RawRequest): RawAnswer {
  const headers: Record<string, string> = {};
  const key = request.key === undefined ? KEY : request.key;
  if (key !== null) headers["X-Authorization"] = key;
  const res = http.request(request.method, `${BASE}${request.path}`, null, { headers });
  const text = typeof res.body === "string" ? res.body : "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const lower = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { status: res.status, header: (name) => lower[name.toLowerCase()], text, json: parsed };
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
};

beforeEach(() => {
  k6State.reset();
  k6State.handler = service;
  broken = undefined;
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

  it("should send few requests: at most five per judge", () => {
    for (const [id, judge] of Object.entries(CATALOGUE_MORE_JUDGES)) {
      const before = k6State.requests.length;
      judge(context());
      expect(k6State.requests.length - before, id).toBeLessThanOrEqual(5);
    }
  });

  it("should not judge the catalogue rules when setup found no product type, saying why", () => {
    const ctx = context([]);
    for (const id of ["gaps-formats-uuids", "gaps-formats-dates", "gaps-lists-envelope", "9-version-prefix"])
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

describe("the answer checks of formats and links", () => {
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
