/**
 * More judges of the catalogue's rules (spec Parts 2, 4.1, 4.2 and 9; docs/contract-gaps.md, Formats, Lists and
 * pagination, Wire format and error codes): the formats of identifiers, dates and timeslots, 404 on every detail
 * path, the list envelope and its page parameters, and the /v2 prefix of links. Each sends one to five requests of
 * its own through the public API and never reads another rule's answer. Each rule is proven by a defect of the
 * reference service that breaks it alone (test/service/conformance-catalogue-more-defects.test.ts).
 */
import { ERROR_CODES, PAGINATION, addDays, isErrorEnvelope, isRecord, todayUtc } from "../../contract/index.ts";
// The real-time rule changes a slot days after the probe date, away from the days other judges book.
import { CONFORMANCE_DAYS_AFTER_PROBE } from "../../contract/scenario-days.ts";
import {
  bookableSlot,
  camelCaseProblem,
  datesProblem,
  paginationProblem,
  timeslotsMarkProblem,
  timeslotsProblem,
  uuidsProblem,
  versionPrefixProblem,
  voucherValidityProblem,
} from "../answer-rules.ts";
import { reportFinding } from "../checks.ts";
import type { ApiResponse } from "../client.ts";
import { HooksClient } from "../hooks-client.ts";
import { collectionPaginationProblem } from "../nested-shapes.ts";
import { withApprovedBooking } from "./booking-rules.ts";
import { realTimeThroughPublicApi } from "./real-time.ts";
import {
  answerEvidence,
  evidence,
  failed,
  notJudged,
  notJudgedByDesign,
  passed,
  type ConformanceContext,
  type FoundProductType,
  type Judge,
  type RawAnswer,
  type Verdict,
} from "./judge.ts";

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
  const detail = judgeAnswers(
    [[`/v2/product-types/${type.uuid}`, () => ctx.client.getProductType(type.uuid)]],
    detailProblem,
  );
  if (detail !== passed) return detail;
  // The vouchers answer of an approved booking: {data, links}, without the lists' pagination.
  const vouchers = withApprovedBooking(ctx, "a vouchers answer", (uuid) =>
    judgeAnswers([[`/v2/bookings/${uuid}/vouchers`, () => ctx.client.listVouchers(uuid)]], (body) =>
      collectionPaginationProblem(body),
    ),
  );
  return "notJudged" in vouchers
    ? notJudged(`the lists and details keep the rule, but no vouchers answer could be read: ${vouchers.notJudged}`)
    : vouchers;
};

