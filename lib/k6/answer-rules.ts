/**
 * The problems of one answer against the cheap rules of the inventory (lib/contract/conformance-rules.ts): pure
 * functions of an answer's body or headers, no request of their own. The conformance judges (conformance/) call them
 * on the answers they ask for, and the shared checks (checks.ts) on the sampled answers the traffic gets anyway, so
 * a rule judged by `harness run conformance` and the same rule checked under load cannot disagree.
 * Each returns what is wrong, or undefined.
 */
import { BOOKING_STATUSES, IDENTIFIER_KEYS, isRecord, isUtcTimestamp, utcMs } from "../contract/index.ts";
import { CURRENCY_PATTERN, DECIMAL_PATTERN, UUID_PATTERN } from "../contract/schema.ts";
import type { ApiResponse } from "./client.ts";

export type Problem = string | undefined;

const UUID = new RegExp(UUID_PATTERN);
const DECIMAL = new RegExp(DECIMAL_PATTERN);
const CURRENCY = new RegExp(CURRENCY_PATTERN);
/** HH:MM of a real time of day (docs/contract-gaps.md, Formats), stricter than the schema's shape alone. */
const TIMESLOT = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE_FORMAT = /^\d{4}-\d{2}-\d{2}$/;
/** How deep a walk goes: the contract's answers nest four levels at most; a deeper body is not walked further. */
const MAX_DEPTH = 8;

/**
 * Walks every key of a JSON value, however deep (to MAX_DEPTH), calling `visit` with each key and its value; stops at
 * the first problem `visit` returns and gives it with where it sits (`data[2].uuid is ...`); `visit` returns null to
 * keep the walk out of a value. The path is kept as a stack and joined only on a problem: the walk runs over sampled
 * answers under load.
 */
export function firstProblemIn(value: unknown, visit: (key: string, value: unknown) => Problem | null): Problem {
  const path: (string | number)[] = [];
  const walk = (v: unknown, depth: number): Problem => {
    if (depth > MAX_DEPTH || v === null || typeof v !== "object") return undefined;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const found = walk(v[i], depth + 1);
        path.pop();
        if (found !== undefined) return found;
      }
      return undefined;
    }
    const record = v as Record<string, unknown>;
    for (const key in record) {
      const child = record[key];
      path.push(key);
      const problem = visit(key, child);
      const found =
        problem === null ? undefined : problem !== undefined ? `${pathText(path)} ${problem}` : walk(child, depth + 1);
      path.pop();
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(value, 0);
}

function pathText(path: readonly (string | number)[], last?: string): string {
  let text = "";
  for (const p of path) text += typeof p === "number" ? `[${p}]` : text === "" ? p : `.${p}`;
  if (last !== undefined) text += text === "" ? last : `.${last}`;
  return text;
}

const show = (value: unknown): string => JSON.stringify(value ?? null);

/**
 * A function of a string, remembered per string: an answer's keys and values repeat across answers, so most calls
 * under load are one property read. Bounded: a full table starts over.
 */
function remembered<T>(compute: (text: string) => T, max = 4096): (text: string) => T {
  let table = Object.create(null) as Record<string, T>;
  let size = 0;
  return (text) => {
    const known = table[text];
    if (known !== undefined) return known;
    const value = compute(text);
    if (size >= max) {
      table = Object.create(null) as Record<string, T>;
      size = 0;
    }
    table[text] = value;
    size++;
    return value;
  };
}

/** What one walk of an answer finds against the format rules: the first problem of each, with where it sits. */
export interface FormatFindings {
  /**
   * docs/contract-gaps.md (Formats): every `uuid` and `*Uuid` value is a UUID string, of any version and either case;
   * only the keys the spec names as identifiers (IDENTIFIER_KEYS) cannot be null.
   */
  uuids: Problem;
  /** docs/contract-gaps.md (Formats): every `timestamp`, `createdAt`, `updatedAt`, `generatedAt` is ISO 8601 UTC. */
  timestamps: Problem;
  /** Spec 9: every href of every `links` is under the base URL's /v2/ (relative or absolute). */
  links: Problem;
  /** docs/contract-gaps.md (Formats): every `timeslot`, and every bare string of a `timeslots` list, is HH:MM. */
  timeslots: Problem;
}

/** The keys that hold a timestamp where the contract's answers have one (docs/contract-gaps.md, Formats). */
const TIMESTAMP_KEYS: Record<string, true> = { timestamp: true, createdAt: true, updatedAt: true, generatedAt: true };

