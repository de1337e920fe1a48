/**
 * The judges of the conformance rules about the booking state machine, the booking request and the booking errors
 * (lib/contract/conformance-rules.ts, docs/contract-gaps.md Booking states and Booking request): each sends its own few
 * requests through the public API and never reads another rule's answer. A judge that books cancels what it booked
 * before it returns (a `waiting` booking cannot be cancelled: the supplier decides it), so a run leaves nothing
 * reserved. Each rule is proven by a defect of the reference service that breaks it alone
 * (test/service/conformance-state-defects.test.ts).
 */
import { BOOKING_STATUSES, CUSTOMER_KEYS, ERROR_CODES, addDays, isRecord } from "../../contract/index.ts";
// Past the probe date the hook judges book on slots no other judge of the run touches, so seats add up.
import { CONFORMANCE_DAYS_AFTER_PROBE } from "../../contract/scenario-days.ts";
import type { ApiResponse, Json } from "../client.ts";
import { HooksClient } from "../hooks-client.ts";
import {
  bookableSlot,
  bookingRequest,
  cancelAll,
  cancelIfBooked,
  create,
  customerOf,
  errorAnswerProblem,
  errorEnvelopeProblem,
  first,
  runTag,
  uuidsOf,
  type Problem,
  type Slot,
} from "./booking-rules.ts";
import {
  answerEvidence,
  evidence,
  failed,
  notJudged,
  notJudgedByDesign,
  passed,
  type ConformanceContext,
  type Judge,
  type RawAnswer,
  type Verdict,
} from "./judge.ts";

const JSON_HEADERS = { "Content-Type": "application/json" };

/** The context with only the found product types `keep` accepts (bookableSlot then picks among those). */
function onlyTypes(ctx: ConformanceContext, keep: (t: ConformanceContext["productTypes"][number]) => boolean) {
  return { ...ctx, productTypes: ctx.productTypes.filter(keep) };
}

/** A booking request refused as docs/contract-gaps.md says: 400 invalid_params or 422 invalid_data, in the envelope. */
function refusedProblem(method: string, path: string, answer: RawAnswer): Problem {
  const as400 = errorAnswerProblem(method, path, answer, 400, ERROR_CODES.invalidParams);
  const as422 = errorAnswerProblem(method, path, answer, 422, ERROR_CODES.invalidData);
  if (as400 === undefined || as422 === undefined) return undefined;
  return `expected 400 invalid_params or 422 invalid_data in the error envelope: ${evidence(method, path, answer)}`;
}

function postRaw(ctx: ConformanceContext, body: unknown, key?: string | null): RawAnswer {
  const answer = ctx.raw({
    method: "POST",
    path: "/v2/bookings",
    body: JSON.stringify(body),
    headers: JSON_HEADERS,
    key,
  });
  cancelIfBooked(ctx, answer);
  return answer;
}

/** The uuid of a booking a raw answer made, if it made one. */
function bookedUuid(answer: RawAnswer): string | undefined {
  if (answer.status < 200 || answer.status > 299 || !isRecord(answer.json) || !isRecord(answer.json.data)) return;
  const uuid = answer.json.data.uuid;
  return typeof uuid === "string" ? uuid : undefined;
}

/**
 * Books one slot for `what` and runs `use` on the new booking; cancels it afterwards unless `use` says it already
 * did (or that it cannot be cancelled: a `waiting` booking is the supplier's to decide).
 */
function withBooking(
  ctx: ConformanceContext,
  slot: Slot | undefined,
  what: string,
  use: (uuid: string, created: ApiResponse<Json>) => { verdict: Verdict; cancelled?: boolean },
): Verdict {
  if (slot === undefined) return notJudged(`no product type found is bookable on ${ctx.probeDate} (${what})`);
  const tag = runTag();
  const made = create(ctx, bookingRequest(slot, `atd-conformance-${what}-${tag}`, customerOf(tag, "s")));
  if ("problem" in made) return notJudged(made.problem);
  let cancelled = false;
  try {
    const result = use(made.uuid, made.res);
    cancelled = result.cancelled === true;
    return result.verdict;
  } finally {
    if (!cancelled) cancelAll(ctx, [made.uuid]);
  }
}

/**
 * docs/contract-gaps.md Booking states: every `status` of a booking answer is one of the six. One booking (of an
 * instant-confirmation type when one is bookable, so it can be confirmed and cancelled again): the create, detail,
 * list item, confirm and cancel answers.
 */