const paginationParams: Judge = (ctx) => {
  const base = "/v2/products";
  const plain = ctx.raw({ method: "GET", path: base });
  if (plain.status === 429) return notJudged(`rate limited: ${evidence("GET", base, plain)}`);
  const body = isRecord(plain.json) ? plain.json : {};
  const pagination = isRecord(body.meta) && isRecord(body.meta.pagination) ? body.meta.pagination : {};
  const items = Array.isArray(body.data) ? body.data.length : -1;
  // The default page size is the service's own (the freedom lists-default-page-size): whole, at least 1, kept.
  const size = pagination.per_page;
  if (
    plain.status !== 200 ||
    typeof size !== "number" ||
    !Number.isInteger(size) ||
    size < 1 ||
    items < 0 ||
    items > size
  )
    return failed(
      `without per_page, expected a whole meta.pagination.per_page of at least 1 and at most that many items: ${evidence("GET", base, plain)}`,
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

/** Whether a raw answer is 400 invalid_params in the error envelope. */
function refusedAsInvalid(answer: RawAnswer): boolean {
  return answer.status === 400 && isErrorEnvelope(answer.json) && answer.json.error.code === ERROR_CODES.invalidParams;
}

const dateFormat: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const [y, m, d] = ctx.probeDate.split("-") as [string, string, string];
  const calendar = `/v2/product-types/${type.uuid}/price-lists`;
  const bad: [path: string, pathForm: boolean][] = [
    [`${calendar}?date_start=${d}-${m}-${y}&date_end=${ctx.probeDate}`, false],
    [`${calendar}?date_start=${y}-13-01&date_end=${ctx.probeDate}`, false],
    [`${calendar}/${y}-02-30`, true],
    [`${calendar}/${y}${m}${d}`, true],
  ];
  for (const [path, pathForm] of bad) {
    const answer = ctx.raw({ method: "GET", path });
    if (answer.status === 429) return notJudged(`rate limited: ${evidence("GET", path, answer)}`);
    if (refusedAsInvalid(answer)) continue;
    const code = isErrorEnvelope(answer.json) ? answer.json.error.code : undefined;
    if (pathForm && answer.status === 404 && code === ERROR_CODES.notFound) {
      reportFinding("4.2-date-format", `${path} answers 404 not_found, not 400 invalid_params`);
      continue;
    }
    return failed(`expected 400 ${ERROR_CODES.invalidParams}: ${evidence("GET", path, answer)}`);
  }
  const good = `${calendar}?date_start=${ctx.probeDate}&date_end=${ctx.probeDate}`;
  const served = ctx.raw({ method: "GET", path: good });
  if (served.status !== 200) return failed(`a YYYY-MM-DD range was not served: ${evidence("GET", good, served)}`);
  return passed;
};

/** Days of the one-entry-per-date range and the most pages read of it. */
const RANGE_DAYS = 14;
const MAX_PAGES = 3;

const oneEntryPerDate: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const end = addDays(ctx.probeDate, RANGE_DAYS - 1);
  const base = `/v2/product-types/${type.uuid}/price-lists?date_start=${ctx.probeDate}&date_end=${end}`;
  const seen: string[] = [];
  let pages = 1;
  let perPage = 0;
  for (let page = 1; page <= Math.min(pages, MAX_PAGES); page++) {
    const path = page === 1 ? base : `${base}&page=${page}&per_page=${perPage}`;
    const answer = ctx.raw({ method: "GET", path });
    if (answer.status === 429) return notJudged(`rate limited: ${evidence("GET", path, answer)}`);
    const body = isRecord(answer.json) ? answer.json : {};
    if (answer.status !== 200 || !Array.isArray(body.data))
      return failed(`the calendar did not come: ${evidence("GET", path, answer)}`);
    for (const e of body.data as unknown[]) seen.push(isRecord(e) ? String(e.date) : JSON.stringify(e));
    const pagination = isRecord(body.meta) && isRecord(body.meta.pagination) ? body.meta.pagination : {};
    if (page === 1 && typeof pagination.total_pages === "number") pages = pagination.total_pages;
    if (page === 1 && typeof pagination.per_page === "number") perPage = pagination.per_page;
  }
  if (pages > MAX_PAGES) return notJudged(`the calendar of ${RANGE_DAYS} days came in ${pages} pages`);
  const expected = Array.from({ length: RANGE_DAYS }, (_, i) => addDays(ctx.probeDate, i));
  const missing = expected.filter((day) => !seen.includes(day));
  const outside = seen.filter((day) => !expected.includes(day));
  const twice = seen.filter((day, i) => seen.indexOf(day) !== i);
  // Ascending: each date after the one before it (YYYY-MM-DD compares as text).
  const backwards = seen.findIndex((day, i) => i > 0 && day <= (seen[i - 1] as string));
  const parts = [
    missing.length ? `missing ${missing.join(", ")}` : "",
    outside.length ? `outside the range ${outside.join(", ")}` : "",
    twice.length ? `twice ${[...new Set(twice)].join(", ")}` : "",
    backwards > 0 ? `${seen[backwards] ?? ""} after ${seen[backwards - 1] ?? ""}, not in date order` : "",
  ].filter((p) => p !== "");
  return parts.length
    ? failed(`the calendar from ${ctx.probeDate} to ${end} has ${parts.join("; ")}: GET ${base}`)
    : passed;
};

