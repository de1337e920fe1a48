/**
 * Checks shared by every scenario. Each check has a stable name (k6 aggregates by name) and, when it fails, says
 * what was wrong: the problem is logged once per distinct problem per VU with a marker the harness's verdict reads,
 * so the iteration loop never floods the log.
 */
import { check, type Checkers } from "k6";
import {
  CHECK_FAILURE_MARKER,
  CHECK_OBSERVED_MARKER,
  FINDING_MARKER,
  ENDPOINTS,
  HEADERS,
  RATE_LIMIT,
  RESPONSE_SHAPES,
  diffKeys,
  type EndpointName,
  isLinkArray,
  isRecord,
  type KeySet,
  type ResponseShape,
} from "../contract/index.ts";
import { noCacheProblem, weekdayMatches, weekdayOf } from "./answer-rules.ts";
import { CHEAP_RULES, error500Problem, keySetCheckName, successRulesOf, type SuccessRule } from "./cheap-rules.ts";
import type { ApiResponse } from "./client.ts";
import { withdrawnAnswer } from "./withdrawn.ts";

const MAX_REPORTED_PER_VU = 100;
const reported = new Set<string>();

function report(name: string, problem: string): void {
  const key = `${name}\u0000${problem}`;
  if (reported.has(key) || reported.size >= MAX_REPORTED_PER_VU) return;
  reported.add(key);
  console.warn(`${CHECK_FAILURE_MARKER}${JSON.stringify({ check: name, problem })}`);
}

const observedChecks = new Set<string>();

/**
 * Records one check: `problem` undefined means it passed. Returns whether it passed. `observed` (what the check
 * saw, for the verdict) is logged once per check per VU: pass it from checks that run a handful of times, not from
 * the load loop.
 */
export function expectThat(name: string, problem: string | undefined, observed?: string): boolean {
  const ok = problem === undefined;
  check(null, { [name]: () => ok });
  if (!ok) report(name, problem);
  if (observed !== undefined && !observedChecks.has(name)) {
    observedChecks.add(name);
    console.warn(`${CHECK_OBSERVED_MARKER}${JSON.stringify({ check: name, observed })}`);
  }
  return ok;
}

/** Reports a finding: behaviour the spec leaves open, shown in the verdict without failing the run. */
export function reportFinding(rule: string, finding: string): void {
  console.warn(`${FINDING_MARKER}${JSON.stringify({ rule, finding })}`);
}

function describeKeyDiff(where: string, value: object, shape: ResponseShape): string | undefined {
  if (!shape.keys) return undefined;
  const { missing, unexpected } = diffKeys(value, shape.keys);
  const forbidden: KeySet = shape.forbidden ?? [];
  const banned = Object.keys(value).filter((k) => forbidden.includes(k));
  // A forbidden key is named once, as forbidden, though an exact set would not expect it either.
  const extra = unexpected.filter((k) => !forbidden.includes(k));
  const parts: string[] = [];
  if (missing.length) parts.push(`missing ${missing.join(", ")}`);
  if (shape.exact && extra.length) parts.push(`unexpected ${extra.join(", ")}`);
  if (banned.length) parts.push(`forbidden ${banned.join(", ")}`);
  if (!isLinkArray((value as Record<string, unknown>).links) && shape.keys.includes("links"))
    parts.push("links is not an array of links");
  return parts.length ? `${where}: ${parts.join("; ")}` : undefined;
}

/**
 * What a key-set check needs of a shape, worked out once: the expected and forbidden keys as lookup objects, so one
 * Object.keys per item and a property read per key decide a match (diffKeys builds two Sets and two filtered arrays
 * per item, several times the cost in k6's script runtime; it still describes a mismatch once one is found).
 */
interface KeyRule {
  /** A shape that both expects and forbids a key has no fast test: every item takes diffKeys' path. */
  conflict: boolean;
  expected: Record<string, true>;
  count: number;
  exact: boolean;
  forbidden: Record<string, true>;
  links: boolean;
}

const keyRules: Partial<Record<EndpointName, KeyRule>> = {};