const statusValues: Judge = (ctx) => {
  const slot = bookableSlot(ctx, 1, true) ?? bookableSlot(ctx, 1);
  const tag = runTag();
  if (slot === undefined) return notJudged(`no product type found is bookable on ${ctx.probeDate}`);
  const reference = `atd-conformance-statuses-${tag}`;
  const made = create(ctx, bookingRequest(slot, reference, customerOf(tag, "v")));
  if ("problem" in made) return notJudged(made.problem);
  const seen: { status: unknown; where: string }[] = [];
  const note = (method: string, path: string, res: ApiResponse<Json>) => {
    if (res.status >= 200 && res.status <= 299)
      seen.push({ status: res.data?.status, where: answerEvidence(method, path, res) });
  };
  let cancelled = false;
  try {
    note("POST", "/v2/bookings", made.res);
    const path = `/v2/bookings/${made.uuid}`;
    note("GET", path, ctx.client.getBooking(made.uuid));
    const list = ctx.client.listBookings({ partner_reference: reference });
    for (const item of list.data ?? []) {
      seen.push({
        status: item.status,
        where: answerEvidence("GET", `/v2/bookings?partner_reference=${reference}`, list),
      });
    }
    if (slot.type.instantConfirmation) note("PUT", `${path}/confirm`, ctx.client.confirmBooking(made.uuid));
    const cancel = ctx.client.cancelBooking(made.uuid);
    cancelled = cancel.status === 200;
    note("PUT", `${path}/cancel`, cancel);
    const wrong = seen.find(
      (s) => typeof s.status !== "string" || !(BOOKING_STATUSES as readonly string[]).includes(s.status),
    );
    if (wrong === undefined) return passed;
    return failed(
      `status ${JSON.stringify(wrong.status)} is not one of ${BOOKING_STATUSES.join(", ")}: ${wrong.where}`,
    );
  } finally {
    if (!cancelled) cancelAll(ctx, [made.uuid]);
  }
};

/** Confirms a fresh booking of `slot` and reads it back: `expected` both times, and an approved one has a voucher file. */
function confirmInto(ctx: ConformanceContext, slot: Slot, expected: "approved" | "waiting"): Verdict {
  return withBooking(ctx, slot, `confirm-${expected}`, (uuid) => {
    const path = `/v2/bookings/${uuid}`;
    const confirmed = ctx.client.confirmBooking(uuid);
    const read = ctx.client.getBooking(uuid);
    // A waiting booking cannot be cancelled (the supplier decides it); anything else is cancelled again.
    const cancelled = read.data?.status === "waiting";
    const kind = expected === "approved" ? "an instant-confirmation type" : "a type without instant confirmation";
    if (confirmed.status !== 200 || confirmed.data?.status !== expected) {
      return {
        verdict: failed(
          `confirming a booking of ${kind} did not answer ${expected}: ${answerEvidence("PUT", `${path}/confirm`, confirmed)}`,
        ),
        cancelled,
      };
    }
    if (read.data?.status !== expected) {
      return {
        verdict: failed(
          `the confirmed booking of ${kind} does not read ${expected}: ${answerEvidence("GET", path, read)}`,
        ),
        cancelled,
      };
    }
    if (expected === "waiting") return { verdict: passed, cancelled };
    const vouchers = ctx.client.listVouchers(uuid);
    const files = (vouchers.data ?? []).filter(
      (v) => Array.isArray(v.links) && v.links.some((l) => isRecord(l) && typeof l.href === "string"),
    );
    if (vouchers.status !== 200 || files.length === 0) {
      return {
        verdict: failed(
          `the approved booking has no voucher file: ${answerEvidence("GET", `${path}/vouchers`, vouchers)}`,
        ),
      };
    }
    return { verdict: passed };
  });
}

/**
 * docs/contract-gaps.md Booking states: confirm takes a reserved booking to `approved` (instant-confirmation types,
 * vouchers issued) or `waiting` (the others). A booking of each kind found; the waiting one is left to the supplier.
 */
const confirmTransitions: Judge = (ctx) => {
  const instant = bookableSlot(
    onlyTypes(ctx, (t) => t.instantConfirmation),
    1,
  );
  const later = bookableSlot(
    onlyTypes(ctx, (t) => !t.instantConfirmation),
    1,
  );
  if (instant === undefined && later === undefined) {
    return notJudged(`no product type found is bookable on ${ctx.probeDate}`);
  }
  const verdicts: Verdict[] = [];
  if (instant !== undefined) verdicts.push(confirmInto(ctx, instant, "approved"));
  if (later !== undefined) verdicts.push(confirmInto(ctx, later, "waiting"));
  return (
    verdicts.find((v) => "problem" in v && v.problem !== undefined) ?? verdicts.find((v) => "notJudged" in v) ?? passed
  );
};