const voucherValidityByAge: Judge = (ctx) => {
  // The type selling the most age groups, so that most entries are asked for.
  const types = [...ctx.productTypes].sort((a, b) => b.categories.length - a.categories.length).slice(0, 2);
  if (types.length === 0) return notJudged(NO_TYPE);
  for (const type of types) {
    const path = `/v2/product-types/${type.uuid}/price-lists/${ctx.probeDate}`;
    const res = ctx.client.getPriceForDate(type.uuid, ctx.probeDate);
    const bad = usable("GET", path, res);
    if (bad) return bad;
    const data = (res.body as Record<string, unknown>).data;
    if (!isRecord(data) || data.available !== true) continue;
    const detailPath = `/v2/product-types/${type.uuid}`;
    const detail = ctx.client.getProductType(type.uuid);
    const badDetail = usable("GET", detailPath, detail);
    if (badDetail) return badDetail;
    const typeData = (detail.body as Record<string, unknown>).data;
    const allows = isRecord(typeData) ? typeData : {};
    const groups = [
      "adults",
      ...(allows.allowChildren === true ? ["children"] : []),
      ...(allows.allowSeniors === true ? ["seniors"] : []),
    ];
    const problem = voucherValidityProblem(data.voucherValidity, groups);
    return problem ? failed(`${problem}: ${answerEvidence("GET", path, res)}`) : passed;
  }
  return notJudged(`no found type was available on ${ctx.probeDate}`);
};

/** The products setup walked, at most `n`. */
function walkedProducts(ctx: ConformanceContext, n: number): string[] {
  return [...new Set(ctx.productTypes.map((t) => t.productUuid))].slice(0, n);
}

const productHasTypes: Judge = (ctx) => {
  const products = walkedProducts(ctx, 3);
  if (products.length === 0) return notJudged(NO_TYPE);
  for (const product of products) {
    const path = `/v2/products/${product}/product-types`;
    const res = ctx.client.listProductTypes(product);
    const bad = usable("GET", path, res);
    if (bad) return bad;
    const body = res.body as Record<string, unknown>;
    const pagination = isRecord(body.meta) && isRecord(body.meta.pagination) ? body.meta.pagination : {};
    const items = Array.isArray(body.data) ? body.data.length : 0;
    if (typeof pagination.total !== "number" || pagination.total < 1 || items === 0)
      return failed(
        `the product has no product type (meta.pagination.total ${JSON.stringify(pagination.total ?? null)}, ${items} items): ${answerEvidence("GET", path, res)}`,
      );
  }
  return passed;
};

const typesOfProduct: Judge = (ctx) => {
  const product = walkedProducts(ctx, 1)[0];
  if (product === undefined) return notJudged(NO_TYPE);
  const path = `/v2/products/${product}/product-types`;
  const res = ctx.client.listProductTypes(product);
  const bad = usable("GET", path, res);
  if (bad) return bad;
  const body = res.body as Record<string, unknown>;
  const summaries = (Array.isArray(body.data) ? (body.data as unknown[]) : []).filter(isRecord).slice(0, 4);
  if (summaries.length === 0) return failed(`the list holds no product type: ${answerEvidence("GET", path, res)}`);
  for (const summary of summaries) {
    const uuid = String(summary.uuid);
    const detailPath = `/v2/product-types/${uuid}`;
    const detail = ctx.client.getProductType(uuid);
    if (detail.status === 429) return notJudged(`rate limited: ${answerEvidence("GET", detailPath, detail)}`);
    const data = isRecord(detail.body) && isRecord(detail.body.data) ? detail.body.data : undefined;
    if (detail.status !== 200 || data === undefined)
      return failed(`a listed product type is not readable: ${answerEvidence("GET", detailPath, detail)}`);
    if (data.uuid !== summary.uuid || data.title !== summary.title)
      return failed(
        `the list says ${JSON.stringify({ uuid: summary.uuid, title: summary.title })}, the detail ${JSON.stringify({ uuid: data.uuid, title: data.title })}: ${answerEvidence("GET", detailPath, detail)}`,
      );
  }
  return passed;
};