function lookupOf(keys: KeySet): Record<string, true> {
  const lookup: Record<string, true> = Object.create(null) as Record<string, true>;
  for (const key of keys) lookup[key] = true;
  return lookup;
}

function keyRuleOf(endpoint: EndpointName, shape: ResponseShape): KeyRule {
  let rule = keyRules[endpoint];
  if (!rule) {
    const keys = shape.keys ?? [];
    const expected = lookupOf(keys);
    const forbidden = shape.forbidden ?? [];
    rule = {
      conflict: forbidden.some((key) => expected[key] === true),
      expected,
      count: Object.keys(expected).length,
      exact: shape.exact,
      forbidden: lookupOf(forbidden),
      links: keys.includes("links"),
    };
    keyRules[endpoint] = rule;
  }
  return rule;
}

function isLinkList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const link: unknown = value[i];
    if (!isRecord(link) || typeof link.rel !== "string" || typeof link.href !== "string") return false;
  }
  return true;
}

/**
 * Whether a value has the shape's keys (all of them, and no others when the set is exact), no forbidden key, and
 * links as a list of links: the fast test of every item. Its own keys are unique, so counting the expected ones
 * among them is enough.
 */
function keysMatch(value: object, rule: KeyRule): boolean {
  if (rule.conflict) return false;
  const own = Object.keys(value);
  if (rule.exact ? own.length !== rule.count : own.length < rule.count) return false;
  let found = 0;
  for (let i = 0; i < own.length; i++) {
    const key = own[i] as string;
    if (rule.expected[key] === true) found++;
    else if (rule.exact || rule.forbidden[key] === true) return false;
  }
  return found === rule.count && (!rule.links || isLinkList((value as Record<string, unknown>).links));
}

/** The key-set problem of an answer whose envelope held: every item of a list, or the detail's data. */
export function keysProblem(res: ApiResponse<unknown>, shape: ResponseShape): string | undefined {
  const rule = keyRuleOf(res.endpoint, shape);
  const data = res.data;
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const item = data[i] as object;
      if (!keysMatch(item, rule)) return describeKeyDiff(`item ${i}`, item, shape) ?? `item ${i}: keys differ`;
    }
    return undefined;
  }
  if (keysMatch(data as object, rule)) return undefined;
  return describeKeyDiff("data", data as object, shape) ?? "data: keys differ";
}

export function envelopeProblem(res: ApiResponse<unknown>, shape: ResponseShape): string | undefined {
  return res.data !== undefined && isRecord(res.body) && isLinkArray(res.body.links)
    ? undefined
    : `body is not a ${shape.envelope} envelope: ${JSON.stringify(res.body ?? null).slice(0, 120)}`;
}

/** What is wrong with a status that is not the expected one. */
function statusProblem(res: ApiResponse<unknown>, expected: number | readonly number[]): string {
  const want = typeof expected === "number" ? String(expected) : expected.join(" or ");
  if (res.status === 0) return `no response (connection failed or timed out), expected ${want}`;
  // The service's own words say which rule refused the request (e.g. which 422 of a booking), so they go along.
  const error = res.error ? ` (${[res.error.code, res.error.message].filter(Boolean).join(": ").slice(0, 160)})` : "";
  return `status ${res.status}${error}, expected ${want}`;
}

const WHOLE_NUMBER = /^\s*\d+\s*$/;

function wholeNumber(raw: string | undefined): number | undefined {
  return raw !== undefined && WHOLE_NUMBER.test(raw) ? Number(raw) : undefined;
}

/**
 * The values of the rate-limit headers, judged per API key across one VU's answers: one check per rule for all six
 * endpoints, since each rule is about a key's one shared allowance, not about an endpoint.
 */
export const RATE_LIMIT_VALUE_CHECKS = {
  limitConstant: "rate-limit: X-RateLimit-Limit constant per key",
  belowLimit: "rate-limit: X-RateLimit-Remaining below the limit on a 200",
  neverRises: "rate-limit: X-RateLimit-Remaining never rises within a window",
} as const;