/**
 * docs/contract-gaps.md Booking states: cancel on a reserved booking answers 200 with cancellationRequestStatus
 * `pending` and the status kept; the next read agrees. The cancel is the judge's own clean-up too.
 */
const cancelPending: Judge = (ctx) =>
  withBooking(ctx, bookableSlot(ctx, 1), "cancel-pending", (uuid) => {
    const path = `/v2/bookings/${uuid}`;
    const cancel = ctx.client.cancelBooking(uuid);
    const cancelled = cancel.status === 200;
    const pending = (res: ApiResponse<Json>) =>
      res.status === 200 && res.data?.cancellationRequestStatus === "pending" && res.data.status === "reserved";
    const states = (res: ApiResponse<Json>) =>
      `status ${JSON.stringify(res.data?.status)}, cancellationRequestStatus ${JSON.stringify(res.data?.cancellationRequestStatus)}`;
    if (!pending(cancel)) {
      return {
        verdict: failed(
          `cancel on a reserved booking did not answer reserved with a pending cancellation request (${states(cancel)}): ${answerEvidence("PUT", `${path}/cancel`, cancel)}`,
        ),
        cancelled,
      };
    }
    const read = ctx.client.getBooking(uuid);
    if (!pending(read)) {
      return {
        verdict: failed(
          `after the cancel the booking does not read reserved with a pending request (${states(read)}): ${answerEvidence("GET", path, read)}`,
        ),
        cancelled,
      };
    }
    return { verdict: passed, cancelled };
  });

/** spec 3: a transition is `confirm` or `cancel`; another segment (approve) is refused and changes nothing. */
const statusSegments: Judge = (ctx) =>
  withBooking(ctx, bookableSlot(ctx, 1), "segments", (uuid) => {
    const path = `/v2/bookings/${uuid}/approve`;
    const answer = ctx.raw({ method: "PUT", path });
    const as404 = errorAnswerProblem("PUT", path, answer, 404, ERROR_CODES.notFound);
    const as400 = errorAnswerProblem("PUT", path, answer, 400, ERROR_CODES.invalidParams);
    if (as404 !== undefined && as400 !== undefined) {
      return {
        verdict: failed(
          `expected 404 not_found or 400 invalid_params in the error envelope: ${evidence("PUT", path, answer)}`,
        ),
      };
    }
    const read = ctx.client.getBooking(uuid);
    if (read.data?.status !== "reserved") {
      return {
        verdict: failed(
          `the refused ${path} changed the booking: ${answerEvidence("GET", `/v2/bookings/${uuid}`, read)}`,
        ),
      };
    }
    return { verdict: passed };
  });

/**
 * docs/contract-gaps.md Booking request: without date, without productTypeUuid, without the timeslot of a timeslotted
 * type, or with a 101-character partnerReference, a booking request is refused and books nothing.
 */
const bookingRequestRules: Judge = (ctx) => {
  const slot =
    bookableSlot(
      onlyTypes(ctx, (t) => t.timeslotted),
      1,
    ) ?? bookableSlot(ctx, 1);
  if (slot === undefined) return notJudged(`no product type found is bookable on ${ctx.probeDate}`);
  const tag = runTag();
  const base = bookingRequest(slot, `atd-conformance-request-${tag}`, customerOf(tag, "q"));
  const cases: [string, Record<string, unknown>][] = [
    ["without date", { ...base, date: undefined }],
    ["without productTypeUuid", { ...base, productTypeUuid: undefined }],
    [
      "with a 101-character partnerReference",
      { ...base, partnerReference: `${base.partnerReference ?? ""}-`.padEnd(101, "x") },
    ],
  ];
  if (slot.timeslot !== undefined)
    cases.push(["without the timeslot of a timeslotted type", { ...base, timeslot: undefined }]);
  const before = ctx.client.listBookings({ per_page: 1 });
  const problems: Problem[] = [];
  for (const [what, body] of cases) {
    const problem = refusedProblem("POST", "/v2/bookings", postRaw(ctx, body));
    problems.push(problem && `${what}: ${problem}`);
  }
  const after = ctx.client.listBookings({ per_page: 1 });
  if (before.pagination?.total !== after.pagination?.total) {
    problems.push(
      `the key's bookings went from ${String(before.pagination?.total)} to ${String(after.pagination?.total)}: ${answerEvidence("GET", "/v2/bookings?per_page=1", after)}`,
    );
  }
  return first(problems);
};

