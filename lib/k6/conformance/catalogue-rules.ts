/**
 * The judges of the catalogue's rules (spec Parts 1, 2, 4.0 and 4.2; docs/contract-gaps.md, Formats, OPTIONS):
 * OPTIONS, the product detail's keys, money and timestamps, the price calendar's entries, the single-date result's
 * caching, `fields`, an unknown `language` (the content's language: language-rules.ts), and the calendar's range. Each sends one to three requests of its own. The checks
 * of one answer that read only a header or its keys (weekdayProblem, moneyProblem, timestampProblem,
 * entryAvailabilityProblem) are exported, cheap enough for every answer under load; caching and weekdays are judged
 * by the very tests the shared checks apply under load (checks.ts). Links: links-rules.ts.
 */
import {
  ENDPOINTS,
  PRICE_CALENDAR_MAX_MONTHS,
  PRODUCT_DETAIL_FORBIDDEN_KEYS,
  PRODUCT_DETAIL_KEYS,
  addDays,
  diffKeys,
  isRecord,
  utcMs,
} from "../../contract/index.ts";
import {
  entryAvailabilityProblem,
  moneyProblem,
  noCacheProblem,
  timestampProblem,
  weekdayProblem,
} from "../answer-rules.ts";
import type { ApiResponse } from "../client.ts";
import {
  answerEvidence,
  evidence,
  failed,
  firstType,
  notJudged,
  passed,
  unusable,
  type ConformanceContext,
  type FoundProductType,
  type Judge,
  type RawAnswer,
  type Verdict,
} from "./judge.ts";

/** A language no service supports (ISO 639-1 leaves "zz" unassigned) and a key no resource has. */
const UNKNOWN_LANGUAGE = "zz";
const UNKNOWN_FIELD = "atdNoSuchKey";

/** The type the availability rule has most to judge on: timeslotted with the most timeslots, else any. */
function richestType(ctx: ConformanceContext): FoundProductType | undefined {
  let best: FoundProductType | undefined;
  for (const t of ctx.productTypes) if (best === undefined || t.timeslots.length > best.timeslots.length) best = t;
  return best;
}

const NO_TYPE = "setup found no product type to ask about";

/** The methods the contract gives a path template (ENDPOINTS). */
function methodsOf(template: string): string[] {
  return Object.values(ENDPOINTS)
    .filter((e) => e.path === template)
    .map((e) => e.method);
}

/** Every key of a JSON value, however deep (the self-description's shape is the service's own). */
function keysIn(value: unknown, into: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > 6) return into;
  if (Array.isArray(value)) for (const v of value as unknown[]) keysIn(v, into, depth + 1);
  else if (isRecord(value))
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysIn(v, into, depth + 1);
    }
  return into;
}

/** What is wrong with one OPTIONS answer (docs/contract-gaps.md, OPTIONS), or undefined. */
export function optionsProblem(answer: RawAnswer, methods: readonly string[]): string | undefined {
  if (answer.status !== 200) return `status ${answer.status}, expected 200`;
  const allow = answer.header("Allow");
  if (allow === undefined) return "no Allow header";
  const allowed = allow.split(",").map((m) => m.trim().toUpperCase());
  const notAllowed = methods.filter((m) => !allowed.includes(m));
  if (notAllowed.length) return `Allow "${allow}" lacks ${notAllowed.join(", ")}`;
  if (!isRecord(answer.json)) return "the body is not a JSON object";
  const keys = keysIn(answer.json);
  const lacking = ["parameters", "keys"].filter((k) => !keys.has(k));
  if (lacking.length) return `the body describes no ${lacking.join(" and no ")}`;
  const unnamed = methods.filter((m) => !answer.text.includes(`"${m}"`));
  return unnamed.length ? `the body names no ${unnamed.join(", ")} method` : undefined;
}

