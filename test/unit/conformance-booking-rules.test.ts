/**
 * The judges of lib/k6/conformance/booking-rules.ts under the k6 shims, against a small in-memory partner API: the
 * correct one passes each rule; each broken variant (the reference service's conformance defects, in miniature)
 * fails the rule with the answer as evidence; and every booking a judge made is cancelled when it returns.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../lib/k6/client.ts";
import type { K6Config } from "../../lib/k6/config.ts";
import { initialStatusProblem } from "../../lib/k6/answer-rules.ts";
import { BOOKING_JUDGES, bookingPages, errorEnvelopeProblem } from "../../lib/k6/conformance/booking-rules.ts";
import {
  type ConformanceContext,
  type FoundProductType,
  type Judge,
  type RawAnswer,
  type Verdict,
  sendRaw,
  type RawRequest,
} from "../../lib/k6/conformance/judge.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";

const BASE = "http://127.0.0.1:9";
const KEY = "key-1";

type Breakage =
  | "401-plain-text"
  | "401-wrong-code"
  | "options-without-key"
  | "voucher-without-key"
  | "404-without-timestamp"
  | "405-as-404"
  | "413-as-500"
  | "no-body-limit"
  | "malformed-json-as-500"
  | "validation-as-500"
  | "created-as-approved"
  | "status-filter-ignored"
  | "total-wrong";

interface Booking {
  uuid: string;
  status: string;
  cancellation: string | null;
  date: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  reference: string;
  vouchers: string[];
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ShimResponse => ({
  status,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** The partner API in miniature: what the booking judges ask, answered as docs/contract-gaps.md says, or broken. */
class FakeApi {
  readonly bookings: Booking[] = [];
  readonly broken: Set<Breakage>;

  constructor(broken: Breakage[] = []) {
    this.broken = new Set(broken);
  }

  error(status: number, code: string, path: string, headers: Record<string, string> = {}): ShimResponse {
    const body: Record<string, unknown> = {
      error: { code, message: `${code} at ${path}`, http_code: status },
      links: [{ rel: "self", href: path, method: "GET" }],
      timestamp: "2030-01-01T00:00:00.000Z",
    };
    if (status === 404 && this.broken.has("404-without-timestamp")) delete body.timestamp;
    return json(status, body, headers);
  }

  detail(b: Booking): unknown {
    return { data: { uuid: b.uuid, status: b.status, cancellationRequestStatus: b.cancellation }, links: [] };
  }

  handle(method: string, url: string, body: string | null, headers: Record<string, string>): ShimResponse {
    const { pathname: path, searchParams: query } = new URL(url);
    const parts = path.split("/").slice(1);
    const voucherFile = parts.length === 6 && parts[5] === "file";
    if (headers["X-Authorization"] !== KEY) {
      const leaks =
        (method === "OPTIONS" && this.broken.has("options-without-key")) ||
        (voucherFile && this.broken.has("voucher-without-key"));
      if (!leaks) {
        if (this.broken.has("401-plain-text"))
          return { status: 401, headers: { "Content-Type": "text/plain" }, body: "401" };
        return this.error(401, this.broken.has("401-wrong-code") ? "unauthorized" : "GEN-UNAUTHORIZED", path);
      }
    }
    if (method === "OPTIONS") return json(200, { data: {}, links: [] }, { Allow: "GET, POST, OPTIONS" });
    if (path === "/v2/products" && method === "DELETE") {
      return this.broken.has("405-as-404")
        ? this.error(404, "not_found", path)
        : this.error(405, "method_not_allowed", path, { Allow: "GET, OPTIONS" });
    }
    if (parts[0] === "v2" && parts[1] === "product-types" && parts[3] === "price-lists" && method === "GET") {
      return json(200, {
        data: { date: parts[4], available: true, timeslots: [{ timeslot: "10:00", available: true, remaining: 9 }] },
        links: [],
      });
    }
    if (path === "/v2/bookings" && method === "POST") return this.create(path, body ?? "");
    if (path === "/v2/bookings" && method === "GET") return this.list(query);
    const booking = parts[1] === "bookings" ? this.bookings.find((b) => b.uuid === parts[2]) : undefined;
    if (booking !== undefined) return this.onBooking(method, path, parts, booking, voucherFile);
    return this.error(404, "not_found", path);
  }