/**
 * spec 2.10: a customer of exactly firstName, lastName, salutation, email, phone is taken: the booking is made, its
 * detail echoes the customer, and the list filters find it by each contact field. (Its status is 3-initial-reserved's.)
 */
const customerObject: Judge = (ctx) => {
  const slot = bookableSlot(ctx, 1);
  if (slot === undefined) return notJudged(`no product type found is bookable on ${ctx.probeDate}`);
  const tag = runTag();
  const customer = customerOf(tag, "c");
  const made = create(ctx, bookingRequest(slot, `atd-conformance-customer-${tag}`, customer));
  if ("problem" in made)
    return failed(`a customer of exactly ${CUSTOMER_KEYS.join(", ")} was refused: ${made.problem}`);
  try {
    const read = ctx.client.getBooking(made.uuid);
    const echoed = read.data?.customer;
    const lost = CUSTOMER_KEYS.filter((k) => !isRecord(echoed) || echoed[k] !== customer[k]);
    if (lost.length > 0) {
      return failed(
        `the detail does not echo customer ${lost.join(", ")}: ${answerEvidence("GET", `/v2/bookings/${made.uuid}`, read)}`,
      );
    }
    const filters = {
      first_name: customer.firstName,
      last_name: customer.lastName,
      email: customer.email,
      phone: customer.phone,
    };
    const problems: Problem[] = [];
    for (const [name, value] of Object.entries(filters)) {
      const res = ctx.client.listBookings({ [name]: value });
      if (res.status !== 200 || !uuidsOf(res).includes(made.uuid)) {
        problems.push(
          `${name} does not find the booking: ${answerEvidence("GET", `/v2/bookings?${name}=${value}`, res)}`,
        );
      }
    }
    return first(problems);
  } finally {
    cancelAll(ctx, [made.uuid]);
  }
};

/**
 * spec 9: `adults` replaced v1's `pax`. A body with pax and no adults is not booked as pax people (refused, or booked
 * without them: a finding, logged); a body with adults books that many.
 */
const paxReplaced: Judge = (ctx) => {
  const slot = bookableSlot(ctx, 2);
  if (slot === undefined) return notJudged(`no product type found has two bookings' seats on ${ctx.probeDate}`);
  const tag = runTag();
  const base = bookingRequest(slot, `atd-conformance-pax-${tag}`, customerOf(tag, "x"));
  const pax = base.adults;
  const answer = ctx.raw({
    method: "POST",
    path: "/v2/bookings",
    body: JSON.stringify({ ...base, adults: undefined, pax }),
    headers: JSON_HEADERS,
  });
  const uuid = bookedUuid(answer);
  if (uuid !== undefined) {
    try {
      const read = ctx.client.getBooking(uuid);
      if (read.data?.adults === pax) {
        return failed(
          `a body with pax ${String(pax)} and no adults was booked for ${String(pax)} adults: ${evidence("POST", "/v2/bookings", answer)}`,
        );
      }
      console.warn(
        `conformance: 9-pax-replaced: a body with pax and no adults was booked without them: ${evidence("POST", "/v2/bookings", answer)}`,
      );
    } finally {
      cancelAll(ctx, [uuid]);
    }
  } else {
    const problem = refusedProblem("POST", "/v2/bookings", answer);
    if (problem !== undefined) return failed(`a body with pax and no adults: ${problem}`);
  }
  return withBooking(ctx, slot, "adults", (booked) => {
    const read = ctx.client.getBooking(booked);
    if (read.data?.adults !== base.adults) {
      return {
        verdict: failed(
          `adults ${String(base.adults)} booked, the detail says: ${answerEvidence("GET", `/v2/bookings/${booked}`, read)}`,
        ),
      };
    }
    return { verdict: passed };
  });
};