/** What this VU last saw of one key's allowance. */
interface KeyView {
  /** The key's last 4 characters: enough to tell keys apart in a problem, never the whole key. */
  readonly fingerprint: string;
  endpoint: EndpointName;
  limit: number;
  remaining: number;
  /** X-RateLimit-Reset as sent, parsed only when Remaining rises. */
  reset: string | undefined;
  /** When the request of that answer was sent (this machine's clock, ms); 0 when unknown. */
  sentAt: number;
}

const keyViews: Record<string, KeyView | undefined> = Object.create(null) as Record<string, KeyView | undefined>;

/**
 * A rise is explained by the end of the earlier answer's window up to this many seconds before its X-RateLimit-Reset:
 * Reset is rounded up to whole seconds, and a Date header may lag the server's clock by a second (Node caches it).
 */
const WINDOW_END_SLACK_SECONDS = 3;

let refillWindowMs: number | undefined;

/**
 * The window over which the allowance refills: --rate-window (ATD_RATE_WINDOW_SECONDS) when the deployment's is
 * known, else the spec's minute (Part 8: 400 requests per minute). Read once per VU.
 */
function windowMs(): number {
  if (refillWindowMs === undefined) {
    const raw = typeof __ENV === "undefined" ? undefined : __ENV.ATD_RATE_WINDOW_SECONDS;
    const seconds = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
    refillWindowMs = (Number.isFinite(seconds) && seconds > 0 ? seconds : RATE_LIMIT.windowSeconds) * 1000;
  }
  return refillWindowMs;
}

/**
 * Value problems carry the values seen, so nearly every one is new: a few per check and VU say enough, and leave the
 * VU's report budget (MAX_REPORTED_PER_VU) to the other checks.
 */
const VALUE_PROBLEMS_PER_CHECK = 10;
const valueProblems: Record<string, number> = {};

function reportValue(name: string, problem: string): void {
  const count = valueProblems[name] ?? 0;
  if (count >= VALUE_PROBLEMS_PER_CHECK) return;
  valueProblems[name] = count + 1;
  report(name, problem);
}

/** A rise that the headers cannot place in or out of a window (no Reset, no Date): neither a pass nor a failure. */
const NOT_JUDGED = null;

/**
 * Whether Remaining rising from the key's previous answer to this one is explained, black-box, by how every
 * algorithm the spec allows (and the reference service offers) refills an allowance. Cheapest test first:
 * - a token bucket (or a sliding counter) refills at most `limit` per window: no more than that in the time between
 *   sending the earlier request and reading this answer, plus one for rounding down;
 * - a fixed window starts anew: X-RateLimit-Reset moved forward;
 * - a sliding window (a log of requests) gets requests back only once the oldest counted one ages out, at the
 *   earlier answer's Reset: the server's Date has reached it (within WINDOW_END_SLACK_SECONDS).
 * Anything else is Remaining rising within one window. Returns undefined when explained, NOT_JUDGED when Reset or Date
 * is missing, else the problem.
 */
function riseProblem(
  res: ApiResponse<unknown>,
  view: KeyView,
  limit: number,
  remaining: number,
  reset: string | undefined,
): string | undefined | typeof NOT_JUDGED {
  const elapsedMs = Math.max(0, Date.now() - view.sentAt);
  const window = windowMs();
  const refill = Math.ceil((elapsedMs * limit) / window) + 1;
  if (remaining - view.remaining <= refill) return undefined;
  const before = wholeNumber(view.reset);
  const after = wholeNumber(reset);
  if (before === undefined || after === undefined) return NOT_JUDGED;
  if (after > before) return undefined;
  const date = res.header("Date");
  const dateMs = date === undefined ? NaN : Date.parse(date);
  if (!Number.isFinite(dateMs)) return NOT_JUDGED;
  if (dateMs / 1000 >= before - WINDOW_END_SLACK_SECONDS) return undefined;
  return (
    `${HEADERS.rateLimitRemaining} rose from ${view.remaining} (${view.endpoint}) to ${remaining} (${res.endpoint}) ` +
    `for key ${view.fingerprint} ${(elapsedMs / 1000).toFixed(2)} s later, with ${HEADERS.rateLimitReset} ${before} ` +
    `then ${after} and Date ${date ?? ""}: at most ${refill} could refill at ${limit} per ${window / 1000} s`
  );
}