const restrictionsAnswer: Judge = (ctx) => {
  const product = walkedProducts(ctx, 1)[0];
  if (product === undefined) return notJudged(NO_TYPE);
  const path = `/v2/products/${product}/restrictions`;
  const res = ctx.client.getProductRestrictions(product);
  const bad = usable("GET", path, res);
  if (bad) return bad;
  const problem = detailProblem(res.body as Record<string, unknown>);
  if (problem) return failed(`${problem}: ${answerEvidence("GET", path, res)}`);
  const unknown = `/v2/products/${NO_SUCH_UUID}/restrictions`;
  const answer = ctx.raw({ method: "GET", path: unknown });
  // A 404 whose body is not the error envelope is the envelope rule's failure (gaps-error-envelope), not this one's.
  const code = isErrorEnvelope(answer.json) ? answer.json.error.code : ERROR_CODES.notFound;
  return answer.status === 404 && code === ERROR_CODES.notFound
    ? passed
    : failed(`expected 404 ${ERROR_CODES.notFound} for an unknown product: ${evidence("GET", unknown, answer)}`);
};

/** Spec 4.4: the config's entries, matched by name (their key names are not shown, 2.12). */
export function configItemsProblem(data: Record<string, unknown>): Problem {
  const keyOf = (part: string) => Object.keys(data).find((k) => k.toLowerCase().includes(part));
  for (const part of ["language", "currenc", "location"]) {
    const key = keyOf(part);
    if (key === undefined) return `data has no entry named like ${part}`;
    const value = data[key];
    if (!Array.isArray(value) || value.length === 0)
      return `data.${key} is ${JSON.stringify(value ?? null).slice(0, 60)}, not a non-empty array`;
  }
  const image = keyOf("image");
  if (image === undefined) return "data has no entry named like image (the base address of images)";
  const value = data[image];
  return typeof value === "string" && /^https?:\/\/\S+$/.test(value)
    ? undefined
    : `data.${image} is ${JSON.stringify(value ?? null)}, not a URL`;
}

const configItems: Judge = (ctx) => {
  const res = ctx.client.getConfig();
  const bad = usable("GET", "/v2/config", res);
  if (bad) return bad;
  const body = res.body as Record<string, unknown>;
  const problem = detailProblem(body) ?? configItemsProblem(body.data as Record<string, unknown>);
  return problem ? failed(`${problem}: ${answerEvidence("GET", "/v2/config", res)}`) : passed;
};

const keysCamelCase: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  return judgeAnswers(
    [
      ["/v2/products?per_page=2", () => ctx.client.listProducts({ per_page: 2 })],
      [`/v2/products/${type.productUuid}`, () => ctx.client.getProduct(type.productUuid)],
      [`/v2/products/${type.productUuid}/restrictions`, () => ctx.client.getProductRestrictions(type.productUuid)],
      ["/v2/config", () => ctx.client.getConfig()],
    ],
    (body) => camelCaseProblem(body.data),
  );
};

const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;

/** The query parameters an OPTIONS self-description names for its GET method (its shape is the service's own). */
function getParameters(json: unknown): string[] | undefined {
  const data = isRecord(json) ? json.data : undefined;
  const methods = isRecord(data) && Array.isArray(data.methods) ? (data.methods as unknown[]).filter(isRecord) : [];
  const get = methods.find((m) => m.method === "GET");
  if (get === undefined || !Array.isArray(get.parameters)) return undefined;
  return (get.parameters as unknown[]).map((p) => (isRecord(p) ? String(p.name) : String(p)));
}