/** spec 1: a required option left out of a booking request is refused, and nothing is booked. */
const requiredOptions: Judge = (ctx) => {
  const slot = bookableSlot(
    onlyTypes(ctx, (t) => t.requiredOptions.length > 0),
    1,
  );
  if (slot === undefined) {
    return notJudged(`no product type found with a required option is bookable on ${ctx.probeDate}`);
  }
  const tag = runTag();
  const reference = `atd-conformance-options-${tag}`;
  const answer = postRaw(ctx, { ...bookingRequest(slot, reference, customerOf(tag, "o")), options: [] });
  const problem = refusedProblem("POST", "/v2/bookings", answer);
  if (problem !== undefined)
    return failed(`a booking without the required option ${slot.type.requiredOptions[0]?.uuid ?? ""}: ${problem}`);
  const list = ctx.client.listBookings({ partner_reference: reference });
  if (list.status !== 200 || uuidsOf(list).length > 0) {
    return failed(
      `the refused request booked something: ${answerEvidence("GET", `/v2/bookings?partner_reference=${reference}`, list)}`,
    );
  }
  return passed;
};

/**
 * spec 5: the key identifies the partner. A booking made with one key of the run is neither readable, listed,
 * confirmable nor cancellable with another.
 */
const keyIdentifiesPartner: Judge = (ctx) => {
  const own = ctx.client.options.apiKey;
  const other = ctx.config.apiKeys.find((k) => k !== own);
  if (other === undefined) return notJudged("the run has one API key; a second partner's key is needed");
  const slot = bookableSlot(ctx, 1);
  if (slot === undefined) return notJudged(`no product type found is bookable on ${ctx.probeDate}`);
  const tag = runTag();
  const reference = `atd-conformance-partner-${tag}`;
  const made = create(ctx, bookingRequest(slot, reference, customerOf(tag, "k")));
  if ("problem" in made) return notJudged(made.problem);
  try {
    const base = `/v2/bookings/${made.uuid}`;
    const problems: Problem[] = [];
    for (const [method, path] of [
      ["GET", base],
      ["PUT", `${base}/confirm`],
      ["PUT", `${base}/cancel`],
    ] as const) {
      const problem = errorAnswerProblem(
        method,
        path,
        ctx.raw({ method, path, key: other }),
        404,
        ERROR_CODES.notFound,
      );
      problems.push(problem && `with another partner's key: ${problem}`);
    }
    const listPath = `/v2/bookings?partner_reference=${reference}`;
    const list = ctx.raw({ method: "GET", path: listPath, key: other });
    const listed = isRecord(list.json) && Array.isArray(list.json.data) ? list.json.data : undefined;
    if (list.status !== 200 || listed === undefined || listed.length > 0) {
      problems.push(`another partner's key lists the booking (or no list): ${evidence("GET", listPath, list)}`);
    }
    return first(problems);
  } finally {
    cancelAll(ctx, [made.uuid]);
  }
};

/**
 * docs/contract-gaps.md errors: a request that cannot be booked (adults above maxPax; a date the calendar shows
 * unavailable, when the next two weeks hold one) is 422 invalid_data and books nothing.
 */
const error422InvalidData: Judge = (ctx) => {
  const slot = bookableSlot(ctx, 1);
  if (slot === undefined) return notJudged(`no product type found is bookable on ${ctx.probeDate}`);
  const tag = runTag();
  const base = bookingRequest(slot, `atd-conformance-invalid-data-${tag}`, customerOf(tag, "d"));
  const problems: Problem[] = [];
  const over = postRaw(ctx, { ...base, adults: slot.type.maxPax + 1 });
  const tooMany = errorAnswerProblem("POST", "/v2/bookings", over, 422, ERROR_CODES.invalidData);
  problems.push(
    tooMany && `adults ${String(slot.type.maxPax + 1)} above maxPax ${String(slot.type.maxPax)}: ${tooMany}`,
  );
  const start = ctx.probeDate;
  const calendar = ctx.client.getPriceList(slot.type.uuid, start, addDays(start, 13));
  const closed = (calendar.data ?? []).find((d) => d.available === false && typeof d.date === "string");
  if (closed !== undefined) {
    const date = String(closed.date);
    const answer = postRaw(ctx, { ...base, date });
    const problem = errorAnswerProblem("POST", "/v2/bookings", answer, 422, ERROR_CODES.invalidData);
    // Another writer may have reopened the day between the calendar read and the booking (churn; the alternatives
    // scenario's blocks reach into these 14 days): held against the service only if the day is still closed.
    if (problem !== undefined && stillUnavailable(ctx, slot.type.uuid, date)) {
      problems.push(`on ${date}, which the calendar shows unavailable: ${problem}`);
    }
  }
  return first(problems);
};

/** Whether the calendar still shows the day unavailable (read again after a booking on it went through). */
function stillUnavailable(ctx: ConformanceContext, uuid: string, date: string): boolean {
  const again = ctx.client.getPriceList(uuid, date, date);
  return (again.data ?? []).some((d) => d.date === date && d.available === false);
}

