/**
 * The judges of lib/k6/conformance/state-rules.ts under the k6 shims, against a small in-memory partner API: the
 * correct one passes each rule; each broken variant (the reference service's conformance defects, in miniature)
 * fails the rule with the answer as evidence and leaves every other rule passing; and no booking a judge made is left
 * reserved without a cancellation request.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../lib/k6/client.ts";
import type { K6Config } from "../../lib/k6/config.ts";
import {
  type ConformanceContext,
  type FoundProductType,
  type RawAnswer,
  type Verdict,
  sendRaw,
  type RawRequest,
} from "../../lib/k6/conformance/judge.ts";
import { STATE_JUDGES } from "../../lib/k6/conformance/state-rules.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";

const BASE = "http://127.0.0.1:9";
const CONTROL = "http://127.0.0.1:8";
/** Free seats of every slot the fake has not been told otherwise of. */
const SEEDED_SEATS = 9;
const KEY = "key-1";
const OTHER_KEY = "key-2";
const PROBE_DATE = "2030-03-01";
/** The one date of the fake calendar that is not bookable. */
const CLOSED_DATE = "2030-03-10";

type Breakage =
  | "list-status-upper-case"
  | "confirm-waiting-as-approved"
  | "cancel-at-once"
  | "approve-segment-confirms"
  | "partner-reference-unbounded"
  | "customer-salutation-dropped"
  | "pax-accepted"
  | "required-options-ignored"
  | "bookings-shared-across-keys"
  | "over-max-pax-400"
  | "booking-check-kept"
  | "confirm-failure-as-409"
  | "waiting-decided-back-to-reserved"
  | "cancel-keeps-seats"
  | "closed-day-bookable";

interface Booking {
  uuid: string;
  key: string;
  type: FoundProductType;
  status: string;
  cancellation: string | null;
  adults: number;
  customer: Record<string, string>;
  reference: string;
  vouchers: string[];
  date: string;
  timeslot: string | undefined;
  /** Whether its seats went back to the slot. */
  released: boolean;
}

const INSTANT: FoundProductType = {
  uuid: "pt-instant",
  productUuid: "p-1",
  available: true,
  timeslots: ["10:00"],
  timeslotted: true,
  instantConfirmation: true,
  daysInAdvance: 0,
  minPax: 1,
  maxPax: 5,
  categories: ["adults"],
  requiredOptions: [{ uuid: "opt-1", type: "text", values: [] }],
};

const ON_REQUEST: FoundProductType = {
  ...INSTANT,
  uuid: "pt-on-request",
  timeslots: [],
  timeslotted: false,
  instantConfirmation: false,
  requiredOptions: [],
};