/**
 * Judges the values against what this VU saw of the key before: Limit constant; Remaining below Limit on a 200 (the
 * request just counted spent one); Remaining not rising within one window. Other VUs spend the same key at the same
 * time, so Remaining may fall by any amount between two answers of one VU, but never rise within a window: this
 * VU's answers come in the order their requests were counted. Answers without a known key are not judged.
 */
function recordRateLimitValues(
  res: ApiResponse<unknown>,
  limit: number,
  remaining: number,
  results: Record<string, boolean>,
): boolean {
  const key = res.apiKey;
  if (key === undefined) return true;
  const checks = RATE_LIMIT_VALUE_CHECKS;
  let view = keyViews[key];
  const fingerprint = view ? view.fingerprint : `…${key.slice(-4)}`;
  let ok = true;
  if (view !== undefined) {
    const constant = limit === view.limit;
    results[checks.limitConstant] = constant;
    if (!constant) {
      ok = false;
      reportValue(
        checks.limitConstant,
        `${HEADERS.rateLimitLimit} changed from ${view.limit} (${view.endpoint}) to ${limit} (${res.endpoint}) for key ${fingerprint}`,
      );
    }
  }
  if (res.status === 200) {
    const below = remaining < limit;
    results[checks.belowLimit] = below;
    if (!below) {
      ok = false;
      reportValue(
        checks.belowLimit,
        `${HEADERS.rateLimitRemaining} is ${remaining} on a 200 of ${res.endpoint} for key ${fingerprint}, expected below the limit ${limit}: the request just counted spent one`,
      );
    }
  }
  const reset = res.header(HEADERS.rateLimitReset);
  if (view === undefined) {
    view = { fingerprint, endpoint: res.endpoint, limit, remaining, reset, sentAt: res.sentAt };
    keyViews[key] = view;
    return ok;
  }
  if (remaining <= view.remaining) {
    results[checks.neverRises] = true;
  } else {
    const rise = riseProblem(res, view, limit, remaining, reset);
    if (rise !== NOT_JUDGED) results[checks.neverRises] = rise === undefined;
    if (typeof rise === "string") {
      ok = false;
      reportValue(checks.neverRises, rise);
    }
  }
  view.endpoint = res.endpoint;
  view.limit = limit;
  view.remaining = remaining;
  view.reset = reset;
  view.sentAt = res.sentAt;
  return ok;
}

/**
 * Spec Part 8: X-RateLimit-Limit a positive integer, X-RateLimit-Remaining an integer from 0 to it, recorded as the
 * endpoint's rate-limit headers check; when they hold, their values as the RATE_LIMIT_VALUE_CHECKS. Returns whether
 * all of them held.
 */
function recordRateLimit(res: ApiResponse<unknown>, name: string, results: Record<string, boolean>): boolean {
  const limitRaw = res.header(HEADERS.rateLimitLimit);
  const limit = wholeNumber(limitRaw);
  if (limit === undefined || limit <= 0) {
    results[name] = false;
    report(name, `${HEADERS.rateLimitLimit} is ${JSON.stringify(limitRaw ?? null)}, expected a positive integer`);
    return false;
  }
  const remainingRaw = res.header(HEADERS.rateLimitRemaining);
  const remaining = wholeNumber(remainingRaw);
  if (remaining === undefined || remaining > limit) {
    results[name] = false;
    report(
      name,
      `${HEADERS.rateLimitRemaining} is ${JSON.stringify(remainingRaw ?? null)}, expected an integer from 0 to ${limit}`,
    );
    return false;
  }
  results[name] = true;
  return recordRateLimitValues(res, limit, remaining, results);
}

/**
 * The keys that hold a date, where the contract fixes the format (docs/contract-gaps.md, Formats; `wire.date()` in
 * docs/partner-api.openapi.yaml) and the traffic reads the answer. voucherValidity and validity are left out: their
 * inside is not shown (spec 2.12) and no page fixes it.
 */
const DATE_KEYS: Partial<Record<EndpointName, readonly string[]>> = {
  products: ["validFrom", "validThrough"],
  product: ["validFrom", "validThrough"],
  priceList: ["date"],
  priceListDate: ["date"],
};