  create(path: string, text: string): ShimResponse {
    if (text.length > 64 * 1024 && !this.broken.has("no-body-limit")) {
      return this.broken.has("413-as-500")
        ? this.error(500, "internal_error", path)
        : this.error(413, "payload_too_large", path);
    }
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return this.error(this.broken.has("malformed-json-as-500") ? 500 : 400, "malformed_json", path);
    }
    const customer = request.customer as Record<string, string> | undefined;
    if (typeof request.adults !== "number" || customer === undefined) {
      return this.broken.has("validation-as-500")
        ? this.error(500, "internal_error", path)
        : this.error(400, "invalid_params", path);
    }
    const b: Booking = {
      uuid: `b-${String(this.bookings.length + 1)}`,
      status: "reserved",
      cancellation: null,
      date: String(request.date),
      firstName: customer.firstName ?? "",
      lastName: customer.lastName ?? "",
      email: customer.email ?? "",
      phone: customer.phone ?? "",
      reference: String(request.partnerReference),
      vouchers: [],
    };
    this.bookings.push(b);
    const answer = this.detail(b) as { data: Record<string, unknown> };
    if (this.broken.has("created-as-approved")) answer.data.status = "approved";
    return json(201, answer);
  }

  list(query: URLSearchParams): ShimResponse {
    const is = (name: string, value: string) => query.get(name) === null || query.get(name) === value;
    const found = this.bookings.filter(
      (b) =>
        (query.get("date_start") === null || b.date >= String(query.get("date_start"))) &&
        (query.get("date_end") === null || b.date <= String(query.get("date_end"))) &&
        is("first_name", b.firstName) &&
        is("last_name", b.lastName) &&
        is("email", b.email) &&
        is("phone", b.phone) &&
        is("partner_reference", b.reference) &&
        (this.broken.has("status-filter-ignored") || is("status", b.status)),
    );
    const perPage = Number(query.get("per_page") ?? "10");
    const page = Number(query.get("page") ?? "1");
    const data = found.slice((page - 1) * perPage, page * perPage).map((b) => ({ uuid: b.uuid, status: b.status }));
    const total = this.broken.has("total-wrong") ? data.length : found.length;
    const pagination = {
      total,
      count: data.length,
      per_page: perPage,
      current_page: page,
      total_pages: Math.max(1, Math.ceil(total / perPage)),
    };
    return json(200, { data, meta: { pagination }, links: [{ rel: "self", href: "/v2/bookings", method: "GET" }] });
  }

  onBooking(method: string, path: string, parts: string[], b: Booking, voucherFile: boolean): ShimResponse {
    if (voucherFile) return { status: 200, headers: { "Content-Type": "application/pdf" }, body: "%PDF" };
    if (parts[3] === "vouchers") {
      const data = b.vouchers.map((v) => ({
        uuid: v,
        links: [{ rel: "file", href: `${path}/${v}/file`, method: "GET" }],
      }));
      return json(200, { data, links: [] });
    }
    if (method === "PUT" && parts[3] === "confirm") {
      if (b.status !== "reserved" || b.cancellation !== null) return this.error(409, "invalid_action", path);
      b.status = "approved";
      b.vouchers.push(`v-${b.uuid}`);
    } else if (method === "PUT" && parts[3] === "cancel") {
      if (b.cancellation !== null || (b.status !== "reserved" && b.status !== "approved")) {
        return this.error(409, "invalid_action", path);
      }
      b.cancellation = "pending";
    }
    return json(200, this.detail(b));
  }
}

const TYPE: FoundProductType = {
  uuid: "pt-1",
  productUuid: "p-1",
  available: true,
  timeslots: ["10:00"],
  timeslotted: true,
  instantConfirmation: true,
  daysInAdvance: 0,
  minPax: 1,
  maxPax: 5,
  categories: ["adults"],
  requiredOptions: [],
};