/** spec 9: POST /v2/bookings/check is gone: 404 not_found or 405 method_not_allowed, never a 2xx. */
const bookingCheckRemoved: Judge = (ctx) => {
  const type = ctx.productTypes[0];
  const tag = runTag();
  const body =
    type === undefined
      ? {}
      : bookingRequest(
          { type, date: ctx.probeDate, timeslot: type.timeslots[0] },
          `atd-conformance-check-${tag}`,
          customerOf(tag, "h"),
        );
  const path = "/v2/bookings/check";
  const check = ctx.raw({ method: "POST", path, body: JSON.stringify(body), headers: JSON_HEADERS });
  cancelIfBooked(ctx, check);
  const as404 = errorAnswerProblem("POST", path, check, 404, ERROR_CODES.notFound);
  const as405 = errorAnswerProblem("POST", path, check, 405, ERROR_CODES.methodNotAllowed);
  if (as404 === undefined || as405 === undefined) return passed;
  return failed(
    `expected 404 not_found or 405 method_not_allowed in the error envelope: ${evidence("POST", path, check)}`,
  );
};

/**
 * docs/contract-gaps.md errors: a service failure is 500 internal_error. Nothing a client may do makes a correct service
 * fail, and no required hook does either (the reference's PUT /__control/faults is a reference hook): not judged here.
 */
/**
 * docs/contract-gaps.md: a service that fails answers 500 internal_error in the error envelope. No public request nor
 * required hook makes a correct service fail, so this rule is judged only where the optional fault hook answers (the
 * reference extensions): every GET /v2/config fails for one request, then the faults are put back as they were.
 */
const error500: Judge = (ctx) => {
  const hooks = hooksOf(ctx);
  if (typeof hooks === "string")
    return notJudgedByDesign(`${hooks}; a correct service fails only when a fault is injected`);
  const before = hooks.optional("faults");
  if (before === undefined) {
    return notJudgedByDesign(
      "no request of the public API nor any required hook makes a correct service fail; the optional fault hook (PUT /__control/faults) is not offered here",
    );
  }
  const faults = isRecord(before) ? before : {};
  const routes = isRecord(faults.routes) ? faults.routes : {};
  const path = "/v2/config";
  hooks.call("faultsSet", { body: { ...faults, routes: { ...routes, config: { errorRate: 1 } } } });
  try {
    const answer = ctx.raw({ method: "GET", path });
    const problem = errorAnswerProblem("GET", path, answer, 500, ERROR_CODES.internal);
    if (problem !== undefined) return failed(`an injected failure: ${problem}`);
    const envelope = errorEnvelopeProblem(answer.status, answer.header("Content-Type") ?? "", answer.json);
    return envelope === undefined ? passed : failed(`${envelope}: ${evidence("GET", path, answer)}`);
  } finally {
    hooks.call("faultsSet", { body: faults });
  }
};

/** Service time the clock judges move on, step by step, until the booking is decided: a day in all. */
const CLOCK_STEPS_SECONDS = [120, 3_480, 82_800] as const;

/** The context's control API, or why a judge cannot use it. */
function hooksOf(ctx: ConformanceContext): HooksClient | string {
  if (!ctx.hooks || ctx.config.control === undefined)
    return "needs the test hooks, and this run has none (public API only)";
  return new HooksClient(ctx.config.control);
}

/** The free seats of a slot by GET /__control/inventory: remaining, and the supplier's own figure when it shows it. */
function slotSeats(hooks: HooksClient, slot: Slot): { remaining: number; supply: number | undefined } | undefined {
  const answer = hooks.exchange("inventory", {
    params: { productTypeUuid: slot.type.uuid },
    query: { date_start: slot.date, date_end: slot.date },
  });
  const day = isRecord(answer.data) && Array.isArray(answer.data.days) ? answer.data.days.find(isRecord) : undefined;
  if (answer.status !== 200 || day === undefined) return undefined;
  const at =
    slot.timeslot === undefined
      ? day
      : (Array.isArray(day.timeslots) ? day.timeslots.filter(isRecord) : []).find((t) => t.timeslot === slot.timeslot);
  if (at === undefined || typeof at.remaining !== "number") return undefined;
  return { remaining: at.remaining, supply: typeof at.supply === "number" ? at.supply : undefined };
}

