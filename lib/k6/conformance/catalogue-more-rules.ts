/**
 * More judges of the catalogue's rules (spec Parts 2, 4.1, 4.2 and 9; docs/contract-gaps.md, Formats, Lists and
 * pagination, Wire format and error codes): the formats of identifiers, dates and timeslots, 404 on every detail
 * path, the list envelope and its page parameters, and the /v2 prefix of links. Each sends one to five requests of
 * its own through the public API and never reads another rule's answer. Each rule is proven by a defect of the
 * reference service that breaks it alone (test/service/conformance-catalogue-more-defects.test.ts).
 */
import { ERROR_CODES, PAGINATION, isErrorEnvelope, isRecord } from "../../contract/index.ts";
import { UUID_PATTERN } from "../../contract/schema.ts";
import { reportFinding, weekdayOf } from "../checks.ts";
import type { ApiResponse } from "../client.ts";
import {
  answerEvidence,
  evidence,
  failed,
  notJudged,
  passed,
  type ConformanceContext,
  type FoundProductType,
  type Judge,
  type Verdict,
} from "./judge.ts";

const UUID = new RegExp(UUID_PATTERN);
/** HH:MM of a real time of day (docs/contract-gaps.md, Formats), stricter than the schema's shape alone. */
const TIMESLOT = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A UUID no resource has. */
const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";
const NO_TYPE = "setup found no product type to ask about";

type Problem = string | undefined;

function firstType(ctx: ConformanceContext): FoundProductType | undefined {
  return ctx.productTypes[0];
}

/** The timeslotted type with the most timeslots, else undefined. */
function timeslottedType(ctx: ConformanceContext): FoundProductType | undefined {
  let best: FoundProductType | undefined;
  for (const t of ctx.productTypes)
    if (t.timeslotted && (best === undefined || t.timeslots.length > best.timeslots.length)) best = t;
  return best;
}

/** An answer that is a 200 with a JSON object, or the verdict that the rule was not judged on it. */
function usable(method: string, path: string, res: ApiResponse<unknown>): Verdict | undefined {
  if (res.status === 200 && isRecord(res.body)) return undefined;
  return notJudged(
    `the answer the rule is judged on was not a 200 with a JSON body: ${answerEvidence(method, path, res)}`,
  );
}

/** Each answer of `asks` in turn, held to `problemOf`; the first problem fails the rule with its evidence. */
function judgeAnswers(
  asks: readonly [path: string, send: () => ApiResponse<unknown>][],
  problemOf: (body: Record<string, unknown>) => Problem,
): Verdict {
  for (const [path, send] of asks) {
    const res = send();
    const bad = usable("GET", path, res);
    if (bad) return bad;
    const problem = problemOf(res.body as Record<string, unknown>);
    if (problem) return failed(`${problem}: ${answerEvidence("GET", path, res)}`);
  }
  return passed;
}

/** Every value of a JSON value whose key passes `wanted`, however deep, with where it sits. */
function valuesOf(
  value: unknown,
  wanted: (key: string) => boolean,
  where = "",
  into: [where: string, value: unknown][] = [],
  depth = 0,
): [where: string, value: unknown][] {
  if (depth > 8) return into;
  if (Array.isArray(value))
    (value as unknown[]).forEach((v, i) => valuesOf(v, wanted, `${where}[${i}]`, into, depth + 1));
  else if (isRecord(value))
    for (const [k, v] of Object.entries(value)) {
      const at = where === "" ? k : `${where}.${k}`;
      if (wanted(k)) into.push([at, v]);
      valuesOf(v, wanted, at, into, depth + 1);
    }
  return into;
}

/** docs/contract-gaps.md (Formats): every `uuid` and `*Uuid` value is a UUID string. */
export function uuidsProblem(body: unknown): Problem {
  for (const [where, value] of valuesOf(body, (k) => k === "uuid" || k.endsWith("Uuid"))) {
    if (typeof value !== "string" || !UUID.test(value))
      return `${where} is ${JSON.stringify(value ?? null)}, not a UUID`;
  }
  return undefined;
}

/** The keys whose values are dates (docs/contract-gaps.md, Formats); voucherValidity's are judged by 2.6. */
const DATE_KEYS = new Set(["date", "validFrom", "validThrough"]);