const TYPES = [INSTANT, ON_REQUEST];

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ShimResponse => ({
  status,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** The partner API in miniature: what the state judges ask, answered as docs/contract-gaps.md says, or broken. */
class FakeApi {
  readonly bookings: Booking[] = [];
  readonly broken: Set<Breakage>;
  /** The supplier's free seats by slot (type|date|timeslot) that PUT /__control/inventory set. */
  readonly supply = new Map<string, number>();
  clockAdvanced = 0;
  /** Another writer (churn, another scenario) opens CLOSED_DATE once a calendar has shown it closed. */
  reopensClosedDay = false;
  closedDayOpen = false;

  constructor(broken: Breakage[] = []) {
    this.broken = new Set(broken);
  }

  error(status: number, code: string, path: string): ShimResponse {
    return json(status, {
      error: { code, message: `${code} at ${path}`, http_code: status },
      links: [{ rel: "self", href: path, method: "GET" }],
      timestamp: "2030-01-01T00:00:00.000Z",
    });
  }

  detail(b: Booking): unknown {
    const customer = { ...b.customer };
    if (this.broken.has("customer-salutation-dropped")) delete customer.salutation;
    return {
      data: {
        uuid: b.uuid,
        status: b.status,
        cancellationRequestStatus: b.cancellation,
        adults: b.adults,
        customer,
      },
      links: [],
    };
  }

  remaining(type: string, date: string, timeslot: string | undefined): number {
    const slot = `${type}|${date}|${timeslot ?? ""}`;
    const held = this.bookings.filter(
      (b) => !b.released && `${b.type.uuid}|${b.date}|${b.timeslot ?? ""}` === slot,
    ).length;
    return (this.supply.get(slot) ?? SEEDED_SEATS) - held;
  }

  /** The control API's inventory and clock (required hooks), as a required-hooks service answers them. */
  control(method: string, url: URL, body: string | null): ShimResponse {
    const parts = url.pathname.split("/").slice(1);
    const type = TYPES.find((t) => t.uuid === parts[2]);
    if (type === undefined) return this.error(404, "not_found", url.pathname);
    const timeslots = type.timeslotted ? type.timeslots : [undefined];
    if (method === "GET" && parts[1] === "inventory") {
      const date = url.searchParams.get("date_start") ?? "";
      const slots = timeslots.map((t) => ({ timeslot: t, remaining: this.remaining(type.uuid, date, t) }));
      const day = type.timeslotted
        ? { date, remaining: slots.reduce((n, x) => n + x.remaining, 0), timeslots: slots }
        : { date, remaining: slots[0]?.remaining };
      return json(200, { data: { timeslotted: type.timeslotted, days: [day] } });
    }
    if (method === "PUT" && parts[1] === "inventory") {
      const change = JSON.parse(body ?? "{}") as { remaining: number; timeslot?: string };
      for (const t of change.timeslot === undefined ? timeslots : [change.timeslot]) {
        this.supply.set(`${type.uuid}|${String(parts[3])}|${t ?? ""}`, change.remaining);
      }
      return json(200, { data: {} });
    }
    return this.error(404, "not_found", url.pathname);
  }

  /** POST /__control/clock: the supplier decides waiting bookings and approves pending cancellations. */
  advance(seconds: number): ShimResponse {
    this.clockAdvanced += seconds;
    for (const b of this.bookings) {
      if (b.status === "waiting")
        b.status = this.broken.has("waiting-decided-back-to-reserved") ? "reserved" : "approved";
      if (b.cancellation === "pending") {
        b.cancellation = "approved";
        b.status = "cancelled";
        b.released = !this.broken.has("cancel-keeps-seats");
      }
    }
    return json(200, { data: { now: "2030-01-01T00:00:00Z", nowMs: 0, timeScale: 1 } });
  }

  handle(method: string, url: string, body: string | null, headers: Record<string, string>): ShimResponse {
    const { pathname: path, searchParams: query } = new URL(url);
    if (url.startsWith(CONTROL)) {
      if (headers["X-Control-Token"] !== "control-token") return this.error(401, "unauthorized", path);
      if (path === "/__control/clock" && method === "POST") {
        return this.advance((JSON.parse(body ?? "{}") as { advanceSeconds: number }).advanceSeconds);
      }
      return this.control(method, new URL(url), body);
    }
    const key = headers["X-Authorization"] ?? "";
    if (key !== KEY && key !== OTHER_KEY) return this.error(401, "GEN-UNAUTHORIZED", path);
    const parts = path.split("/").slice(1);
    if (parts[1] === "product-types" && parts[3] === "price-lists" && method === "GET") {
      const type = TYPES.find((t) => t.uuid === parts[2]);
      if (parts[4] !== undefined) {
        const timeslots = type?.timeslotted ? [{ timeslot: "10:00", available: true, remaining: 9 }] : [];
        return json(200, { data: { date: parts[4], available: true, timeslots }, links: [] });
      }
      const start = new Date(`${query.get("date_start") ?? ""}T00:00:00Z`).getTime();
      const data = Array.from({ length: 14 }, (_, i) =>
        new Date(start + i * 86_400_000).toISOString().slice(0, 10),
      ).map((date) => ({ date, available: date !== CLOSED_DATE || this.closedDayOpen }));
      if (this.reopensClosedDay && data.some((d) => !d.available)) this.closedDayOpen = true;
      return json(200, { data, meta: { pagination: { total: 14 } }, links: [] });
    }
    if (path === "/v2/bookings/check" && method === "POST") {
      return this.broken.has("booking-check-kept")
        ? json(200, { data: { available: true }, links: [] })
        : this.error(405, "method_not_allowed", path);
    }
    if (path === "/v2/bookings" && method === "POST") return this.create(key, path, body ?? "");
    if (path === "/v2/bookings" && method === "GET") return this.list(key, query);
    const booking = parts[1] === "bookings" ? this.bookings.find((b) => b.uuid === parts[2]) : undefined;
    const visible = booking !== undefined && (booking.key === key || this.broken.has("bookings-shared-across-keys"));
    if (visible) return this.onBooking(method, path, parts[3], booking);
    return this.error(404, "not_found", path);
  }

  create(key: string, path: string, text: string): ShimResponse {
    const request = JSON.parse(text) as Record<string, unknown>;
    const adults = request.adults === undefined && this.broken.has("pax-accepted") ? request.pax : request.adults;
    const customer = request.customer as Record<string, string> | undefined;
    const reference = request.partnerReference;
    const tooLong = typeof reference === "string" && reference.length > 100;
    if (
      typeof request.productTypeUuid !== "string" ||
      typeof request.date !== "string" ||
      typeof adults !== "number" ||
      customer === undefined ||
      (tooLong && !this.broken.has("partner-reference-unbounded"))
    ) {
      return this.error(400, "invalid_params", path);
    }
    const type = TYPES.find((t) => t.uuid === request.productTypeUuid);
    if (type === undefined) return this.error(422, "invalid_data", path);
    if (adults > type.maxPax) {
      return this.error(
        this.broken.has("over-max-pax-400") ? 400 : 422,
        this.broken.has("over-max-pax-400") ? "invalid_params" : "invalid_data",
        path,
      );
    }
    const options = Array.isArray(request.options) ? (request.options as { uuid: string }[]) : [];
    const missing = type.requiredOptions.some((o) => !options.some((x) => x.uuid === o.uuid));
    if (
      (type.timeslotted && request.timeslot === undefined) ||
      (missing && !this.broken.has("required-options-ignored")) ||
      (request.date === CLOSED_DATE && !this.closedDayOpen && !this.broken.has("closed-day-bookable"))
    ) {
      return this.error(422, "invalid_data", path);
    }
    const b: Booking = {
      uuid: `b-${String(this.bookings.length + 1)}`,
      key,
      type,
      status: "reserved",
      cancellation: null,
      adults,
      customer,
      reference: String(reference),
      vouchers: [],
      date: request.date,
      timeslot: typeof request.timeslot === "string" ? request.timeslot : undefined,
      released: false,
    };
    this.bookings.push(b);
    return json(201, this.detail(b));
  }

  list(key: string, query: URLSearchParams): ShimResponse {
    const is = (name: string, value: string) => query.get(name) === null || query.get(name) === value;
    const found = this.bookings.filter(
      (b) =>
        b.key === key &&
        is("first_name", b.customer.firstName ?? "") &&
        is("last_name", b.customer.lastName ?? "") &&
        is("email", b.customer.email ?? "") &&
        is("phone", b.customer.phone ?? "") &&
        is("partner_reference", b.reference),
    );
    const perPage = Number(query.get("per_page") ?? "10");
    const data = found.slice(0, perPage).map((b) => ({
      uuid: b.uuid,
      status: this.broken.has("list-status-upper-case") ? b.status.toUpperCase() : b.status,
    }));
    const pagination = { total: found.length, count: data.length, per_page: perPage, current_page: 1, total_pages: 1 };
    return json(200, { data, meta: { pagination }, links: [{ rel: "self", href: "/v2/bookings", method: "GET" }] });
  }

  onBooking(method: string, path: string, segment: string | undefined, b: Booking): ShimResponse {
    if (segment === "vouchers") {
      const data = b.vouchers.map((v) => ({ uuid: v, links: [{ rel: "file", href: `${path}/${v}/file` }] }));
      return json(200, { data, links: [] });
    }
    const confirm = segment === "confirm" || (segment === "approve" && this.broken.has("approve-segment-confirms"));
    if (method === "PUT" && confirm) {
      if (b.status !== "reserved" || b.cancellation !== null) return this.error(409, "invalid_action", path);
      // The booking's own seat is held, so the slot is sold out when the supplier has fewer seats than are held.
      if (this.remaining(b.type.uuid, b.date, b.timeslot) < 0) {
        return this.broken.has("confirm-failure-as-409")
          ? this.error(409, "invalid_action", path)
          : this.error(422, "prices_mismatch", path);
      }
      if (b.type.instantConfirmation || this.broken.has("confirm-waiting-as-approved")) {
        b.status = "approved";
        b.vouchers.push(`v-${b.uuid}`);
      } else {
        b.status = "waiting";
      }
    } else if (method === "PUT" && segment === "cancel") {
      if (b.cancellation !== null || (b.status !== "reserved" && b.status !== "approved")) {
        return this.error(409, "invalid_action", path);
      }
      b.cancellation = this.broken.has("cancel-at-once") ? "approved" : "pending";
      if (this.broken.has("cancel-at-once")) {
        b.status = "cancelled";
        b.released = true;
      }
    } else if (segment !== undefined || method !== "GET") {
      return this.error(404, "not_found", path);
    }
    return json(200, this.detail(b));
  }
}

/** Raw requests as the conformance scenario sends them (sendRaw), the key unless told otherwise. */
function raw(request: RawRequest): RawAnswer {
  return sendRaw(BASE, KEY, request);
}

function contextOn(
  api: FakeApi,
  productTypes: FoundProductType[] = TYPES,
  keys = [KEY, OTHER_KEY],
  hooks = true,
): ConformanceContext {
  k6State.handler = (method, url, body, params) => api.handle(method, url, body, params.headers ?? {});
  const client = new ApiClient({
    baseUrl: BASE,
    apiKey: KEY,
    timeout: "5s",
    phase: "load",
    onThrottle: "return",
    maxThrottleWaitSeconds: 1,
  });
  const control = hooks ? { url: CONTROL, token: "control-token" } : undefined;
  const config = { apiKeys: keys, control } as K6Config;
  return { config, client, raw, productTypes, probeDate: PROBE_DATE, hooks };
}

function judge(rule: string, api: FakeApi, productTypes?: FoundProductType[], keys?: string[], hooks = true): Verdict {
  const run = STATE_JUDGES[rule];
  if (run === undefined) throw new Error(`no judge for ${rule}`);
  return run(contextOn(api, productTypes, keys, hooks));
}

function problemOf(verdict: Verdict): string | undefined {
  if ("notJudged" in verdict) throw new Error(`not judged: ${verdict.notJudged}`);
  return verdict.problem;
}

/** No booking a judge made is left reserved or approved without a cancellation request (waiting: the supplier's). */
function expectNothingHeld(api: FakeApi): void {
  for (const b of api.bookings) {
    if (b.status === "waiting") continue;
    expect(b.cancellation, `${b.uuid} (${b.status})`).not.toBeNull();
  }
}

beforeEach(() => {
  k6State.reset();
});

const CASES: [rule: string, broken: Breakage, evidence: RegExp][] = [
  [
    "gaps-states-status-values",
    "list-status-upper-case",
    /^status "RESERVED" is not one of reserved, waiting, .*: GET \/v2\/bookings\?partner_reference=atd-conformance-statuses-\w+ -> 200/,
  ],
  [
    "gaps-states-confirm",
    "confirm-waiting-as-approved",
    /^confirming a booking of a type without instant confirmation did not answer waiting: PUT \/v2\/bookings\/b-2\/confirm -> 200 .*"approved"/,
  ],
  [
    "gaps-states-cancel-pending",
    "cancel-at-once",
    /pending cancellation request \(status "cancelled", cancellationRequestStatus "approved"\): PUT \/v2\/bookings\/b-1\/cancel -> 200/,
  ],
  [
    "3-status-segments",
    "approve-segment-confirms",
    /^expected 404 not_found or 400 invalid_params in the error envelope: PUT \/v2\/bookings\/b-1\/approve -> 200/,
  ],
  [
    "gaps-booking-request",
    "partner-reference-unbounded",
    /^with a 101-character partnerReference: expected 400 invalid_params or 422 invalid_data .*POST \/v2\/bookings -> 201/,
  ],
  [
    "2.10-customer-object",
    "customer-salutation-dropped",
    /^the detail does not echo customer salutation: GET \/v2\/bookings\/b-1 -> 200/,
  ],
  [
    "9-pax-replaced",
    "pax-accepted",
    /^a body with pax 1 and no adults was booked for 1 adults: POST \/v2\/bookings -> 201/,
  ],
  [
    "1-required-options",
    "required-options-ignored",
    /^a booking without the required option opt-1: expected 400 invalid_params or 422 invalid_data .*-> 201/,
  ],
  [
    "5-key-identifies-partner",
    "bookings-shared-across-keys",
    /^with another partner's key: expected 404 not_found in the error envelope: GET \/v2\/bookings\/b-1 -> 200/,
  ],
  [
    "gaps-error-422-invalid-data",
    "over-max-pax-400",
    /^adults 6 above maxPax 5: expected 422 invalid_data in the error envelope: POST \/v2\/bookings -> 400/,
  ],
  [
    "gaps-error-422-invalid-data",
    "closed-day-bookable",
    /^on 2030-03-10, which the calendar shows unavailable: expected 422 invalid_data in the error envelope: POST \/v2\/bookings -> 201/,
  ],
  [
    "9-booking-check-removed",
    "booking-check-kept",
    /^expected 404 not_found or 405 method_not_allowed in the error envelope: POST \/v2\/bookings\/check -> 200/,
  ],
  [
    "gaps-error-422-prices-mismatch",
    "confirm-failure-as-409",
    /^a confirm of a sold-out slot: expected 422 prices_mismatch in the error envelope: PUT \/v2\/bookings\/b-1\/confirm -> 409/,
  ],
  [
    "gaps-states-waiting-decided",
    "waiting-decided-back-to-reserved",
    /^the waiting booking became "reserved", not approved or rejected: GET \/v2\/bookings\/b-1 -> 200/,
  ],
  [
    "gaps-states-cancelled",
    "cancel-keeps-seats",
    /^the cancelled booking's seats were not given back: remaining 9 before it was booked, 8 after it was cancelled \(GET \/__control\/inventory\/pt-instant on 2030-03-05 10:00\)/,
  ],
];

describe("state-rules judges: each rule on the correct API and on the API that breaks it", () => {
  it.each(CASES)("should pass %s on the correct API and fail it when %s", (rule, broken, evidence) => {
    const correct = new FakeApi();
    expect(problemOf(judge(rule, correct))).toBeUndefined();
    expectNothingHeld(correct);
    k6State.reset();
    const wrong = new FakeApi([broken]);
    expect(problemOf(judge(rule, wrong))).toMatch(evidence);
    expectNothingHeld(wrong);
  });

  it("should break only its own rule with each breakage: every other judge still passes", () => {
    const judged = Object.keys(STATE_JUDGES).filter((rule) => rule !== "gaps-error-500");
    for (const [, broken] of CASES) {
      const failing = judged.filter((rule) => {
        k6State.reset();
        // A rule the breakage leaves not judged (waiting-decided without a waiting booking) has not failed.
        const verdict = judge(rule, new FakeApi([broken]));
        return "problem" in verdict && verdict.problem !== undefined;
      });
      expect(failing, broken).toEqual(CASES.filter(([, b]) => b === broken).map(([rule]) => rule));
    }
  });

  it("should not hold a booking on a closed day against the service when another writer opened the day meanwhile", () => {
    const api = new FakeApi();
    api.reopensClosedDay = true;
    expect(problemOf(judge("gaps-error-422-invalid-data", api))).toBeUndefined();
    // The booking went through, and was cancelled again.
    expect(api.bookings.map((b) => [b.date, b.cancellation])).toEqual([[CLOSED_DATE, "pending"]]);
    expectNothingHeld(api);
  });

  it("should confirm one booking of each kind, cancel the approved one and leave the waiting one to the supplier", () => {
    const api = new FakeApi();
    judge("gaps-states-confirm", api);
    expect(api.bookings.map((b) => [b.type.uuid, b.status, b.cancellation])).toEqual([
      ["pt-instant", "approved", "pending"],
      ["pt-on-request", "waiting", null],
    ]);
  });

  it("should refuse the four malformed booking bodies and compare the bookings list before and after: seven requests", () => {
    judge("gaps-booking-request", new FakeApi());
    const sent = k6State.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`);
    expect(sent.filter((s) => s === "POST /v2/bookings")).toHaveLength(4);
    expect(sent.filter((s) => s === "GET /v2/bookings")).toHaveLength(2);
    expect(sent).toHaveLength(7);
  });

  it("should not judge the key rule with one key, nor the required options without a type that has one", () => {
    expect(judge("5-key-identifies-partner", new FakeApi(), TYPES, [KEY])).toEqual({
      notJudged: expect.stringMatching(/one API key/) as unknown,
    });
    const api = new FakeApi();
    expect(judge("1-required-options", api, [ON_REQUEST])).toEqual({
      notJudged: expect.stringMatching(/no product type found with a required option/) as unknown,
    });
    expect(api.bookings).toEqual([]);
  });

  it("should say why a 500 is not judged where the optional fault hook is not offered, or there are no hooks", () => {
    const verdict = judge("gaps-error-500", new FakeApi());
    expect(verdict).toEqual({
      notJudged: expect.stringMatching(
        /optional fault hook \(PUT \/__control\/faults\) is not offered here/,
      ) as unknown,
      byDesign: true,
    });
    // It asked the hook, and sent nothing to the public API.
    expect(k6State.requests.map((r) => r.url)).toEqual([expect.stringContaining("/__control/faults")]);
    expect(judge("gaps-error-500", new FakeApi(), undefined, undefined, false)).toEqual({
      notJudged: expect.stringMatching(/needs the test hooks/) as unknown,
      byDesign: true,
    });
  });

  it("should sell the slot out for the failed confirm and put its seats back, and not judge it without the hooks", () => {
    const api = new FakeApi();
    expect(problemOf(judge("gaps-error-422-prices-mismatch", api))).toBeUndefined();
    expect([...api.supply.entries()]).toEqual([["pt-instant|2030-03-04|10:00", SEEDED_SEATS]]);
    expect(api.bookings.map((b) => [b.date, b.status, b.cancellation])).toEqual([
      ["2030-03-04", "reserved", "pending"],
    ]);
    k6State.reset();
    const none = new FakeApi();
    expect(judge("gaps-error-422-prices-mismatch", none, TYPES, [KEY], false)).toEqual({
      notJudged: expect.stringMatching(/needs the test hooks.*selling its slot out/) as unknown,
      byDesign: true,
    });
    expect(none.bookings).toEqual([]);
  });

  it("should move the clock on only as far as the decision needs, and cancel the approved booking again", () => {
    const api = new FakeApi();
    expect(problemOf(judge("gaps-states-waiting-decided", api))).toBeUndefined();
    expect(api.clockAdvanced).toBe(120);
    expect(api.bookings.map((b) => [b.status, b.cancellation])).toEqual([["approved", "pending"]]);
  });

  it("should call a booking still waiting after a day of service time a finding, not a failure", () => {
    const api = new FakeApi();
    api.advance = () => json(200, { data: { now: "2030-01-01T00:00:00Z", nowMs: 0, timeScale: 1 } });
    expect(judge("gaps-states-waiting-decided", api)).toEqual({
      notJudged: expect.stringMatching(
        /^a finding, not a failure: still waiting after a day of service time/,
      ) as unknown,
      byDesign: true,
    });
  });
});