/**
 * The format rules of every value of an answer, however deep (to MAX_DEPTH), in one walk: under load this is the
 * dearest of the cheap rules, so each key is read once for all four, the path is a stack joined only on a problem,
 * and a `links` array is read for its hrefs, not walked. `baseUrl` is the URL the service was reached under.
 */
export function formatProblems(body: unknown, baseUrl: string): FormatFindings {
  const found: FormatFindings = { uuids: undefined, timestamps: undefined, links: undefined, timeslots: undefined };
  if (body !== null && typeof body === "object") walkFormats(body, [], 0, baseUrl.replace(/\/+$/, ""), found);
  return found;
}

/**
 * What a key holds for the format rules; most keys hold none of it. Identifier: a UUID the spec names (IDENTIFIER_KEYS);
 * Uuid: any other `*Uuid` key, a UUID or null.
 */
const KeyKind = { None: 0, Uuid: 1, Timestamp: 2, Timeslot: 3, Timeslots: 4, Links: 5, Identifier: 6 } as const;
type KeyKind = (typeof KeyKind)[keyof typeof KeyKind];

const IDENTIFIERS: readonly string[] = IDENTIFIER_KEYS;

/** Each key's kind, worked out once per key. */
const kindOf = remembered((key): KeyKind => {
  if (IDENTIFIERS.includes(key)) return KeyKind.Identifier;
  if (key.endsWith("Uuid")) return KeyKind.Uuid;
  if (TIMESTAMP_KEYS[key] === true) return KeyKind.Timestamp;
  if (key === "timeslot") return KeyKind.Timeslot;
  if (key === "timeslots") return KeyKind.Timeslots;
  return key === "links" ? KeyKind.Links : KeyKind.None;
});

function walkFormats(value: object, path: (string | number)[], depth: number, base: string, found: FormatFindings) {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null || typeof item !== "object") continue;
      path.push(i);
      walkFormats(item, path, depth + 1, base, found);
      path.pop();
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const child = record[key];
    const kind = kindOf(key);
    if (kind !== KeyKind.None) {
      if (kind === KeyKind.Links) {
        if (found.links === undefined && Array.isArray(child)) {
          const href = hrefOutside(child, base);
          if (href !== undefined)
            found.links = `${pathText(path, key)}: href ${JSON.stringify(href)} is not under ${base}/v2/`;
        }
        // A link's rel, href and method hold nothing else the format rules read.
        continue;
      }
      judgeFormat(kind, key, child, path, found);
    }
    if (child !== null && typeof child === "object") {
      path.push(key);
      walkFormats(child, path, depth + 1, base, found);
      path.pop();
    }
  }
}

/** One value of a key the format rules read (not links), into `found` when it breaks its rule first. */
function judgeFormat(kind: KeyKind, key: string, value: unknown, path: (string | number)[], found: FormatFindings) {
  if (kind === KeyKind.Identifier || kind === KeyKind.Uuid) {
    // A null under another *Uuid key says there is nothing to identify (a booking without a timeslot).
    if (kind === KeyKind.Uuid && value === null) return;
    if (found.uuids === undefined && (typeof value !== "string" || !isUuid(value)))
      found.uuids = `${pathText(path, key)} is ${show(value)}, not a UUID`;
  } else if (kind === KeyKind.Timestamp) {
    if (found.timestamps === undefined && value !== null && (typeof value !== "string" || !isTimestamp(value)))
      found.timestamps = `${pathText(path, key)} is ${show(value)}, not an ISO 8601 time in UTC`;
  } else if (kind === KeyKind.Timeslot) {
    if (found.timeslots === undefined && (typeof value !== "string" || !TIMESLOT.test(value)))
      found.timeslots = `${pathText(path, key)} is ${show(value)}, not an HH:MM timeslot`;
  } else if (kind === KeyKind.Timeslots && Array.isArray(value) && found.timeslots === undefined) {
    for (const slot of value as unknown[]) {
      if (typeof slot === "string" && !TIMESLOT.test(slot)) {
        found.timeslots = `${pathText(path, key)} holds ${show(slot)}, not an HH:MM timeslot`;
        return;
      }
    }
  }
}

/** The first href of a links array that is not under the base URL's /v2/, or undefined. */
function hrefOutside(links: readonly unknown[], base: string): string | undefined {
  for (let i = 0; i < links.length; i++) {
    const link = links[i];
    const href = isRecord(link) ? link.href : undefined;
    if (typeof href !== "string") continue;
    const path = href.startsWith(base) ? href.slice(base.length) : href;
    if (!path.startsWith("/v2/")) return href;
  }
  return undefined;
}

/** docs/contract-gaps.md (Formats): every `uuid` and `*Uuid` value is a UUID string (null aside, see FormatFindings). */
export function uuidsProblem(body: unknown): Problem {
  return formatProblems(body, "").uuids;
}