/** docs/contract-gaps.md (Formats): every date is YYYY-MM-DD and a real calendar date. */
export function datesProblem(body: unknown): Problem {
  for (const [where, value] of valuesOf(body, (k) => DATE_KEYS.has(k))) {
    if (where.includes("voucherValidity")) continue;
    if (weekdayOf(value) === undefined) return `${where} is ${JSON.stringify(value ?? null)}, not a YYYY-MM-DD date`;
  }
  return undefined;
}

/** docs/contract-gaps.md (Formats): every timeslot is HH:MM. */
export function timeslotsProblem(body: unknown): Problem {
  for (const [where, value] of valuesOf(body, (k) => k === "timeslot")) {
    if (typeof value !== "string" || !TIMESLOT.test(value))
      return `${where} is ${JSON.stringify(value ?? null)}, not an HH:MM timeslot`;
  }
  const data = isRecord(body) ? body.data : undefined;
  for (const [where, value] of valuesOf(data, (k) => k === "timeslots")) {
    if (!Array.isArray(value)) continue;
    const bare = (value as unknown[]).find((s) => typeof s === "string" && !TIMESLOT.test(s));
    if (bare !== undefined) return `${where} holds ${JSON.stringify(bare)}, not an HH:MM timeslot`;
  }
  return undefined;
}

const uuids: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  return judgeAnswers(
    [
      ["/v2/products?per_page=5", () => ctx.client.listProducts({ per_page: 5 })],
      [`/v2/products/${type.productUuid}`, () => ctx.client.getProduct(type.productUuid)],
      [`/v2/products/${type.productUuid}/product-types`, () => ctx.client.listProductTypes(type.productUuid)],
    ],
    uuidsProblem,
  );
};

const dates: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  return judgeAnswers(
    [
      ["/v2/products?per_page=5", () => ctx.client.listProducts({ per_page: 5 })],
      [`/v2/products/${type.productUuid}`, () => ctx.client.getProduct(type.productUuid)],
      [
        `/v2/product-types/${type.uuid}/price-lists/${ctx.probeDate}`,
        () => ctx.client.getPriceForDate(type.uuid, ctx.probeDate),
      ],
    ],
    datesProblem,
  );
};

const timeslots: Judge = (ctx) => {
  const type = timeslottedType(ctx);
  if (type === undefined) return notJudged("setup found no timeslotted product type");
  return judgeAnswers(
    [
      [
        `/v2/product-types/${type.uuid}/price-lists?date_start=${ctx.probeDate}&date_end=${ctx.probeDate}`,
        () => ctx.client.getPriceList(type.uuid, ctx.probeDate, ctx.probeDate),
      ],
      [
        `/v2/product-types/${type.uuid}/price-lists/${ctx.probeDate}`,
        () => ctx.client.getPriceForDate(type.uuid, ctx.probeDate),
      ],
    ],
    timeslotsProblem,
  );
};

const notFound: Judge = (ctx) => {
  const paths = [
    `/v2/products/${NO_SUCH_UUID}`,
    `/v2/product-types/${NO_SUCH_UUID}`,
    `/v2/bookings/${NO_SUCH_UUID}`,
    `/v2/bookings/${NO_SUCH_UUID}/vouchers`,
    "/v2/atd-no-such-path",
  ];
  for (const path of paths) {
    const answer = ctx.raw({ method: "GET", path });
    if (answer.status === 429) return notJudged(`rate limited: ${evidence("GET", path, answer)}`);
    const error = isErrorEnvelope(answer.json) ? answer.json.error : undefined;
    if (answer.status !== 404 || error?.code !== ERROR_CODES.notFound || error.http_code !== 404)
      return failed(`expected 404 ${ERROR_CODES.notFound} in the error envelope: ${evidence("GET", path, answer)}`);
  }
  return passed;
};

const PAGINATION_KEYS = ["total", "count", "per_page", "current_page", "total_pages"] as const;

/** docs/contract-gaps.md (Lists and pagination): the five numbers of a list's pagination, whole and non-negative. */
export function paginationProblem(body: Record<string, unknown>): Problem {
  const meta = body.meta;
  const pagination = isRecord(meta) ? meta.pagination : undefined;
  if (!Array.isArray(body.data) || !isRecord(pagination) || !Array.isArray(body.links))
    return "not a list envelope {data: [...], meta: {pagination}, links}";
  for (const key of PAGINATION_KEYS) {
    const n = pagination[key];
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0)
      return `meta.pagination.${key} is ${JSON.stringify(n ?? null)}, not a whole non-negative number`;
  }
  return undefined;
}