/**
 * Problems of one record of a success's data, into [dates problem, weekday problem]: `index` is the item's in a list,
 * -1 for a detail's data. A date is read once for both rules, and where it is named only on failure: the loop runs
 * over every item of a sampled list.
 */
function dateProblems(
  index: number,
  record: Record<string, unknown>,
  info: EndpointChecks,
  problems: [string | undefined, string | undefined],
): void {
  const keys = info.dateKeys;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const value = record[key];
    if (value === undefined) continue;
    const name = weekdayOf(value);
    if (name === undefined) {
      problems[0] ??= `${info.endpoint} ${where(index)}.${key} is ${JSON.stringify(value)}, expected a YYYY-MM-DD date`;
    } else if (info.weekday && key === "date" && problems[1] === undefined) {
      // A date that is no date is the dates rule's problem: the weekday is judged only against a real one.
      const weekday = record.weekday;
      if (weekday !== name && !weekdayMatches(weekday, name)) {
        problems[1] =
          `${info.endpoint} ${where(index)}.weekday is ${JSON.stringify(weekday ?? null)} for date ` +
          `${value as string}, expected ${name}`;
      }
    }
  }
}

function where(index: number): string {
  return index < 0 ? "data" : `item ${index}`;
}

/**
 * The dates and weekdays of a success's data (every item of a list), recorded in `results` with their problems
 * reported: one pass over the data for both rules. Only endpoints that have either.
 */
function recordDates(data: unknown, info: EndpointChecks, results: Record<string, boolean>): void {
  const problems: [string | undefined, string | undefined] = [undefined, undefined];
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const item: unknown = data[i];
      if (isRecord(item)) dateProblems(i, item, info, problems);
    }
  } else if (isRecord(data)) {
    dateProblems(-1, data, info, problems);
  }
  if (info.dateKeys.length > 0) {
    results[CHEAP_RULES.dates] = problems[0] === undefined;
    if (problems[0] !== undefined) reportValue(CHEAP_RULES.dates, problems[0]);
  }
  if (info.weekday) {
    results[CHEAP_RULES.weekday] = problems[1] === undefined;
    if (problems[1] !== undefined) reportValue(CHEAP_RULES.weekday, problems[1]);
  }
}

/**
 * The top-level links of an answer: an array of {rel, href, method} (strings), `self` among them (spec Part 1;
 * docs/contract-gaps.md, Links). The problem names rels, not hrefs, so it stays one problem across answers.
 */
function linksSelfProblem(res: ApiResponse<unknown>): string | undefined {
  const body = res.body;
  const links = isRecord(body) ? body.links : undefined;
  const where = `${res.endpoint} ${res.status}`;
  if (!Array.isArray(links)) return `${where}: links is ${links === undefined ? "missing" : "not an array"}`;
  let self = false;
  for (let i = 0; i < links.length; i++) {
    const link: unknown = links[i];
    if (
      !isRecord(link) ||
      typeof link.rel !== "string" ||
      typeof link.href !== "string" ||
      typeof link.method !== "string"
    ) {
      const keys = isRecord(link) ? Object.keys(link).join(", ") : typeof link;
      return `${where}: links[${i}] has ${keys}, expected string rel, href and method`;
    }
    if (link.rel === "self") self = true;
  }
  if (self) return undefined;
  const rels = links.map((link) => (link as { rel: string }).rel).join(", ");
  return `${where}: no self among the links' rels (${rels || "no links"})`;
}

/**
 * docs/contract-gaps.md, Wire format and error codes: a failure answers {error: {code, message, http_code}, links,
 * timestamp}, http_code the status. The problem lists what is wrong, not the body, so it stays one problem per cause.
 */