/** Every timestamp of an answer (TIMESTAMP_KEYS, however deep, null aside), held to timestampProblem. */
export function timestampsProblem(body: unknown): Problem {
  return formatProblems(body, "").timestamps;
}

/** docs/contract-gaps.md (Formats): every `timeslot`, and every bare string of a `timeslots` list, is HH:MM. */
export function timeslotsProblem(body: unknown): Problem {
  return formatProblems(body, "").timeslots;
}

/** Spec 9: every href of every `links` is under the base URL's /v2/ (relative or absolute). */
export function versionPrefixProblem(body: unknown, baseUrl: string): Problem {
  return formatProblems(body, baseUrl).links;
}

/** The keys whose values are dates (docs/contract-gaps.md, Formats); voucherValidity's are judged by 2.6. */
const DATE_KEYS = new Set(["date", "validFrom", "validThrough"]);

/** docs/contract-gaps.md (Formats): every date is YYYY-MM-DD and a real calendar date (voucherValidity's aside). */
export function datesProblem(body: unknown): Problem {
  return firstProblemIn(body, (key, value) => {
    if (key === "voucherValidity") return null;
    return DATE_KEYS.has(key) && weekdayOf(value) === undefined
      ? `is ${show(value)}, not a YYYY-MM-DD date`
      : undefined;
  });
}

/** An answer's identifiers and timestamps repeat across answers (the traffic asks about a hot set): remembered. */
const isUuid = remembered((text) => UUID.test(text));
const isTimestamp = remembered(isUtcTimestamp);

/** docs/contract-gaps.md (Formats): a timestamp is ISO 8601 in UTC (Z or +00:00, no other offset) and a real time. */
export function timestampProblem(where: string, value: unknown): Problem {
  if (typeof value === "string" && isTimestamp(value)) return undefined;
  return `${where} is ${show(value)}, not an ISO 8601 time in UTC`;
}

/** Money anywhere in a value: every number is money not written as a decimal string; returns the first one's path. */
function numberIn(value: unknown, where: string): Problem {
  if (typeof value === "number") return `${where} is the number ${value}`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = numberIn(value[i], `${where}[${i}]`);
      if (found) return found;
    }
  } else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) {
      const found = numberIn(v, `${where}.${k}`);
      if (found) return found;
    }
  }
  return undefined;
}

const isDecimal = remembered((text) => DECIMAL.test(text));

function hasDecimal(value: unknown): boolean {
  if (typeof value === "string") return isDecimal(value);
  if (Array.isArray(value)) return value.some(hasDecimal);
  return isRecord(value) && Object.values(value).some(hasDecimal);
}

/** docs/contract-gaps.md (Formats): money is a decimal string next to a three-letter currency code. */
export function moneyProblem(data: Record<string, unknown>, moneyKey: string): Problem {
  if (typeof data.currency !== "string" || !CURRENCY.test(data.currency))
    return `currency is ${show(data.currency)}, not a three-letter code`;
  const money = data[moneyKey];
  // The common form, amounts by group ({adults: "35.00"}), read without the general walk below.
  if (isRecord(money)) {
    let strings = true;
    let decimal = false;
    for (const group in money) {
      const amount = money[group];
      if (typeof amount !== "string") {
        strings = false;
        break;
      }
      if (isDecimal(amount)) decimal = true;
    }
    if (strings) return decimal ? undefined : `${moneyKey} holds no decimal string: ${show(money)}`;
  }
  const asNumber = numberIn(money, moneyKey);
  if (asNumber) return `${asNumber}, not a decimal string`;
  return hasDecimal(money) ? undefined : `${moneyKey} holds no decimal string: ${show(money)}`;
}

/** Whether a record carries money under `key`: a date that is not sold has no prices, and nothing to judge. */
export function hasMoney(record: Record<string, unknown>, key: string): boolean {
  const money = record[key];
  if (money === undefined || money === null) return false;
  return !isRecord(money) || Object.keys(money).length > 0;
}

/** The reference's weekday format (lib/reference/dates.ts): the English name, by JavaScript's getUTCDay(). */
const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

/**
 * The weekday name of a YYYY-MM-DD calendar date, "" when the text is not one (2030-02-30 is not); remembered, since a
 * calendar's dates repeat across answers.
 */