const options: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  // A detail, a path with two parameters, and a path with two methods: three of the fifteen, a request each.
  const probes: [path: string, template: string][] = [
    [`/v2/products/${type.productUuid}`, ENDPOINTS.product.path],
    [`/v2/product-types/${type.uuid}/price-lists/${ctx.probeDate}`, ENDPOINTS.priceListDate.path],
    [ENDPOINTS.bookings.path, ENDPOINTS.bookings.path],
  ];
  for (const [path, template] of probes) {
    const answer = ctx.raw({ method: "OPTIONS", path });
    const problem = optionsProblem(answer, methodsOf(template));
    if (problem) return failed(`${problem}: ${evidence("OPTIONS", path, answer)}`);
  }
  return passed;
};

const productDetailKeys: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const path = `/v2/products/${type.productUuid}`;
  const res = ctx.client.getProduct(type.productUuid);
  const bad = unusable("GET", path, res);
  if (bad) return bad;
  const data = (res.body as Record<string, unknown>).data;
  if (!isRecord(data)) return failed(`data is not an object: ${answerEvidence("GET", path, res)}`);
  const { missing, unexpected } = diffKeys(data, PRODUCT_DETAIL_KEYS);
  const forbidden = unexpected.filter((k) => (PRODUCT_DETAIL_FORBIDDEN_KEYS as readonly string[]).includes(k));
  const parts: string[] = [];
  if (forbidden.length) parts.push(`forbidden ${forbidden.join(", ")}`);
  if (missing.length) parts.push(`missing ${missing.join(", ")}`);
  const others = unexpected.filter((k) => !forbidden.includes(k));
  if (others.length) parts.push(`unexpected ${others.join(", ")}`);
  return parts.length
    ? failed(`the product detail has ${parts.join("; ")}: ${answerEvidence("GET", path, res)}`)
    : passed;
};

/** The codes GET /v2/config lists under `name`: strings, or objects with a `code` (its structure is not shown, 2.12). */
function configCodes(body: unknown, name: "languages" | "currencies"): string[] {
  const data = isRecord(body) && isRecord(body.data) ? body.data : {};
  const list: unknown[] = Array.isArray(data[name]) ? (data[name] as unknown[]) : [];
  return list
    .map((l) => (typeof l === "string" ? l : isRecord(l) && typeof l.code === "string" ? l.code : ""))
    .filter((l) => l !== "");
}

const money: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const pricePath = `/v2/product-types/${type.uuid}/price-lists/${ctx.probeDate}`;
  const single = ctx.client.getPriceForDate(type.uuid, ctx.probeDate);
  const badSingle = unusable("GET", pricePath, single);
  if (badSingle) return badSingle;
  const singleData = (single.body as Record<string, unknown>).data;
  const priceProblem = isRecord(singleData) ? moneyProblem(singleData, "prices") : "data is not an object";
  if (priceProblem)
    return failed(`the single-date result's ${priceProblem}: ${answerEvidence("GET", pricePath, single)}`);
  const productPath = `/v2/products/${type.productUuid}`;
  const product = ctx.client.getProduct(type.productUuid);
  const badProduct = unusable("GET", productPath, product);
  if (badProduct) return badProduct;
  const productData = (product.body as Record<string, unknown>).data;
  const baseProblem = isRecord(productData) ? moneyProblem(productData, "basePrice") : "data is not an object";
  if (baseProblem) return failed(`the product detail's ${baseProblem}: ${answerEvidence("GET", productPath, product)}`);
  // The currencies must be ones the config lists, when it lists any (its structure is not shown, 2.12).
  const config = ctx.client.getConfig();
  const currencies = configCodes(config.body, "currencies");
  const unlisted = [singleData, productData]
    .map((data) => (isRecord(data) ? String(data.currency) : ""))
    .filter((currency) => currencies.length > 0 && !currencies.includes(currency));
  return unlisted.length
    ? failed(
        `currency ${[...new Set(unlisted)].join(", ")} is not one GET /v2/config lists: ${answerEvidence("GET", "/v2/config", config)}`,
      )
    : passed;
};