function detailProblem(body: Record<string, unknown>): Problem {
  return isRecord(body.data) && Array.isArray(body.links) && !("meta" in body)
    ? undefined
    : "not a detail envelope {data: {...}, links}";
}

const listsEnvelope: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const lists = judgeAnswers(
    [
      ["/v2/products?per_page=2", () => ctx.client.listProducts({ per_page: 2 })],
      [`/v2/products/${type.productUuid}/product-types`, () => ctx.client.listProductTypes(type.productUuid)],
    ],
    paginationProblem,
  );
  if (lists !== passed) return lists;
  return judgeAnswers([[`/v2/product-types/${type.uuid}`, () => ctx.client.getProductType(type.uuid)]], detailProblem);
};

const paginationParams: Judge = (ctx) => {
  const base = "/v2/products";
  const plain = ctx.raw({ method: "GET", path: base });
  if (plain.status === 429) return notJudged(`rate limited: ${evidence("GET", base, plain)}`);
  const body = isRecord(plain.json) ? plain.json : {};
  const pagination = isRecord(body.meta) && isRecord(body.meta.pagination) ? body.meta.pagination : {};
  const items = Array.isArray(body.data) ? body.data.length : -1;
  if (
    plain.status !== 200 ||
    pagination.per_page !== PAGINATION.defaultPerPage ||
    items < 0 ||
    items > PAGINATION.defaultPerPage
  )
    return failed(
      `without per_page, expected per_page ${PAGINATION.defaultPerPage} and at most that many items: ${evidence("GET", base, plain)}`,
    );
  const most = `${base}?per_page=${PAGINATION.maxPerPage}`;
  const served = ctx.raw({ method: "GET", path: most });
  if (served.status !== 200) return failed(`expected 200: ${evidence("GET", most, served)}`);
  for (const query of [`per_page=${PAGINATION.maxPerPage + 1}`, "page=0"]) {
    const path = `${base}?${query}`;
    const answer = ctx.raw({ method: "GET", path });
    if (answer.status === 429) return notJudged(`rate limited: ${evidence("GET", path, answer)}`);
    const code = isErrorEnvelope(answer.json) ? answer.json.error.code : undefined;
    if (answer.status === 400 && code === ERROR_CODES.invalidParams) continue;
    const json = isRecord(answer.json) ? answer.json : {};
    const count = Array.isArray(json.data) ? json.data.length : Infinity;
    if (query.startsWith("per_page") && answer.status === 200 && count <= PAGINATION.maxPerPage) {
      reportFinding(
        "gaps-pagination-params",
        `${path} is served with at most ${PAGINATION.maxPerPage} items, not refused`,
      );
      continue;
    }
    return failed(`expected 400 ${ERROR_CODES.invalidParams}: ${evidence("GET", path, answer)}`);
  }
  return passed;
};

/** Spec 9: every href of every `links` is under the base URL's /v2/ (relative or absolute). */
export function versionPrefixProblem(body: unknown, baseUrl: string): Problem {
  const base = baseUrl.replace(/\/+$/, "");
  for (const [where, links] of valuesOf(body, (k) => k === "links")) {
    if (!Array.isArray(links)) continue;
    for (const l of links as unknown[]) {
      const href = isRecord(l) ? l.href : undefined;
      if (typeof href !== "string") continue;
      const path = href.startsWith(base) ? href.slice(base.length) : href;
      if (!path.startsWith("/v2/")) return `${where}: href ${JSON.stringify(href)} is not under ${base}/v2/`;
    }
  }
  return undefined;
}

const versionPrefix: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  return judgeAnswers(
    [
      ["/v2/products?per_page=2", () => ctx.client.listProducts({ per_page: 2 })],
      [`/v2/products/${type.productUuid}`, () => ctx.client.getProduct(type.productUuid)],
      [
        `/v2/product-types/${type.uuid}/price-lists/${ctx.probeDate}`,
        () => ctx.client.getPriceForDate(type.uuid, ctx.probeDate),
      ],
    ],
    (body) => versionPrefixProblem(body, ctx.config.baseUrl),
  );
};

export const CATALOGUE_MORE_JUDGES: Record<string, Judge> = {
  "gaps-formats-uuids": uuids,
  "gaps-formats-dates": dates,
  "gaps-formats-timeslots": timeslots,
  "gaps-error-404": notFound,
  "gaps-lists-envelope": listsEnvelope,
  "gaps-pagination-params": paginationParams,
  "9-version-prefix": versionPrefix,
};