function errorEnvelopeProblem(res: ApiResponse<unknown>): string | undefined {
  const body = res.body;
  const where = `${res.endpoint} ${res.status}`;
  if (!isRecord(body)) {
    const type = res.header("Content-Type");
    return `${where}: body is not a JSON object (Content-Type ${type === undefined ? "missing" : JSON.stringify(type)})`;
  }
  const wrong: string[] = [];
  const error = body.error;
  if (!isRecord(error)) wrong.push("error is not an object");
  else {
    if (typeof error.code !== "string") wrong.push("error.code is not a string");
    if (typeof error.message !== "string") wrong.push("error.message is not a string");
    if (error.http_code !== res.status) wrong.push(`error.http_code is ${JSON.stringify(error.http_code ?? null)}`);
  }
  if (!Array.isArray(body.links)) wrong.push("links is not an array");
  if (typeof body.timestamp !== "string") wrong.push("timestamp is not a string");
  return wrong.length ? `${where}: ${wrong.join("; ")}` : undefined;
}

/** Failures are checked like shapes: the first of each endpoint in a VU, then one in SHAPE_SAMPLE_EVERY. */
function sampleError(info: EndpointChecks): boolean {
  const seen = ++info.errorsSeen;
  return seen <= SHAPE_ALWAYS_FIRST || seen % SHAPE_SAMPLE_EVERY === 0;
}

/**
 * A failure's rules: its envelope and its links, for every 4xx and 5xx but the 429s (the rate-limit scenario judges
 * those, spec 7.1) and sampled per endpoint. Whether the status was the expected one is the status check's business.
 */
function recordFailure(res: ApiResponse<unknown>, info: EndpointChecks, results: Record<string, boolean>): void {
  if (res.status === 429 || !sampleError(info)) return;
  const envelope = errorEnvelopeProblem(res);
  results[CHEAP_RULES.errorEnvelope] = envelope === undefined;
  if (envelope !== undefined) report(CHEAP_RULES.errorEnvelope, envelope);
  const links = linksSelfProblem(res);
  results[CHEAP_RULES.linksSelf] = links === undefined;
  if (links !== undefined) report(CHEAP_RULES.linksSelf, links);
  if (res.status === 500) {
    const internal = error500Problem(res);
    results[CHEAP_RULES.error500] = internal === undefined;
    if (internal !== undefined) report(CHEAP_RULES.error500, internal);
  }
}

/**
 * A sampled success's rules, once its envelope held: its links, its dates and weekdays, the single date's caching, and
 * the endpoint's other cheap rules (cheap-rules.ts).
 */
function recordSuccess(res: ApiResponse<unknown>, info: EndpointChecks, results: Record<string, boolean>): void {
  const links = linksSelfProblem(res);
  results[CHEAP_RULES.linksSelf] = links === undefined;
  if (links !== undefined) report(CHEAP_RULES.linksSelf, links);
  if (info.dateKeys.length > 0 || info.weekday) recordDates(res.data, info, results);
  if (info.endpoint === "priceListDate") {
    const cache = noCacheProblem(res);
    results[CHEAP_RULES.noCache] = cache === undefined;
    if (cache !== undefined) report(CHEAP_RULES.noCache, cache);
  }
  // The value rules read every key of the answer, dearer than the shape: a sparser sample of the same answers.
  const seen = info.seen;
  if (seen > RULES_ALWAYS_FIRST && seen % RULES_SAMPLE_EVERY !== 0) return;
  const rules = info.successRules;
  for (let i = 0; i < rules.length; i++) {
    const [name, problemOf] = rules[i] as SuccessRule;
    const problem = problemOf(res);
    results[name] = problem === undefined;
    // The problem names items and values, so nearly every one is new: a few per rule say enough.
    if (problem !== undefined) reportValue(name, `${res.endpoint}: ${problem}`);
  }
}

/**
 * What the shared checks need of an endpoint, worked out once per VU: its check names (k6 aggregates checks by name),
 * whether it spends the rate-limit allowance, its response shape, and how many of its answers this VU has seen (for
 * the shape sample). Every answer is checked through one of these: a lookup instead of names built per answer.
 */