const weekdayOfText = remembered((text) => {
  if (!DATE_FORMAT.test(text)) return "";
  const y = Number(text.slice(0, 4));
  const m = Number(text.slice(5, 7)) - 1;
  const d = Number(text.slice(8, 10));
  const date = new Date(utcMs(y, m, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m || date.getUTCDate() !== d) return "";
  return WEEKDAY_NAMES[date.getUTCDay()] as string;
});

/** The weekday of a YYYY-MM-DD calendar date, or undefined when the value is not one (2030-02-30 is not). */
export function weekdayOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const name = weekdayOfText(value);
  return name === "" ? undefined : name;
}

/**
 * Whether a weekday names the date's: the reference's English name; no page fixes the format, so its case and its
 * three-letter abbreviation (Mon) are taken as the same day.
 */
export function weekdayMatches(weekday: unknown, name: string): boolean {
  if (weekday === name) return true;
  if (typeof weekday !== "string") return false;
  const given = weekday.trim().toLowerCase();
  const expected = name.toLowerCase();
  return given === expected || given === expected.slice(0, 3);
}

/** Spec 2.5: an entry's weekday is its date's (weekdayOf, weekdayMatches). */
export function weekdayProblem(entry: Record<string, unknown>): Problem {
  const name = weekdayOf(entry.date);
  if (name === undefined) return `date ${show(entry.date)} is not a YYYY-MM-DD date`;
  return weekdayMatches(entry.weekday, name)
    ? undefined
    : `${String(entry.date)} is a ${name}, the entry says ${show(entry.weekday)}`;
}

/** Whether a listed timeslot can be booked: a bare HH:MM, or one not marked unavailable and not down to 0 seats. */
export function bookableSlot(slot: unknown): boolean {
  if (!isRecord(slot)) return typeof slot === "string";
  return slot.available !== false && (typeof slot.remaining !== "number" || slot.remaining > 0);
}

/**
 * Spec 2.5, 2.6: `available` is a boolean; an available date has prices; for a timeslotted type the timeslots mark
 * availability (available exactly when one of them can be booked), and a type without timeslots lists none.
 */
export function entryAvailabilityProblem(entry: Record<string, unknown>, timeslotted: boolean): Problem {
  const date = String(entry.date);
  if (typeof entry.available !== "boolean") return `${date}: available is ${show(entry.available)}, not a boolean`;
  if (entry.available && !(isRecord(entry.prices) && Object.keys(entry.prices).length > 0))
    return `${date}: available without prices (${show(entry.prices)})`;
  const slots: unknown[] = Array.isArray(entry.timeslots) ? (entry.timeslots as unknown[]) : [];
  if (!timeslotted) return slots.length ? `${date}: a type without timeslots lists ${slots.length}` : undefined;
  const open = slots.filter(bookableSlot).length;
  if (entry.available && open === 0) return `${date}: available with no bookable timeslot listed`;
  if (!entry.available && open > 0) return `${date}: not available with ${open} bookable timeslot(s) listed`;
  return undefined;
}

/** Whether an entry lists a timeslot: under load the answer is all there is to tell a timeslotted type by. */
export function listsTimeslots(entry: Record<string, unknown>): boolean {
  return Array.isArray(entry.timeslots) && entry.timeslots.length > 0;
}

/**
 * Spec 2.6: for a timeslotted type the timeslots mark availability: the single-date result is available exactly when
 * a timeslot it lists can be booked (a sold-out slot may be listed as such).
 */
export function timeslotsMarkProblem(data: Record<string, unknown>): Problem {
  const slots = Array.isArray(data.timeslots) ? (data.timeslots as unknown[]) : [];
  const open = slots.filter(bookableSlot).length;
  if (data.available === true && open === 0) return `${String(data.date)}: available, but no timeslot can be booked`;
  if (data.available !== true && open > 0)
    return `${String(data.date)}: not available, but ${open} timeslot(s) can be booked`;
  return undefined;
}

const AGE_GROUPS = ["adults", "children", "seniors"];

/** Spec 2.6: voucherValidity divided by age group (an object keyed by group, or entries each naming one). */
export function voucherValidityProblem(validity: unknown, groups: readonly string[]): Problem {
  let named: string[];
  if (Array.isArray(validity)) {
    named = (validity as unknown[]).map((e) =>
      isRecord(e)
        ? (["ageGroup", "group", "category", "type"].map((k) => e[k]).find((v) => typeof v === "string") ?? "")
        : "",
    );
  } else if (isRecord(validity)) {
    named = Object.keys(validity);
  } else {
    return `voucherValidity is ${show(validity)}, not divided by age group`;
  }
  const unknown = named.filter((g) => !AGE_GROUPS.includes(g));
  if (unknown.length)
    return `voucherValidity names ${unknown.map((g) => JSON.stringify(g)).join(", ")}, not an age group (${AGE_GROUPS.join(", ")})`;
  const lacking = groups.filter((g) => !named.includes(g));
  return lacking.length ? `voucherValidity has no entry for ${lacking.join(", ")}` : undefined;
}

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
      return `meta.pagination.${key} is ${show(n)}, not a whole non-negative number`;
  }
  return undefined;
}