const timestamps: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const path = `/v2/products/${type.productUuid}`;
  const res = ctx.client.getProduct(type.productUuid);
  const bad = unusable("GET", path, res);
  if (bad) return bad;
  const data = (res.body as Record<string, unknown>).data;
  const problem = timestampProblem("updatedAt", isRecord(data) ? data.updatedAt : undefined);
  if (problem) return failed(`the product detail's ${problem}: ${answerEvidence("GET", path, res)}`);
  // The error envelope's timestamp: a request without a key, which spends no allowance.
  const refused = ctx.raw({ method: "GET", path: ENDPOINTS.config.path, key: null });
  const errorProblem = timestampProblem(
    `the ${refused.status} answer's timestamp`,
    isRecord(refused.json) ? refused.json.timestamp : undefined,
  );
  return errorProblem ? failed(`${errorProblem}: ${evidence("GET", ENDPOINTS.config.path, refused)}`) : passed;
};

/** The calendar of `days` days from the probe date. */
function calendar(
  ctx: ConformanceContext,
  type: FoundProductType,
  days: number,
): { path: string; res: ApiResponse<Record<string, unknown>[]>; entries: Record<string, unknown>[] | undefined } {
  const end = addDays(ctx.probeDate, days - 1);
  const path = `/v2/product-types/${type.uuid}/price-lists?date_start=${ctx.probeDate}&date_end=${end}`;
  const res = ctx.client.getPriceList(type.uuid, ctx.probeDate, end);
  const data = isRecord(res.body) ? res.body.data : undefined;
  return { path, res, entries: Array.isArray(data) ? (data as unknown[]).filter(isRecord) : undefined };
}

/** The single-date result of the probe date, or the verdict when it did not come. */
function singleDate(
  ctx: ConformanceContext,
  type: FoundProductType,
): { path: string; res: ApiResponse<unknown>; entry: Record<string, unknown> } | Verdict {
  const path = `/v2/product-types/${type.uuid}/price-lists/${ctx.probeDate}`;
  const res = ctx.client.getPriceForDate(type.uuid, ctx.probeDate);
  const bad = unusable("GET", path, res);
  if (bad) return bad;
  const data = (res.body as Record<string, unknown>).data;
  return isRecord(data)
    ? { path, res, entry: data }
    : failed(`data is not an object: ${answerEvidence("GET", path, res)}`);
}

/** A week of the calendar (every weekday once) and the single-date result, each entry held to `problemOf`. */
function judgeEntries(
  ctx: ConformanceContext,
  type: FoundProductType,
  days: number,
  problemOf: (entry: Record<string, unknown>) => string | undefined,
): Verdict {
  const { path, res, entries } = calendar(ctx, type, days);
  if (res.status !== 200 || entries === undefined || entries.length === 0)
    return notJudged(`the calendar the rule is judged on did not come: ${answerEvidence("GET", path, res)}`);
  for (const entry of entries) {
    const problem = problemOf(entry);
    if (problem) return failed(`${problem}: ${answerEvidence("GET", path, res)}`);
  }
  const single = singleDate(ctx, type);
  if (!("entry" in single)) return single;
  const problem = problemOf(single.entry);
  return problem
    ? failed(`the single-date result: ${problem}: ${answerEvidence("GET", single.path, single.res)}`)
    : passed;
}

const weekdayMatchesDate: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  return judgeEntries(ctx, type, 7, weekdayProblem);
};

const availableConsistent: Judge = (ctx) => {
  const type = richestType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  return judgeEntries(ctx, type, 14, (entry) => entryAvailabilityProblem(entry, type.timeslotted));
};

const noCache: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const path = `/v2/product-types/${type.uuid}/price-lists/${ctx.probeDate}`;
  const res = ctx.client.getPriceForDate(type.uuid, ctx.probeDate);
  if (res.status !== 200) return notJudged(`the single-date result did not come: ${answerEvidence("GET", path, res)}`);
  // The check the shared checks apply to every sampled single-date answer under load: one test, one verdict.
  const problem = noCacheProblem(res);
  return problem ? failed(`${problem}: ${answerEvidence("GET", path, res)}`) : passed;
};

/** Keys a detail keeps whatever `fields` says (docs/service.md: uuid and links always stay). */
const ALWAYS_KEPT = ["uuid", "links"];