/** Raw requests as the conformance scenario sends them (sendRaw), the key unless told otherwise. */
function raw(request: RawRequest): RawAnswer {
  return sendRaw(BASE, KEY, request);
}

function contextOn(api: FakeApi, productTypes: FoundProductType[] = [TYPE]): ConformanceContext {
  k6State.handler = (method, url, body, params) => api.handle(method, url, body, params.headers ?? {});
  const client = new ApiClient({
    baseUrl: BASE,
    apiKey: KEY,
    timeout: "5s",
    phase: "load",
    onThrottle: "return",
    maxThrottleWaitSeconds: 1,
  });
  return { config: {} as K6Config, client, raw, productTypes, probeDate: "2030-03-01", hooks: false };
}

/** The booking judges, and the bookings' part of 4.3-pagination-consistent (the catalogue's: pagination-rules.ts). */
const JUDGES: Record<string, Judge> = { ...BOOKING_JUDGES, "4.3-pagination-consistent": bookingPages };

function judge(rule: string, api: FakeApi, productTypes?: FoundProductType[]): Verdict {
  const run = JUDGES[rule];
  if (run === undefined) throw new Error(`no judge for ${rule}`);
  return run(contextOn(api, productTypes));
}

function problemOf(verdict: Verdict): string | undefined {
  if ("notJudged" in verdict) throw new Error(`not judged: ${verdict.notJudged}`);
  return verdict.problem;
}

/** No booking a judge made is still reserved without a cancellation request, nor approved and left so. */
function expectNothingHeld(api: FakeApi): void {
  for (const b of api.bookings) expect(b.cancellation, `${b.uuid} (${b.status})`).toBe("pending");
}

beforeEach(() => {
  k6State.reset();
});