const querySnakeCase: Judge = (ctx) => {
  // Part 4's names as written filter the bookings (none of this run's made-up values matches): refused would be 400.
  const query =
    "first_name=Atdnobody&last_name=Atdnobody&partner_reference=atd-no-such-reference&date_start=2030-01-01&date_end=2030-01-02&per_page=1";
  const filtered = `/v2/bookings?${query}`;
  const answer = ctx.raw({ method: "GET", path: filtered });
  if (answer.status === 429) return notJudged(`rate limited: ${evidence("GET", filtered, answer)}`);
  const body = isRecord(answer.json) ? answer.json : {};
  if (answer.status !== 200 || !Array.isArray(body.data))
    return failed(`the Part 4 parameters were not accepted: ${evidence("GET", filtered, answer)}`);
  if (body.data.length !== 0)
    return failed(
      `the Part 4 parameters did not filter (a booking matched made-up values): ${evidence("GET", filtered, answer)}`,
    );
  for (const path of ["/v2/products", "/v2/bookings"]) {
    const described = ctx.raw({ method: "OPTIONS", path });
    if (described.status === 429) return notJudged(`rate limited: ${evidence("OPTIONS", path, described)}`);
    const names = getParameters(described.json);
    // The self-description's shape is the service's own (contract-gaps.md OPTIONS): another shape names nothing here.
    if (described.status !== 200 || names === undefined)
      return notJudgedByDesign(
        `the Part 4 names are accepted as written, but the self-description names no GET parameters in the form the harness reads (data.methods[].parameters; its shape is the service's own): ${evidence("OPTIONS", path, described)}`,
      );
    const bad = names.filter((n) => !SNAKE_CASE.test(n));
    if (bad.length)
      return failed(`parameters ${bad.join(", ")} are not snake_case: ${evidence("OPTIONS", path, described)}`);
  }
  return passed;
};

/** A day of the required inventory hook's answer: remaining per timeslot (or the day's), to put back. */
interface DaySeats {
  remaining: number;
  timeslots: { timeslot: string; remaining: number }[];
}

function daySeats(data: unknown): DaySeats | undefined {
  const days = isRecord(data) && Array.isArray(data.days) ? (data.days as unknown[]) : [];
  const day = days[0];
  if (!isRecord(day) || typeof day.remaining !== "number") return undefined;
  const slots = Array.isArray(day.timeslots) ? (day.timeslots as unknown[]).filter(isRecord) : [];
  return {
    remaining: day.remaining,
    timeslots: slots.map((t) => ({ timeslot: String(t.timeslot), remaining: Number(t.remaining) })),
  };
}

const realTime: Judge = (ctx) => {
  const control = ctx.config.control;
  const date = addDays(ctx.probeDate, CONFORMANCE_DAYS_AFTER_PROBE.realTime);
  // Without the hooks the run's key changes the inventory itself, one way only (real-time.ts).
  if (control === undefined) return realTimeThroughPublicApi(ctx, date);
  const hooks = new HooksClient(control);
  for (const type of ctx.productTypes.slice(0, 3)) {
    const path = `/v2/product-types/${type.uuid}/price-lists/${date}`;
    const before = ctx.client.getPriceForDate(type.uuid, date);
    if (before.status !== 200 || !isRecord(before.body) || !isRecord(before.body.data)) continue;
    if (before.body.data.available !== true) continue;
    const params = { productTypeUuid: type.uuid, date };
    const seats = daySeats(
      hooks.call("inventory", { params: { productTypeUuid: type.uuid }, query: { date_start: date, date_end: date } }),
    );
    if (seats === undefined) return notJudged(`the inventory hook gave no seats for ${type.uuid} on ${date}`);
    const read = () => ctx.client.getPriceForDate(type.uuid, date);
    // Whether anything can be booked: available, and for a timeslotted type a timeslot with seats (the seats are
    // what changed; how `available` follows the timeslots is 2.6-timeslots-mark-availability's rule).
    const availableOf = (res: ApiResponse<unknown>) => {
      const data = isRecord(res.body) && isRecord(res.body.data) ? res.body.data : undefined;
      if (data === undefined) return undefined;
      if (data.available !== true || !type.timeslotted) return data.available;
      return Array.isArray(data.timeslots) && (data.timeslots as unknown[]).some(bookableSlot);
    };
    let problem: Problem;
    try {
      hooks.call("inventorySet", { params, body: { remaining: 0 } });
      const none = read();
      if (availableOf(none) !== false)
        problem = `the inventory was set to none, the next read still says available: ${answerEvidence("GET", path, none)}`;
    } finally {
      // Put back what was there: every timeslot's seats, or the day's.
      if (seats.timeslots.length > 0)
        for (const slot of seats.timeslots)
          hooks.call("inventorySet", { params, body: { timeslot: slot.timeslot, remaining: slot.remaining } });
      else hooks.call("inventorySet", { params, body: { remaining: seats.remaining } });
    }
    if (problem) return failed(problem);
    const again = read();
    return availableOf(again) === true
      ? passed
      : failed(
          `the inventory was put back, the next read does not say available: ${answerEvidence("GET", path, again)}`,
        );
  }
  return notJudged(`none of the found types was available on ${date}`);
};