/** Spec 2: the snake_case keys the spec itself names (2.8, 7.1/7.2, 2.11). */
const SNAKE_CASE_EXCEPTIONS = new Set(["partner_reference", "http_code", "same_date_timeslots", "nearby_dates"]);
const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;
const camelCaseKey = remembered((key) => CAMEL_CASE.test(key) || SNAKE_CASE_EXCEPTIONS.has(key));

/** Spec 2: every key of `data` (the record, or each list item), first level, is camelCase or a named exception. */
export function camelCaseProblem(data: unknown): Problem {
  const records = Array.isArray(data) ? (data as unknown[]) : [data];
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    if (!isRecord(record)) continue;
    for (const key in record) {
      if (!camelCaseKey(key))
        return `${Array.isArray(data) ? `item ${i}` : "data"} has the key ${JSON.stringify(key)}, not camelCase`;
    }
  }
  return undefined;
}

/**
 * The base URL a request was sent under: its URL up to the /v2/ of the contract's paths. Under load the checks know
 * the answer, not the run's settings; a URL without /v2/ gives its origin.
 */
export function baseUrlOf(url: string): string {
  const at = url.indexOf("/v2/");
  if (at >= 0) return url.slice(0, at);
  const origin = /^[a-z]+:\/\/[^/]+/i.exec(url);
  return origin ? origin[0] : "";
}

/** Spec 3: a new booking starts `reserved`; undefined when it is right or the answer was no 2xx. */
export function initialStatusProblem(created: ApiResponse<unknown>): Problem {
  if (created.status < 200 || created.status > 299) return undefined;
  const data = created.data;
  const status = isRecord(data) ? data.status : undefined;
  return status === "reserved" ? undefined : `the new booking's status is ${JSON.stringify(status)}, not "reserved"`;
}

/** docs/contract-gaps.md (Booking states): a booking's `status` (of a record, or each list item) is a known state. */
export function statusValuesProblem(data: unknown): Problem {
  const records = Array.isArray(data) ? (data as unknown[]) : [data];
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    if (!isRecord(record)) continue;
    const status = record.status;
    if (typeof status !== "string" || !(BOOKING_STATUSES as readonly string[]).includes(status))
      return `${Array.isArray(data) ? `item ${i}` : "data"}.status is ${show(status)}, not one of ${BOOKING_STATUSES.join(", ")}`;
  }
  return undefined;
}

/**
 * Cache-Control directives that keep a cache from reusing an answer without asking the service. A no-cache naming
 * fields (no-cache="Set-Cookie") does not: it holds back only those fields.
 */
const NOT_REUSED = /(?:^|,)\s*(?:no-store|no-cache|max-age\s*=\s*"?0+"?)\s*(?=,|$)/i;

/**
 * Spec 2.6: the single-date result "must not be cached". A missing Cache-Control fails too: HTTP lets any cache store
 * a 200 to GET without one and reuse it for a heuristic freshness time (RFC 9111, 4.2.2), and the reference says
 * no-store on every single-date answer (service/api/prices.ts). Expires is read by HTTP/1.0 caches that do not know
 * Cache-Control, so one in the future, by the answer's own Date, fails as well.
 */
export function noCacheProblem(res: ApiResponse<unknown>): string | undefined {
  const cacheControl = res.header("Cache-Control");
  if (cacheControl === undefined) {
    return `${res.endpoint}: no Cache-Control header, so HTTP caches may keep the answer (RFC 9111 4.2.2); expected no-store, no-cache or max-age=0`;
  }
  if (!NOT_REUSED.test(cacheControl)) {
    return `${res.endpoint}: Cache-Control is "${cacheControl}", expected no-store, no-cache or max-age=0`;
  }
  const expires = res.header("Expires");
  if (expires === undefined) return undefined;
  const expiresMs = Date.parse(expires);
  // An Expires that is no date means already expired (RFC 9111 5.3).
  if (!Number.isFinite(expiresMs)) return undefined;
  const date = res.header("Date");
  const dateMs = date === undefined ? NaN : Date.parse(date);
  const nowMs = Number.isFinite(dateMs) ? dateMs : Date.now();
  if (expiresMs <= nowMs) return undefined;
  return `${res.endpoint}: Expires is ${Math.round((expiresMs - nowMs) / 1000)} s after the answer's Date, expected none in the future`;
}