const fieldsHonoured: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const asks: [path: string, send: () => ApiResponse<unknown>][] = [
    [
      `/v2/products/${type.productUuid}?fields=title`,
      () => ctx.client.getProduct(type.productUuid, { fields: "title" }),
    ],
    [`/v2/product-types/${type.uuid}?fields=title`, () => ctx.client.getProductType(type.uuid, { fields: "title" })],
  ];
  for (const [path, send] of asks) {
    const res = send();
    const bad = unusable("GET", path, res);
    if (bad) return bad;
    const data = (res.body as Record<string, unknown>).data;
    if (!isRecord(data)) return failed(`data is not an object: ${answerEvidence("GET", path, res)}`);
    const extra = Object.keys(data).filter((k) => k !== "title" && !ALWAYS_KEPT.includes(k));
    if (extra.length)
      return failed(
        `fields=title, but the detail has ${extra.length} more keys (${extra.slice(0, 5).join(", ")}…): ${answerEvidence("GET", path, res)}`,
      );
    if (!("title" in data))
      return failed(`fields=title, but the detail has no title: ${answerEvidence("GET", path, res)}`);
  }
  return passed;
};

const unknownValuesRefused: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const asks: [path: string, send: () => ApiResponse<unknown>][] = [
    [
      `/v2/products/${type.productUuid}?language=${UNKNOWN_LANGUAGE}`,
      () => ctx.client.getProduct(type.productUuid, { language: UNKNOWN_LANGUAGE }),
    ],
    [
      `/v2/products/${type.productUuid}?fields=${UNKNOWN_FIELD}`,
      () => ctx.client.getProduct(type.productUuid, { fields: UNKNOWN_FIELD }),
    ],
  ];
  for (const [path, send] of asks) {
    const res = send();
    if (res.status === 429) return notJudged(`rate limited: ${answerEvidence("GET", path, res)}`);
    if (res.status !== 400) return failed(`expected 400: ${answerEvidence("GET", path, res)}`);
  }
  return passed;
};

const dateRangeRequired: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const base = `/v2/product-types/${type.uuid}/price-lists`;
  for (const path of [`${base}?date_start=${ctx.probeDate}`, `${base}?date_end=${ctx.probeDate}`, base]) {
    const answer = ctx.raw({ method: "GET", path });
    if (answer.status === 429) return notJudged(`rate limited: ${evidence("GET", path, answer)}`);
    if (answer.status !== 400) return failed(`expected 400: ${evidence("GET", path, answer)}`);
  }
  return passed;
};

/** The day `months` calendar months after a YYYY-MM-DD day, clamped to the end of a shorter month. */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const last = new Date(utcMs(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(utcMs(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
}

const sixMonths: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const start = ctx.probeDate;
  const sixLater = addMonths(start, PRICE_CALENDAR_MAX_MONTHS);
  // Exactly six calendar months is served; one day more (the shortest range over), or an end before the start, not.
  const asks: [end: string, status: number][] = [
    [sixLater, 200],
    [addDays(sixLater, 1), 400],
    [addDays(start, -1), 400],
  ];
  for (const [end, status] of asks) {
    const path = `/v2/product-types/${type.uuid}/price-lists?date_start=${start}&date_end=${end}`;
    const res = ctx.client.getPriceList(type.uuid, start, end);
    if (res.status === 429) return notJudged(`rate limited: ${answerEvidence("GET", path, res)}`);
    if (res.status !== status) return failed(`expected ${status}: ${answerEvidence("GET", path, res)}`);
  }
  return passed;
};

export const CATALOGUE_JUDGES: Record<string, Judge> = {
  "1-options": options,
  "2.2-product-detail-keys": productDetailKeys,
  "gaps-formats-money": money,
  "gaps-formats-timestamps": timestamps,
  "2.5-weekday-matches-date": weekdayMatchesDate,
  "2.5-available-consistent": availableConsistent,
  "2.6-no-cache": noCache,
  "4.0-fields-honoured": fieldsHonoured,
  "4.0-unknown-values-refused": unknownValuesRefused,
  "4.2-date-range-required": dateRangeRequired,
  "4.2-six-months": sixMonths,
};