const gone: Judge = (ctx) => {
  const control = ctx.config.control;
  if (control === undefined) return notJudgedByDesign("needs the test hooks, and this run has none (public API only)");
  // The last found type: the judges that book start from the first ones.
  const type = ctx.productTypes[ctx.productTypes.length - 1];
  if (type === undefined) return notJudged(NO_TYPE);
  const hooks = new HooksClient(control);
  const paths = [
    `/v2/product-types/${type.uuid}`,
    `/v2/product-types/${type.uuid}/price-lists?date_start=${ctx.probeDate}&date_end=${ctx.probeDate}`,
    `/v2/product-types/${type.uuid}/price-lists/${ctx.probeDate}`,
  ];
  let problem: Problem;
  hooks.call("productTypeChange", { params: { uuid: type.uuid }, body: { available: false } });
  try {
    for (const path of paths) {
      const answer = ctx.raw({ method: "GET", path });
      const code = isErrorEnvelope(answer.json) ? answer.json.error : undefined;
      if (answer.status !== 410 || code?.code !== ERROR_CODES.gone || code.http_code !== 410) {
        problem = `a withdrawn product type: expected 410 ${ERROR_CODES.gone} in the error envelope: ${evidence("GET", path, answer)}`;
        break;
      }
    }
  } finally {
    hooks.call("productTypeChange", { params: { uuid: type.uuid }, body: { available: true } });
  }
  return problem ? failed(problem) : passed;
};

/** Days of the calendar read, from today, to find a date a timeslotted type cannot be booked on. */
const SOLD_OUT_SCAN_DAYS = 28;

const timeslotsMarkAvailability: Judge = (ctx) => {
  const types = ctx.productTypes.filter((t) => t.timeslotted).slice(0, 3);
  if (types.length === 0) return notJudged("setup found no timeslotted product type");
  const single = (type: FoundProductType, date: string): Verdict => {
    const path = `/v2/product-types/${type.uuid}/price-lists/${date}`;
    const res = ctx.client.getPriceForDate(type.uuid, date);
    const bad = usable("GET", path, res);
    if (bad) return bad;
    const data = (res.body as Record<string, unknown>).data;
    const problem = isRecord(data) ? timeslotsMarkProblem(data) : "data is not an object";
    return problem ? failed(`${problem}: ${answerEvidence("GET", path, res)}`) : passed;
  };
  // Both ways: the probe date, and a date the calendar shows not available (sold out), read as a single date.
  const first = single(types[0] as FoundProductType, ctx.probeDate);
  if (first !== passed) return first;
  // From today: the days inside a type's lead time cannot be booked either.
  const start = todayUtc();
  const end = addDays(start, SOLD_OUT_SCAN_DAYS - 1);
  for (const type of types) {
    const res = ctx.client.getPriceList(type.uuid, start, end);
    const entries = isRecord(res.body) && Array.isArray(res.body.data) ? (res.body.data as unknown[]) : [];
    const soldOut = entries.find((e) => isRecord(e) && e.available === false);
    if (isRecord(soldOut) && typeof soldOut.date === "string") return single(type, soldOut.date);
  }
  return notJudged(
    `only one way: no found timeslotted type was unavailable on a date from ${start} to ${end}, and the probe date kept the rule`,
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
  "4.2-date-format": dateFormat,
  "2.5-one-entry-per-date": oneEntryPerDate,
  "2.6-voucher-validity-by-age": voucherValidityByAge,
  "1-product-has-types": productHasTypes,
  "4.1-product-types-of-product": typesOfProduct,
  "4.1-restrictions-answer": restrictionsAnswer,
  "4.4-config-items": configItems,
  "2-keys-camel-case": keysCamelCase,
  "2-query-snake-case": querySnakeCase,
  "2.6-real-time": realTime,
  "gaps-error-410-gone": gone,
  "2.6-timeslots-mark-availability": timeslotsMarkAvailability,
};