describe("booking-rules judges: each rule on the correct API and on the API that breaks it", () => {
  const cases: [rule: string, broken: Breakage, evidence: RegExp][] = [
    [
      "5-auth-required",
      "401-plain-text",
      /no key: expected 401 GEN-UNAUTHORIZED.*GET \/v2\/products\?per_page=1 -> 401 401/,
    ],
    [
      "5-auth-required",
      "401-wrong-code",
      /no key: expected 401 GEN-UNAUTHORIZED.*-> 401 \{"error":\{"code":"unauthorized"/,
    ],
    ["5-auth-required", "options-without-key", /no key: expected 401 GEN-UNAUTHORIZED.*OPTIONS \/v2\/bookings -> 200/],
    [
      "5-voucher-links-need-key",
      "voucher-without-key",
      /no key: the voucher file was not refused: GET \/v2\/bookings\/b-1\/vouchers\/v-b-1\/file -> 200 %PDF/,
    ],
    [
      "gaps-error-envelope",
      "404-without-timestamp",
      /no ISO 8601 `timestamp`: GET \/v2\/products\/0{8}-0000-4000-8000-0{12} -> 404/,
    ],
    ["gaps-error-405", "405-as-404", /expected 405 method_not_allowed.*DELETE \/v2\/products -> 404/],
    ["gaps-error-413", "413-as-500", /expected 413 payload_too_large.*POST \/v2\/bookings -> 500/],
    [
      "gaps-error-400-malformed-json",
      "malformed-json-as-500",
      /expected 400 malformed_json.*POST \/v2\/bookings -> 500/,
    ],
    ["gaps-error-400-validation", "validation-as-500", /expected 400 invalid_params.*POST \/v2\/bookings -> 500/],
    ["3-initial-reserved", "created-as-approved", /status is "approved", not "reserved": POST \/v2\/bookings -> 201/],
    [
      "4.3-bookings-filters",
      "status-filter-ignored",
      /^status did not filter: GET \/v2\/bookings\?partner_reference=atd-conformance-filters-\w+&status=cancelled -> 200/,
    ],
    [
      "4.3-pagination-consistent",
      "total-wrong",
      /total is 2, expected 3: GET \/v2\/bookings\?first_name=Conf\w+&per_page=2&page=1 -> 200/,
    ],
  ];

  it.each(cases)("should pass %s on the correct API and fail it when %s", (rule, broken, evidence) => {
    const correct = new FakeApi();
    expect(problemOf(judge(rule, correct))).toBeUndefined();
    expectNothingHeld(correct);
    const wrong = new FakeApi([broken]);
    expect(problemOf(judge(rule, wrong))).toMatch(evidence);
    expectNothingHeld(wrong);
  });

  it("should break only its own rule with each breakage: every other judge still passes", () => {
    for (const [, broken] of cases) {
      const failing = Object.keys(JUDGES).filter((rule) => {
        k6State.reset();
        return problemOf(judge(rule, new FakeApi([broken]))) !== undefined;
      });
      expect(failing, broken).toEqual(cases.filter(([, b]) => b === broken).map(([rule]) => rule));
    }
  });

  it("should send the bookings list few requests: one booking, one GET, nine lists, one cancel for the filters", () => {
    judge("4.3-bookings-filters", new FakeApi());
    const sent = k6State.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`);
    expect(sent.filter((s) => s === "GET /v2/bookings")).toHaveLength(9);
    expect(sent.filter((s) => s === "POST /v2/bookings")).toHaveLength(1);
    expect(sent.filter((s) => s.endsWith("/cancel"))).toHaveLength(1);
  });

  it("should not judge 413 when the service reads an oversized body and refuses its fields (a higher limit)", () => {
    const verdict = judge("gaps-error-413", new FakeApi(["no-body-limit"]));
    expect(verdict).toEqual({ notJudged: expect.stringMatching(/limit is higher than 64 KiB/) as unknown });
  });

  it("should not judge the voucher links without an instant-confirmation type, and book nothing", () => {
    const api = new FakeApi();
    const verdict = judge("5-voucher-links-need-key", api, [{ ...TYPE, instantConfirmation: false }]);
    expect(verdict).toEqual({ notJudged: expect.stringMatching(/no instant-confirmation product type/) as unknown });
    expect(api.bookings).toEqual([]);
  });

  it("should cancel the booking a judge made even when the rule fails on it", () => {
    const api = new FakeApi(["status-filter-ignored"]);
    judge("4.3-bookings-filters", api);
    expect(api.bookings).toHaveLength(1);
    expectNothingHeld(api);
  });
});

describe("booking-rules answer checks cheap enough for every answer under load", () => {
  it("should find what an error body lacks of the envelope", () => {
    const good = { error: { code: "not_found", message: "m", http_code: 404 }, links: [{ rel: "self", href: "/x" }] };
    const stamped = { ...good, timestamp: "2030-01-01T00:00:00Z" };
    expect(errorEnvelopeProblem(404, "application/json", stamped)).toBeUndefined();
    expect(errorEnvelopeProblem(404, "application/json", good)).toBe("no ISO 8601 `timestamp`");
    expect(errorEnvelopeProblem(404, "text/html", "<html>")).toBe("the body is not a JSON object");
    expect(errorEnvelopeProblem(410, "application/json", stamped)).toBe("error.http_code 404 is not the status");
    expect(errorEnvelopeProblem(404, "application/json", { ...stamped, links: [] })).toBe(
      "no `links` array with a `self` link",
    );
  });

  it("should find a created booking that does not start reserved, and ignore a refused one", () => {
    const ctx = contextOn(new FakeApi(["created-as-approved"]));
    const body = { productTypeUuid: "pt-1", date: "2030-03-01", adults: 1, customer: { firstName: "a" } };
    const created = ctx.client.createBooking(body as never);
    expect(initialStatusProblem(created)).toBe('the new booking\'s status is "approved", not "reserved"');
    const refused = ctx.client.createBooking({ adults: "x" } as never);
    expect(refused.status).toBe(400);
    expect(initialStatusProblem(refused)).toBeUndefined();
  });
});