interface EndpointChecks {
  readonly endpoint: EndpointName;
  readonly rateLimited: boolean;
  readonly shape: ResponseShape;
  readonly rateLimit: string;
  readonly envelope: string;
  readonly keys: string;
  readonly status200: string;
  /** Status check names by expected status other than 200 ("201", "200/201"). */
  readonly status: Record<string, string>;
  /** The keys of a success's data (of each item of a list) that hold a date (CHEAP_RULES.dates); empty when none. */
  readonly dateKeys: readonly string[];
  /** Whether its data (each item of a list) has a weekday that must match its `date` (CHEAP_RULES.weekday). */
  readonly weekday: boolean;
  /** The endpoint's other cheap rules on a success (cheap-rules.ts). */
  readonly successRules: readonly SuccessRule[];
  seen: number;
  /** Failures (4xx/5xx other than 429) of this endpoint this VU has seen, for the error-envelope sample. */
  errorsSeen: number;
}

const endpointChecks: Partial<Record<EndpointName, EndpointChecks>> = {};

function checksOf(endpoint: EndpointName): EndpointChecks {
  let info = endpointChecks[endpoint];
  if (!info) {
    info = {
      endpoint,
      rateLimited: ENDPOINTS[endpoint].rateLimited,
      shape: RESPONSE_SHAPES[endpoint],
      rateLimit: `${endpoint}: rate-limit headers`,
      envelope: `${endpoint}: ${RESPONSE_SHAPES[endpoint].envelope} envelope with links`,
      keys: keySetCheckName(endpoint),
      status200: `${endpoint}: status 200`,
      status: {},
      dateKeys: DATE_KEYS[endpoint] ?? [],
      weekday: endpoint === "priceList" || endpoint === "priceListDate",
      successRules: successRulesOf(endpoint),
      seen: 0,
      errorsSeen: 0,
    };
    endpointChecks[endpoint] = info;
  }
  return info;
}

function statusName(info: EndpointChecks, expected: number | readonly number[]): string {
  if (expected === 200) return info.status200;
  const key = typeof expected === "number" ? String(expected) : expected.join("/");
  return (info.status[key] ??= `${info.endpoint}: status ${key}`);
}

function statusOk(status: number, expected: number | readonly number[]): boolean {
  return typeof expected === "number" ? status === expected : expected.includes(status);
}

/** Shape checks always run on the first answers of each endpoint in a VU, then on one in SHAPE_SAMPLE_EVERY. */
const SHAPE_ALWAYS_FIRST = 20;
const SHAPE_SAMPLE_EVERY = 10;
/**
 * The cheap rules of cheap-rules.ts run on the first RULES_ALWAYS_FIRST answers of each endpoint in a VU, then on one
 * in RULES_SAMPLE_EVERY (a multiple of SHAPE_SAMPLE_EVERY, so always on a sampled shape): a break of a value rule
 * shows on every answer of an endpoint, and reading every key of a list costs a k6 VU more than its request
 * (docs/performance.md).
 */
const RULES_ALWAYS_FIRST = 5;
const RULES_SAMPLE_EVERY = 200;

/**
 * Whether this answer's envelope and key set are checked. Parsing JSON is most of a check's cost inside k6, and a
 * contract break shows on every answer of an endpoint, so after the first answers a sample is enough under load.
 * The conformance scenarios call checkShape directly, on every answer.
 */
function sampleShape(info: EndpointChecks): boolean {
  const seen = ++info.seen;
  return seen <= SHAPE_ALWAYS_FIRST || seen % SHAPE_SAMPLE_EVERY === 0;
}

/**
 * Records named conditions with one check() call and logs the problem of each failed one, as expectThat does.
 * Plain booleans, not functions: k6 takes a non-function value as the condition's result (its check() resolves only
 * callables), which spares a closure per condition and a call from Go back into the script for each.
 */
function record(results: Record<string, boolean>, failures: readonly (string | undefined)[]): void {
  check(null, results as unknown as Checkers<null>);
  for (let i = 0; i < failures.length; i += 2) {
    const problem = failures[i + 1];
    if (problem !== undefined) report(failures[i] as string, problem);
  }
}

export function checkStatus(res: ApiResponse<unknown>, expected: number | readonly number[]): boolean {
  const ok = statusOk(res.status, expected);
  return expectThat(statusName(checksOf(res.endpoint), expected), ok ? undefined : statusProblem(res, expected));
}

/**
 * Spec Part 8: every answer of a listed endpoint carries X-RateLimit-Limit and X-RateLimit-Remaining, with values
 * that hold for the key across this VU's answers (RATE_LIMIT_VALUE_CHECKS). Returns whether all of them held.
 */
