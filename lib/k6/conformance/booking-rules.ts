/**
 * The judges of the conformance rules about authentication, error answers and bookings (lib/contract/conformance-
 * rules.ts): each sends its own few requests through the public API and never reads another rule's answer. A judge
 * that books cancels what it booked before it returns, so a run leaves nothing reserved. Each rule is proven by a
 * defect of the reference service that breaks it alone (test/service/conformance-booking-defects.test.ts).
 */
import {
  ERROR_CODES,
  addDays,
  todayUtc,
  isErrorEnvelope,
  isListEnvelope,
  isRecord,
  type BookingRequest,
} from "../../contract/index.ts";
import { initialStatusProblem } from "../answer-rules.ts";
import type { ApiResponse, Json } from "../client.ts";
import {
  answerEvidence,
  evidence,
  failed,
  notJudged,
  passed,
  type ConformanceContext,
  type FoundProductType,
  type Judge,
  type RawAnswer,
  type Verdict,
} from "./judge.ts";

/** A key no partner has: the invalid key of spec 5 (made up, never a real key's shape). */
const INVALID_KEY = "atd-conformance-not-a-key";
/** A UUID no resource has. */
const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";
/** Over the reference service's 64 KiB body limit (docs/service.md), by a margin no framing overhead closes. */
const OVERSIZED_BODY_BYTES = 70 * 1024;
/** Product types a booking judge tries before it gives up (each costs one single-date request). */
const MAX_TYPE_TRIES = 4;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export type Problem = string | undefined;

function contentTypeOf(answer: RawAnswer): string {
  return answer.header("Content-Type") ?? "";
}

/** Whether a raw answer is `status` with `code` in the error envelope; the problem otherwise. */
export function errorAnswerProblem(
  method: string,
  path: string,
  answer: RawAnswer,
  status: number,
  code: string,
): Problem {
  const got = isErrorEnvelope(answer.json) ? answer.json.error : undefined;
  if (answer.status !== status || !contentTypeOf(answer).includes("json") || got?.code !== code) {
    return `expected ${String(status)} ${code} in the error envelope: ${evidence(method, path, answer)}`;
  }
  if (got.http_code !== status) {
    return `error.http_code ${String(got.http_code)} is not the status ${String(status)}: ${evidence(method, path, answer)}`;
  }
  return undefined;
}

/**
 * What is wrong with a failure's body against the error envelope (docs/contract-gaps.md, Wire format): `error` with
 * `code`, `message` and `http_code` equal to the status, `links` with `self`, an ISO 8601 `timestamp`. Needs no
 * request of its own: cheap enough for every failure a load scenario sees.
 */
export function errorEnvelopeProblem(status: number, contentType: string, body: unknown): string | undefined {
  if (!contentType.includes("json") || !isRecord(body)) return "the body is not a JSON object";
  if (!isErrorEnvelope(body)) return "no `error` object with string code, string message and numeric http_code";
  if (body.error.http_code !== status) return `error.http_code ${String(body.error.http_code)} is not the status`;
  const links = body.links as unknown;
  if (!Array.isArray(links) || !links.some((l) => isRecord(l) && l.rel === "self" && typeof l.href === "string")) {
    return "no `links` array with a `self` link";
  }
  const timestamp = body.timestamp as unknown;
  if (typeof timestamp !== "string" || !ISO_TIMESTAMP.test(timestamp)) return "no ISO 8601 `timestamp`";
  return undefined;
}