function setSeats(hooks: HooksClient, slot: Slot, remaining: number): number {
  const body = { remaining, ...(slot.timeslot === undefined ? {} : { timeslot: slot.timeslot }) };
  return hooks.exchange("inventorySet", { params: { productTypeUuid: slot.type.uuid, date: slot.date }, body }).status;
}

/** A bookable slot `days` past the probe date. */
function slotAhead(ctx: ConformanceContext, days: number, instant = false): Slot | undefined {
  return bookableSlot({ ...ctx, probeDate: addDays(ctx.probeDate, days) }, 1, instant);
}

/**
 * Moves the service clock on (POST /__control/clock) step by step, a day of service time in all, until `settled` says
 * the booking read after a step is settled; the last read either way. The clock cannot be put back.
 */
function advanceUntil(
  ctx: ConformanceContext,
  hooks: HooksClient,
  uuid: string,
  settled: (read: ApiResponse<Json>) => boolean,
): ApiResponse<Json> {
  let read = ctx.client.getBooking(uuid);
  for (const seconds of CLOCK_STEPS_SECONDS) {
    if (settled(read)) break;
    hooks.call("clockChange", { body: { advanceSeconds: seconds } });
    read = ctx.client.getBooking(uuid);
  }
  return read;
}

/**
 * spec 7.2, docs/contract-gaps.md errors: a confirmation that fails answers 422 prices_mismatch in the envelope. With
 * the hooks, the slot of a fresh reservation is sold out (PUT /__control/inventory), the confirm made to fail, and the
 * seats put back (the supplier's figure when the inventory answer shows it, else the remaining read before booking, on
 * a date no other judge books); without them nothing here makes a confirm fail.
 */
const error422PricesMismatch: Judge = (ctx) => {
  const hooks = hooksOf(ctx);
  if (typeof hooks === "string")
    return notJudgedByDesign(`${hooks}: a confirm is made to fail by selling its slot out`);
  const slot = slotAhead(ctx, CONFORMANCE_DAYS_AFTER_PROBE.pricesMismatch);
  if (slot === undefined)
    return notJudged(
      `no product type found is bookable ${String(CONFORMANCE_DAYS_AFTER_PROBE.pricesMismatch)} days after ${ctx.probeDate}`,
    );
  const before = slotSeats(hooks, slot);
  if (before === undefined)
    return notJudged(`GET /__control/inventory shows no remaining for ${slot.type.uuid} on ${slot.date}`);
  return withBooking(ctx, slot, "prices-mismatch", (uuid) => {
    const soldOut = setSeats(hooks, slot, 0);
    try {
      if (soldOut !== 200) return { verdict: notJudged(`PUT /__control/inventory answered ${String(soldOut)}`) };
      const path = `/v2/bookings/${uuid}/confirm`;
      const answer = ctx.raw({ method: "PUT", path });
      const problem = errorAnswerProblem("PUT", path, answer, 422, ERROR_CODES.pricesMismatch);
      if (problem !== undefined) return { verdict: failed(`a confirm of a sold-out slot: ${problem}`) };
      const message = isRecord(answer.json) && isRecord(answer.json.error) ? answer.json.error.message : undefined;
      if (typeof message !== "string" || message === "") {
        return { verdict: failed(`the 422 has no error.message: ${evidence("PUT", path, answer)}`) };
      }
      return { verdict: passed };
    } finally {
      setSeats(hooks, slot, before.supply ?? before.remaining);
    }
  });
};

/**
 * docs/contract-gaps.md Booking states: a `waiting` booking is approved or rejected by the supplier after a delay. A
 * booking of a type without instant confirmation, confirmed, read after the clock moves on (up to a day of service
 * time: still waiting then is a finding, logged, not a failure); an approved one is cancelled again.
 */