export function checkRateLimitHeaders(res: ApiResponse<unknown>): boolean {
  const info = checksOf(res.endpoint);
  if (!info.rateLimited || res.status === 0) return true;
  const results: Record<string, boolean> = {};
  const ok = recordRateLimit(res, info.rateLimit, results);
  check(null, results as unknown as Checkers<null>);
  return ok;
}

/**
 * The envelope (docs/contract-gaps.md, Lists and pagination) and the key set of spec Part 2 for the endpoint
 * (RESPONSE_SHAPES). Returns whether the envelope held (the data can be used); a key-set mismatch fails its own check
 * without stopping the caller.
 */
export function checkShape(res: ApiResponse<unknown>): boolean {
  const info = checksOf(res.endpoint);
  const results: Record<string, boolean> = {};
  const envelope = envelopeProblem(res, info.shape);
  results[info.envelope] = envelope === undefined;
  const keys = envelope === undefined && info.shape.keys ? keysProblem(res, info.shape) : undefined;
  if (envelope === undefined && info.shape.keys) results[info.keys] = keys === undefined;
  record(results, [info.envelope, envelope, info.keys, keys]);
  return envelope === undefined;
}

/** What a caller knows of the resource it reads (checkResponse's third argument). */
export interface ReadOptions {
  /**
   * The resource (a product, a product type, and what is read under them) was listed a moment ago and may have been
   * withdrawn since: the contract's answers for a withdrawn one (404 not_found; 410 gone) pass the status check too,
   * judged by the envelope's error code (docs/contract-gaps.md, Lists and pagination), and are not used.
   */
  withdrawnSinceListed?: boolean;
}

const WITHDRAWN_TOO = " (or 404 not_found, 410 gone for one withdrawn since it was listed)";

/** The name of an endpoint's status check for an expected 200 (the traffic's confirmations add to it). */
export function statusCheckName(endpoint: EndpointName): string {
  return checksOf(endpoint).status200;
}

/**
 * The checks every answer gets: rate-limit headers on listed endpoints, the status, and on success (sampled) the
 * envelope and key set and the cheap conformance rules (CHEAP_RULES), on a 4xx or 5xx (sampled) the failure's, recorded
 * with one check() call (one sample per condition, each under its own name). Returns
 * whether the answer can be used: the expected status, and an envelope where the shape was checked. Written flat for
 * the load loop: in k6's script runtime every call and property read of it costs, and it runs on every answer.
 */
export function checkResponse(
  res: ApiResponse<unknown>,
  expected: number | readonly number[] = 200,
  read?: ReadOptions,
): boolean {
  const info = endpointChecks[res.endpoint] ?? checksOf(res.endpoint);
  const status = res.status;
  const results: Record<string, boolean> = {};
  // Records the rate-limit checks and reports their problems; the other checks' problems are reported below.
  if (info.rateLimited && status !== 0) recordRateLimit(res, info.rateLimit, results);
  const ok = expected === 200 ? status === 200 : statusOk(status, expected);
  const name = statusName(info, expected);
  // A withdrawn resource's answer passes the status check but is not used (ok stays false).
  const accepted = ok || (read?.withdrawnSinceListed === true && withdrawnAnswer(res));
  results[name] = accepted;
  if (!ok || status >= 300 || !sampleShape(info)) {
    if (status >= 400) recordFailure(res, info, results);
    check(null, results as unknown as Checkers<null>);
    if (!accepted) report(name, `${statusProblem(res, expected)}${read?.withdrawnSinceListed ? WITHDRAWN_TOO : ""}`);
    return ok;
  }
  const envelope = envelopeProblem(res, info.shape);
  results[info.envelope] = envelope === undefined;
  const keys = envelope === undefined && info.shape.keys ? keysProblem(res, info.shape) : undefined;
  if (envelope === undefined && info.shape.keys) results[info.keys] = keys === undefined;
  if (envelope === undefined) recordSuccess(res, info, results);
  record(results, [info.envelope, envelope, info.keys, keys]);
  return envelope === undefined;
}