/** A tag unique to this judge's call, for partner references and customer data nobody else uses. */
export function runTag(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

export interface Slot {
  type: FoundProductType;
  date: string;
  timeslot: string | undefined;
}

/**
 * A product type and slot the single-date endpoint says can take `bookings` bookings of the smallest party (spec 4.2:
 * asked before booking); `instant`: only instant-confirmation types, whose confirmed booking is approved at once and
 * so can be cancelled again (a `waiting` one cannot).
 */
export function bookableSlot(ctx: ConformanceContext, bookings: number, instant = false): Slot | undefined {
  const candidates = ctx.productTypes.filter((t) => t.available && (!instant || t.instantConfirmation));
  for (const type of candidates.slice(0, MAX_TYPE_TRIES)) {
    // The probe date, or the first one past the type's lead time when that is later.
    const earliest = addDays(todayUtc(), type.daysInAdvance + 1);
    const date = earliest > ctx.probeDate ? earliest : ctx.probeDate;
    const single = ctx.client.getPriceForDate(type.uuid, date);
    if (single.status !== 200 || single.data?.available !== true) continue;
    if (!type.timeslotted) return { type, date, timeslot: undefined };
    const need = Math.max(1, type.minPax) * bookings;
    const slots = Array.isArray(single.data.timeslots) ? single.data.timeslots.filter(isRecord) : [];
    const open = slots.find((s) => s.available === true && (typeof s.remaining !== "number" || s.remaining >= need));
    if (open !== undefined) return { type, date, timeslot: String(open.timeslot) };
  }
  return undefined;
}

export function bookingRequest(slot: Slot, reference: string, customer: BookingRequest["customer"]): BookingRequest {
  const { type } = slot;
  return {
    productTypeUuid: type.uuid,
    date: slot.date,
    ...(slot.timeslot !== undefined ? { timeslot: slot.timeslot } : {}),
    adults: Math.max(1, type.minPax),
    customer,
    options: type.requiredOptions.map((o) => ({
      uuid: o.uuid,
      value: o.type === "select" ? (o.values[0] ?? "") : "conformance",
    })),
    partnerReference: reference,
  };
}

export function customerOf(tag: string, n: string): BookingRequest["customer"] {
  return {
    firstName: `Conf${tag}${n}`,
    lastName: `Judge${tag}${n}`,
    salutation: "Ms",
    email: `conf.${tag}.${n}@example.com`,
    phone: `+65${String(parseInt(tag.slice(-5), 36) % 1e7)}${String(n.charCodeAt(0))}`,
  };
}

/** Creates a booking; the uuid, or the problem that stopped it. */
export function create(
  ctx: ConformanceContext,
  request: BookingRequest,
): { uuid: string; res: ApiResponse<Json> } | { problem: string } {
  const res = ctx.client.createBooking(request);
  const uuid = res.data?.uuid;
  if ((res.status !== 200 && res.status !== 201) || typeof uuid !== "string") {
    return {
      problem: `a booking the single-date answer allowed was refused: ${answerEvidence("POST", "/v2/bookings", res)}`,
    };
  }
  return { uuid, res };
}

/** Cancels what a judge booked, so the run holds no seat; a cancel that fails is logged, not the rule's verdict. */
export function cancelAll(ctx: ConformanceContext, uuids: readonly string[]): void {
  for (const uuid of uuids) {
    const res = ctx.client.cancelBooking(uuid);
    if (res.status !== 200) {
      console.warn(
        `conformance: booking ${uuid} could not be cancelled: ${answerEvidence("PUT", `/v2/bookings/${uuid}/cancel`, res)}`,
      );
    }
  }
}

/** A booking request the service might take by mistake (a 2xx): cancelled at once, so even a failed rule books nothing. */
export function cancelIfBooked(ctx: ConformanceContext, answer: RawAnswer): void {
  if (answer.status < 200 || answer.status > 299 || !isRecord(answer.json) || !isRecord(answer.json.data)) return;
  const uuid = answer.json.data.uuid;
  if (typeof uuid === "string") cancelAll(ctx, [uuid]);
}

export function first(problems: readonly Problem[]): Verdict {
  const problem = problems.find((p) => p !== undefined);
  return problem === undefined ? passed : failed(problem);
}

export function uuidsOf(res: ApiResponse<Json[]>): string[] {
  return (res.data ?? []).map((item) => String(item.uuid));
}

function queryText(query: Record<string, string | number>): string {
  return Object.entries(query)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join("&");
}

/** spec 5: a missing or an invalid key is refused with 401 GEN-UNAUTHORIZED in the envelope, on a read, a write and OPTIONS. */
const authRequired: Judge = (ctx) => {
  const probes: { method: string; path: string; body?: string }[] = [
    { method: "GET", path: "/v2/products?per_page=1" },
    { method: "POST", path: "/v2/bookings", body: "{}" },
    { method: "OPTIONS", path: "/v2/bookings" },
  ];
  const problems: Problem[] = [];
  for (const key of [null, INVALID_KEY]) {
    for (const probe of probes) {
      const headers: Record<string, string> = probe.body === undefined ? {} : { "Content-Type": "application/json" };
      const answer = ctx.raw({ ...probe, key, headers });
      cancelIfBooked(ctx, answer);
      const problem = errorAnswerProblem(probe.method, probe.path, answer, 401, ERROR_CODES.unauthorized);
      problems.push(problem && `${key === null ? "no key" : "an invalid key"}: ${problem}`);
    }
  }
  return first(problems);
};

/** spec 2.9 and 5: a voucher file link refuses a request without the key, or with an invalid one. */
/**
 * Runs `use` on an approved booking of the run's key made for it: an instant-confirmation type's slot the single-date
 * answer allows, created and confirmed, cancelled again afterwards whatever `use` found. Not judged when the catalogue
 * has no such slot or the booking is not approved at once (`what` says what it was needed for).
 */
export function withApprovedBooking(ctx: ConformanceContext, what: string, use: (uuid: string) => Verdict): Verdict {
  const slot = bookableSlot(ctx, 1, true);
  if (slot === undefined) {
    return notJudged(
      `no instant-confirmation product type bookable on ${ctx.probeDate} among those found (${what} needs an approved booking)`,
    );
  }
  const tag = runTag();
  const made = create(ctx, bookingRequest(slot, `atd-conformance-${tag}`, customerOf(tag, "a")));
  if ("problem" in made) return notJudged(`no booking for ${what}: ${made.problem}`);
  try {
    const confirmed = ctx.client.confirmBooking(made.uuid);
    if (confirmed.status !== 200 || confirmed.data?.status !== "approved") {
      return notJudged(
        `the booking for ${what} was not approved at once: ${answerEvidence("PUT", `/v2/bookings/${made.uuid}/confirm`, confirmed)}`,
      );
    }
    return use(made.uuid);
  } finally {
    cancelAll(ctx, [made.uuid]);
  }
}

const voucherLinksNeedKey: Judge = (ctx) =>
  withApprovedBooking(ctx, "a voucher file", (uuid) => {
    const vouchers = ctx.client.listVouchers(uuid);
    const links = vouchers.data?.[0]?.links;
    const file = Array.isArray(links) ? links.filter(isRecord).find((l) => typeof l.href === "string") : undefined;
    if (file === undefined) {
      return notJudged(
        `the approved booking lists no voucher file link: ${answerEvidence("GET", `/v2/bookings/${uuid}/vouchers`, vouchers)}`,
      );
    }
    const href = String(file.href);
    const path = href.replace(/^https?:\/\/[^/]+/, "");
    const problems: Problem[] = [];
    for (const key of [null, INVALID_KEY]) {
      const answer = ctx.raw({ method: "GET", path, key });
      // Refused is the rule (401, or 403 from a service that says so); what the refusal looks like is 5-auth-required's.
      if (answer.status !== 401 && answer.status !== 403) {
        problems.push(
          `${key === null ? "no key" : "an invalid key"}: the voucher file was not refused: ${evidence("GET", path, answer)}`,
        );
      }
    }
    return first(problems);
  });

/** docs/contract-gaps.md: a failure (here a missing resource and a missing path) answers the whole error envelope. */
const errorEnvelope: Judge = (ctx) => {
  const problems: Problem[] = [];
  for (const path of [`/v2/products/${NO_SUCH_UUID}`, "/v2/conformance-no-such-path"]) {
    const answer = ctx.raw({ method: "GET", path });
    if (answer.status < 400) {
      problems.push(`expected a failure: ${evidence("GET", path, answer)}`);
      continue;
    }
    const problem = errorEnvelopeProblem(answer.status, contentTypeOf(answer), answer.json);
    if (problem !== undefined) problems.push(`${problem}: ${evidence("GET", path, answer)}`);
  }
  return first(problems);
};

/** docs/contract-gaps.md: a method the path does not allow is 405 method_not_allowed, with Allow naming those it does. */
const error405: Judge = (ctx) => {
  const path = "/v2/products";
  const answer = ctx.raw({ method: "DELETE", path });
  const problem = errorAnswerProblem("DELETE", path, answer, 405, ERROR_CODES.methodNotAllowed);
  if (problem !== undefined) return failed(problem);
  const allow = answer.header("Allow") ?? "";
  if (!/\bGET\b/.test(allow))
    return failed(`the 405 has no Allow header naming GET: ${evidence("DELETE", path, answer)}`);
  return passed;
};

/** docs/service.md: a body over 64 KiB is 413 payload_too_large (the reference service's own limit). */
const error413: Judge = (ctx) => {
  const path = "/v2/bookings";
  const body = JSON.stringify({ conformancePadding: "x".repeat(OVERSIZED_BODY_BYTES) });
  const answer = ctx.raw({ method: "POST", path, body, headers: { "Content-Type": "application/json" } });
  cancelIfBooked(ctx, answer);
  const code = isErrorEnvelope(answer.json) ? answer.json.error.code : undefined;
  // contract-gaps.md makes 413 the reference service's own: a service that reads the body and refuses its fields has a
  // higher limit, which is no breach.
  if (
    (answer.status === 400 && code === ERROR_CODES.invalidParams) ||
    (answer.status === 422 && code === ERROR_CODES.invalidData)
  ) {
    return notJudged(
      `a body of ${String(body.length)} bytes was read and refused for its fields: this service's body limit is higher than 64 KiB`,
    );
  }
  return first([errorAnswerProblem("POST", path, answer, 413, "payload_too_large")]);
};

/** docs/contract-gaps.md: a body that is not JSON is 400 malformed_json. */
const error400MalformedJson: Judge = (ctx) => {
  const path = "/v2/bookings";
  const answer = ctx.raw({
    method: "POST",
    path,
    body: '{"adults": 1,',
    headers: { "Content-Type": "application/json" },
  });
  cancelIfBooked(ctx, answer);
  return first([errorAnswerProblem("POST", path, answer, 400, ERROR_CODES.malformedJson)]);
};

/** docs/contract-gaps.md: a booking request with a malformed field (adults not an integer) is 400 invalid_params. */
const error400Validation: Judge = (ctx) => {
  const type = ctx.productTypes[0];
  if (type === undefined) return notJudged("setup found no product type to name in the request");
  const tag = runTag();
  const request = {
    ...bookingRequest(
      { type, date: ctx.probeDate, timeslot: type.timeslots[0] },
      `atd-conformance-invalid-${tag}`,
      customerOf(tag, "i"),
    ),
    adults: "two",
  };
  const path = "/v2/bookings";
  const answer = ctx.raw({
    method: "POST",
    path,
    body: JSON.stringify(request),
    headers: { "Content-Type": "application/json" },
  });
  cancelIfBooked(ctx, answer);
  return first([errorAnswerProblem("POST", path, answer, 400, ERROR_CODES.invalidParams)]);
};

/** spec 3: a new booking starts `reserved` (the create answer says so). */
const initialReserved: Judge = (ctx) => {
  const slot = bookableSlot(ctx, 1);
  if (slot === undefined) return notJudged(`no product type found is bookable on ${ctx.probeDate}`);
  const tag = runTag();
  const made = create(ctx, bookingRequest(slot, `atd-conformance-initial-${tag}`, customerOf(tag, "r")));
  if ("problem" in made) return notJudged(made.problem);
  try {
    const problem = initialStatusProblem(made.res);
    return problem === undefined ? passed : failed(`${problem}: ${answerEvidence("POST", "/v2/bookings", made.res)}`);
  } finally {
    cancelAll(ctx, [made.uuid]);
  }
};

/**
 * spec 4.3: each filter of GET /v2/bookings filters. One booking with customer data and a reference unique to the
 * call: all filters at its values find it; each filter at another value, beside its reference, finds nothing.
 */
const bookingsFilters: Judge = (ctx) => {
  const slot = bookableSlot(ctx, 1);
  if (slot === undefined) return notJudged(`no product type found is bookable on ${ctx.probeDate}`);
  const tag = runTag();
  const reference = `atd-conformance-filters-${tag}`;
  const customer = customerOf(tag, "f");
  const other = customerOf(tag, "x");
  const made = create(ctx, bookingRequest(slot, reference, customer));
  if ("problem" in made) return notJudged(made.problem);
  try {
    // The status the booking has now, as the service reads it (not what the create answer said: 3-initial-reserved's).
    const read = ctx.client.getBooking(made.uuid);
    const status = read.data?.status;
    if (typeof status !== "string") {
      return notJudged(
        `the booking's status could not be read: ${answerEvidence("GET", `/v2/bookings/${made.uuid}`, read)}`,
      );
    }
    const matching: Record<string, string> = {
      date_start: slot.date,
      date_end: slot.date,
      first_name: customer.firstName,
      last_name: customer.lastName,
      email: customer.email,
      phone: customer.phone,
      partner_reference: reference,
      status,
    };
    const all = ctx.client.listBookings({ ...matching, per_page: 100 });
    if (all.status !== 200 || !uuidsOf(all).includes(made.uuid)) {
      return failed(
        `every filter at the booking's own values did not find it: ${answerEvidence("GET", `/v2/bookings?${queryText(matching)}`, all)}`,
      );
    }
    const mismatching: Record<string, string> = {
      date_start: addDays(slot.date, 1),
      date_end: addDays(slot.date, -1),
      first_name: other.firstName,
      last_name: other.lastName,
      email: other.email,
      phone: other.phone,
      status: status === "cancelled" ? "expired" : "cancelled",
    };
    const problems: Problem[] = [];
    for (const [name, value] of Object.entries(mismatching)) {
      const query = { partner_reference: reference, [name]: value };
      const res = ctx.client.listBookings(query);
      if (res.status !== 200 || uuidsOf(res).length > 0) {
        problems.push(`${name} did not filter: ${answerEvidence("GET", `/v2/bookings?${queryText(query)}`, res)}`);
      }
    }
    // partner_reference alone: a reference nobody used finds nothing.
    const none = { partner_reference: `${reference}-none` };
    const res = ctx.client.listBookings(none);
    if (res.status !== 200 || uuidsOf(res).length > 0) {
      problems.push(
        `partner_reference did not filter: ${answerEvidence("GET", `/v2/bookings?${queryText(none)}`, res)}`,
      );
    }
    return first(problems);
  } finally {
    cancelAll(ctx, [made.uuid]);
  }
};

const PAGE_BOOKINGS = 3;
const PER_PAGE = 2;

/**
 * spec 4.3: pagination of GET /v2/bookings (4.3-pagination-consistent, with the catalogue's lists:
 * pagination-rules.ts). Three bookings share a first name unique to the call; read two to a page, `total` is 3,
 * `total_pages` 2, each page's `count`, `per_page` and `current_page` are its own, and the pages hold the three once
 * each.
 */
export const bookingPages: Judge = (ctx) => {
  const slot = bookableSlot(ctx, PAGE_BOOKINGS);
  if (slot === undefined)
    return notJudged(`no product type found has ${String(PAGE_BOOKINGS)} seats on ${ctx.probeDate}`);
  const tag = runTag();
  const customer = customerOf(tag, "p");
  const created: string[] = [];
  try {
    for (let i = 0; i < PAGE_BOOKINGS; i++) {
      const made = create(ctx, bookingRequest(slot, `atd-conformance-pages-${tag}-${String(i)}`, customer));
      if ("problem" in made) return notJudged(made.problem);
      created.push(made.uuid);
    }
    const expectedPages = Math.ceil(PAGE_BOOKINGS / PER_PAGE);
    const seen: string[] = [];
    for (let page = 1; page <= expectedPages; page++) {
      const query = { first_name: customer.firstName, per_page: PER_PAGE, page };
      const res = ctx.client.listBookings(query);
      const where = answerEvidence("GET", `/v2/bookings?${queryText(query)}`, res);
      const p = res.pagination;
      if (res.status !== 200 || !isListEnvelope(res.body) || p === undefined) return failed(`no list answer: ${where}`);
      const items = uuidsOf(res);
      const want = {
        total: PAGE_BOOKINGS,
        total_pages: expectedPages,
        per_page: PER_PAGE,
        current_page: page,
        count: items.length,
      };
      for (const [name, value] of Object.entries(want)) {
        const got = (p as unknown as Record<string, unknown>)[name];
        if (got !== value) return failed(`${name} is ${JSON.stringify(got)}, expected ${String(value)}: ${where}`);
      }
      const expectedCount = Math.min(PER_PAGE, PAGE_BOOKINGS - (page - 1) * PER_PAGE);
      if (items.length !== expectedCount)
        return failed(
          `page ${String(page)} holds ${String(items.length)} items, expected ${String(expectedCount)}: ${where}`,
        );
      seen.push(...items);
    }
    const duplicates = seen.filter((u, i) => seen.indexOf(u) !== i);
    const missing = created.filter((u) => !seen.includes(u));
    if (duplicates.length > 0 || missing.length > 0) {
      return failed(
        `across the pages: duplicated ${JSON.stringify(duplicates)}, missing ${JSON.stringify(missing)} of ${JSON.stringify(created)}`,
      );
    }
    return passed;
  } finally {
    cancelAll(ctx, created);
  }
};

export const BOOKING_JUDGES: Record<string, Judge> = {
  "5-auth-required": authRequired,
  "5-voucher-links-need-key": voucherLinksNeedKey,
  "gaps-error-envelope": errorEnvelope,
  "gaps-error-405": error405,
  "gaps-error-413": error413,
  "gaps-error-400-malformed-json": error400MalformedJson,
  "gaps-error-400-validation": error400Validation,
  "3-initial-reserved": initialReserved,
  "4.3-bookings-filters": bookingsFilters,
};