const waitingDecided: Judge = (ctx) => {
  const hooks = hooksOf(ctx);
  if (typeof hooks === "string") return notJudgedByDesign(hooks);
  const slot = bookableSlot(
    onlyTypes(ctx, (t) => !t.instantConfirmation),
    1,
  );
  if (slot === undefined) return notJudged(`no type without instant confirmation is bookable on ${ctx.probeDate}`);
  return withBooking(ctx, slot, "waiting-decided", (uuid) => {
    const path = `/v2/bookings/${uuid}`;
    const confirmed = ctx.client.confirmBooking(uuid);
    if (confirmed.status !== 200 || confirmed.data?.status !== "waiting") {
      const cancelled = confirmed.data?.status === "rejected";
      const why = `the confirm did not give a waiting booking (gaps-states-confirm's rule): ${answerEvidence("PUT", `${path}/confirm`, confirmed)}`;
      return { verdict: notJudged(why), cancelled };
    }
    const read = advanceUntil(ctx, hooks, uuid, (r) => r.data?.status !== "waiting");
    const status = read.data?.status;
    if (status === "waiting") {
      const finding = `still waiting after a day of service time: ${answerEvidence("GET", path, read)}`;
      console.warn(`conformance: gaps-states-waiting-decided: ${finding}`);
      return { verdict: notJudgedByDesign(`a finding, not a failure: ${finding}`), cancelled: true };
    }
    if (status !== "approved" && status !== "rejected") {
      return {
        verdict: failed(
          `the waiting booking became ${JSON.stringify(status)}, not approved or rejected: ${answerEvidence("GET", path, read)}`,
        ),
        cancelled: status !== "reserved" && status !== "approved",
      };
    }
    return { verdict: passed, cancelled: status === "rejected" };
  });
};

/**
 * docs/contract-gaps.md Booking states: an approved cancellation request ends in `cancelled` and gives the seats back.
 * A fresh booking on a slot no other judge books, cancelled, read after the clock moves on (up to a day of service
 * time: still pending then is a finding), and the slot's remaining (GET /__control/inventory) back where it was.
 */
const cancelledReleases: Judge = (ctx) => {
  const hooks = hooksOf(ctx);
  if (typeof hooks === "string") return notJudgedByDesign(hooks);
  const slot = slotAhead(ctx, CONFORMANCE_DAYS_AFTER_PROBE.cancelled);
  if (slot === undefined)
    return notJudged(
      `no product type found is bookable ${String(CONFORMANCE_DAYS_AFTER_PROBE.cancelled)} days after ${ctx.probeDate}`,
    );
  const before = slotSeats(hooks, slot);
  if (before === undefined)
    return notJudged(`GET /__control/inventory shows no remaining for ${slot.type.uuid} on ${slot.date}`);
  return withBooking(ctx, slot, "cancelled", (uuid) => {
    const path = `/v2/bookings/${uuid}`;
    const cancel = ctx.client.cancelBooking(uuid);
    if (cancel.status !== 200) {
      return {
        verdict: notJudged(
          `the cancel was refused (gaps-states-cancel-pending's rule): ${answerEvidence("PUT", `${path}/cancel`, cancel)}`,
        ),
      };
    }
    const read = advanceUntil(
      ctx,
      hooks,
      uuid,
      (r) => r.data?.status === "cancelled" || r.data?.cancellationRequestStatus !== "pending",
    );
    if (read.data?.status !== "cancelled") {
      if (read.data?.cancellationRequestStatus === "pending") {
        const finding = `the cancellation request is still pending after a day of service time: ${answerEvidence("GET", path, read)}`;
        console.warn(`conformance: gaps-states-cancelled: ${finding}`);
        return { verdict: notJudgedByDesign(`a finding, not a failure: ${finding}`), cancelled: true };
      }
      return {
        verdict: failed(`the approved cancellation did not end in cancelled: ${answerEvidence("GET", path, read)}`),
        cancelled: true,
      };
    }
    const after = slotSeats(hooks, slot);
    if (after === undefined || after.remaining < before.remaining) {
      return {
        verdict: failed(
          `the cancelled booking's seats were not given back: remaining ${String(before.remaining)} before it was booked, ${String(after?.remaining)} after it was cancelled (GET /__control/inventory/${slot.type.uuid} on ${slot.date}${slot.timeslot === undefined ? "" : ` ${slot.timeslot}`})`,
        ),
        cancelled: true,
      };
    }
    return { verdict: passed, cancelled: true };
  });
};

export const STATE_JUDGES: Record<string, Judge> = {
  "gaps-states-status-values": statusValues,
  "gaps-states-confirm": confirmTransitions,
  "gaps-states-cancel-pending": cancelPending,
  "3-status-segments": statusSegments,
  "gaps-booking-request": bookingRequestRules,
  "2.10-customer-object": customerObject,
  "9-pax-replaced": paxReplaced,
  "1-required-options": requiredOptions,
  "5-key-identifies-partner": keyIdentifiesPartner,
  "gaps-error-422-invalid-data": error422InvalidData,
  "9-booking-check-removed": bookingCheckRemoved,
  "gaps-error-500": error500,
  "gaps-error-422-prices-mismatch": error422PricesMismatch,
  "gaps-states-waiting-decided": waitingDecided,
  "gaps-states-cancelled": cancelledReleases,
};
