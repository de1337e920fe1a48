/**
 * The cheap conformance rules among the shared checks (CHEAP_RULES in lib/k6/checks.ts): each passes a correct
 * answer and fails a broken one under its rule id, with its problem. Each test loads the checks afresh, so the shape
 * and error samples and the once-per-problem log start over.
 */
import { beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import {
  PRICE_LIST_ENTRY_KEYS,
  PRODUCT_LIST_ITEM_KEYS,
  SINGLE_DATE_PRICE_KEYS,
  CHECK_FAILURE_MARKER,
} from "../../lib/contract/index.ts";
import { CHEAP_RULES } from "../../lib/k6/cheap-rules.ts";

type Checks = typeof import("../../lib/k6/checks.ts");
type Client = typeof import("../../lib/k6/client.ts");
type State = typeof import("../shims/k6-state.ts");

let checks: Checks;
let client: InstanceType<Client["ApiClient"]>;
let k6State: State["k6State"];
let warn: MockInstance<typeof console.warn>;

beforeEach(async () => {
  vi.resetModules();
  checks = await import("../../lib/k6/checks.ts");
  const { ApiClient } = await import("../../lib/k6/client.ts");
  ({ k6State } = await import("../shims/k6-state.ts"));
  k6State.reset();
  client = new ApiClient({
    baseUrl: "http://127.0.0.1:9",
    apiKey: "key-1",
    timeout: "5s",
    phase: "load",
    onThrottle: "return",
    maxThrottleWaitSeconds: 0,
  });
  warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  return () => {
    warn.mockRestore();
  };
});

const rateLimit = { "X-RateLimit-Limit": "400", "X-RateLimit-Remaining": "9" };
const selfLinks = [{ rel: "self", href: "/x", method: "GET" }];
const pagination = { total: 1, count: 1, per_page: 10, current_page: 1, total_pages: 1 };

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { "Content-Type": "application/json", ...rateLimit, ...headers },
  body: JSON.stringify(body),
});

/** A record with exactly the keys, each a placeholder unless given. */
const record = (keys: readonly string[], values: Record<string, unknown>) => ({
  ...Object.fromEntries(keys.map((k) => [k, k === "links" ? selfLinks : "v"])),
  ...values,
});

const day = (date: string, weekday: unknown) => record(PRICE_LIST_ENTRY_KEYS, { date, weekday });
const single = (date: string, weekday: unknown) => record(SINGLE_DATE_PRICE_KEYS, { date, weekday });
const product = (validFrom: unknown, validThrough: unknown) =>
  record(PRODUCT_LIST_ITEM_KEYS, { validFrom, validThrough });

function verdicts(): Record<string, boolean[]> {
  const out: Record<string, boolean[]> = {};
  for (const c of k6State.checks) (out[c.name] ??= []).push(c.ok);
  return out;
}

/** The problems logged for a check, by its name. */
function problems(name: string): string[] {
  return warn.mock.calls
    .map((c) => String(c[0]))
    .filter((line) => line.startsWith(CHECK_FAILURE_MARKER))
    .map((line) => JSON.parse(line.slice(CHECK_FAILURE_MARKER.length)) as { check: string; problem: string })
    .filter((p) => p.check === name)
    .map((p) => p.problem);
}

function priceForDate(body: unknown, headers: Record<string, string> = { "Cache-Control": "no-store" }) {
  k6State.handler = () => answer(200, body, headers);
  return checks.checkResponse(client.getPriceForDate("t1", "2030-01-02"));
}

describe("cheap conformance rules on a success", () => {
  it("should pass the single-date answer of the reference: self link, date, weekday, no-store", () => {
    expect(priceForDate({ data: single("2030-01-02", "Wednesday"), links: selfLinks })).toBe(true);
    const { linksSelf, dates, weekday, noCache } = CHEAP_RULES;
    expect(verdicts()).toMatchObject({ [linksSelf]: [true], [dates]: [true], [weekday]: [true], [noCache]: [true] });
  });

  it("should name each rule by its id first", () => {
    expect(Object.values(CHEAP_RULES).map((name) => name.split(":")[0])).toEqual([
      "1-links-self",
      "2.6-no-cache",
      "2.5-weekday-matches-date",
      "gaps-formats-dates",
      "gaps-error-envelope",
      "gaps-error-500",
      "gaps-formats-uuids",
      "gaps-formats-timestamps",
      "gaps-formats-money",
      "gaps-formats-timeslots",
      "2-keys-camel-case",
      "9-version-prefix",
      "gaps-lists-envelope",
      "2.12-nested-shapes",
      "2.5-available-consistent",
      "2.6-timeslots-mark-availability",
      "2.6-voucher-validity-by-age",
      "3-initial-reserved",
      "gaps-states-status-values",
    ]);
  });

  it("should fail top-level links without self, naming the rels, and keep the answer usable", () => {
    const links = [{ rel: "canonical", href: "/x", method: "GET" }];
    expect(priceForDate({ data: single("2030-01-02", "Wednesday"), links })).toBe(true);
    expect(verdicts()[CHEAP_RULES.linksSelf]).toEqual([false]);
    expect(problems(CHEAP_RULES.linksSelf)).toEqual(["priceListDate 200: no self among the links' rels (canonical)"]);
  });

  it("should fail a link without a method", () => {
    k6State.handler = () => answer(200, { data: { currency: "EUR" }, links: [{ rel: "self", href: "/v2/config" }] });
    checks.checkResponse(client.getConfig());
    expect(verdicts()[CHEAP_RULES.linksSelf]).toEqual([false]);
    expect(problems(CHEAP_RULES.linksSelf)).toEqual([
      "config 200: links[0] has rel, href, expected string rel, href and method",
    ]);
  });

  it("should fail a calendar entry whose weekday is not its date's, naming the item", () => {
    const body = {
      data: [day("2030-01-01", "Tuesday"), day("2030-01-02", "Thursday")],
      meta: { pagination },
      links: selfLinks,
    };
    k6State.handler = () => answer(200, body);
    expect(checks.checkResponse(client.getPriceList("t1", "2030-01-01", "2030-01-02"))).toBe(true);
    expect(verdicts()[CHEAP_RULES.weekday]).toEqual([false]);
    expect(verdicts()[CHEAP_RULES.dates]).toEqual([true]);
    expect(problems(CHEAP_RULES.weekday)).toEqual([
      'priceList item 1.weekday is "Thursday" for date 2030-01-02, expected Wednesday',
    ]);
  });

  it("should take the weekday in any case or as its three-letter abbreviation, and fail a number", () => {
    for (const weekday of ["wednesday", "Wed", "WED", 3])
      priceForDate({ data: single("2030-01-02", weekday), links: selfLinks });
    expect(verdicts()[CHEAP_RULES.weekday]).toEqual([true, true, true, false]);
    expect(problems(CHEAP_RULES.weekday)).toEqual([
      "priceListDate data.weekday is 3 for date 2030-01-02, expected Wednesday",
    ]);
  });

  it("should fail dates that are not YYYY-MM-DD calendar dates, and not judge the weekday of one", () => {
    priceForDate({ data: single("02/01/2030", "Wednesday"), links: selfLinks });
    k6State.handler = () =>
      answer(200, {
        data: [product("2030-01-01", "2030-12-31"), product("2030-01-01", "2030-02-30")],
        meta: { pagination },
        links: selfLinks,
      });
    checks.checkResponse(client.listProducts());
    expect(verdicts()[CHEAP_RULES.dates]).toEqual([false, false]);
    expect(verdicts()[CHEAP_RULES.weekday]).toEqual([true]);
    expect(problems(CHEAP_RULES.dates)).toEqual([
      'priceListDate data.date is "02/01/2030", expected a YYYY-MM-DD date',
      'products item 1.validThrough is "2030-02-30", expected a YYYY-MM-DD date',
    ]);
  });

  it("should not ask dates or weekdays of endpoints whose answers hold none the contract fixes", () => {
    k6State.handler = () => answer(200, { data: { currency: "EUR" }, links: selfLinks });
    checks.checkResponse(client.getConfig());
    const names = Object.keys(verdicts());
    expect(names).toContain(CHEAP_RULES.linksSelf);
    expect(names).not.toContain(CHEAP_RULES.dates);
    expect(names).not.toContain(CHEAP_RULES.weekday);
    expect(names).not.toContain(CHEAP_RULES.noCache);
  });
});

describe("2.6-no-cache", () => {
  const body = { data: single("2030-01-02", "Wednesday"), links: selfLinks };
  const date = "Wed, 02 Jan 2030 10:00:00 GMT";

  it("should pass no-store, no-cache or max-age=0, and an Expires not after the answer's Date", () => {
    const passing: Record<string, string>[] = [
      { "Cache-Control": "no-store" },
      { "Cache-Control": "private, no-cache" },
      { "Cache-Control": "max-age=0, must-revalidate", Expires: date, Date: date },
      { "Cache-Control": "no-store", Expires: "0" },
    ];
    for (const headers of passing) priceForDate(body, headers);
    expect(verdicts()[CHEAP_RULES.noCache]).toEqual([true, true, true, true]);
  });

  it("should fail a missing Cache-Control, one that lets caches keep the answer, and an Expires in the future", () => {
    const failing: Record<string, string>[] = [
      {},
      { "Cache-Control": "public, max-age=300" },
      { "Cache-Control": 'no-cache="Set-Cookie"' },
      { "Cache-Control": "no-store", Expires: "Wed, 02 Jan 2030 10:05:00 GMT", Date: date },
    ];
    for (const headers of failing) priceForDate(body, headers);
    expect(verdicts()[CHEAP_RULES.noCache]).toEqual([false, false, false, false]);
    expect(problems(CHEAP_RULES.noCache)).toEqual([
      "priceListDate: no Cache-Control header, so HTTP caches may keep the answer (RFC 9111 4.2.2); expected no-store, no-cache or max-age=0",
      'priceListDate: Cache-Control is "public, max-age=300", expected no-store, no-cache or max-age=0',
      'priceListDate: Cache-Control is "no-cache="Set-Cookie"", expected no-store, no-cache or max-age=0',
      "priceListDate: Expires is 300 s after the answer's Date, expected none in the future",
    ]);
  });
});

describe("gaps-error-envelope", () => {
  const envelope = (status: number, code: string) => ({
    error: { code, message: "m", http_code: status },
    links: [{ rel: "self", href: "/v2/bookings/b1", method: "GET" }],
    timestamp: "2030-01-02T10:00:00.000Z",
  });

  it("should pass a failure in the error envelope, expected or not", () => {
    k6State.handler = () => answer(404, envelope(404, "not_found"));
    expect(checks.checkResponse(client.getBooking("b1"))).toBe(false);
    k6State.handler = () => answer(422, envelope(422, "prices_mismatch"));
    expect(checks.checkResponse(client.confirmBooking("b1"), 422)).toBe(true);
    const { errorEnvelope, linksSelf } = CHEAP_RULES;
    expect(verdicts()).toMatchObject({ [errorEnvelope]: [true, true], [linksSelf]: [true, true] });
  });

  it("should fail an envelope whose http_code is not the status, or without links and timestamp", () => {
    k6State.handler = () =>
      answer(409, { ...envelope(409, "invalid_action"), error: { code: "c", message: "m", http_code: 400 } });
    checks.checkResponse(client.cancelBooking("b1"));
    k6State.handler = () => answer(500, { error: { code: "internal_error", message: "m", http_code: 500 } });
    checks.checkResponse(client.getBooking("b1"));
    expect(verdicts()[CHEAP_RULES.errorEnvelope]).toEqual([false, false]);
    expect(problems(CHEAP_RULES.errorEnvelope)).toEqual([
      "bookingCancel 409: error.http_code is 400",
      "booking 500: links is not an array; timestamp is not a string",
    ]);
    expect(problems(CHEAP_RULES.linksSelf)).toEqual(["booking 500: links is missing"]);
  });

  it("should fail a failure that is not JSON, naming its content type", () => {
    k6State.handler = () => ({
      status: 502,
      headers: { "Content-Type": "text/html" },
      body: "<html>Bad Gateway</html>",
    });
    checks.checkResponse(client.getBooking("b1"));
    expect(problems(CHEAP_RULES.errorEnvelope)).toEqual([
      'booking 502: body is not a JSON object (Content-Type "text/html")',
    ]);
  });

  it("should leave 429s to the rate-limit scenario and a connection failure out", () => {
    k6State.handler = () => answer(429, { error: { code: "GEN-TOO-MANY-REQUESTS" } }, { "Retry-After": "1" });
    checks.checkResponse(client.listProducts());
    k6State.handler = () => ({ status: 0, headers: {}, body: "" });
    checks.checkResponse(client.listProducts());
    expect(Object.keys(verdicts())).not.toContain(CHEAP_RULES.errorEnvelope);
  });
});

describe("sampling", () => {
  it("should judge the rules on the first 20 answers of an endpoint in a VU, then one in ten, as the shapes", () => {
    k6State.handler = () =>
      answer(200, { data: single("2030-01-02", "Wednesday"), links: selfLinks }, { "Cache-Control": "no-store" });
    for (let i = 0; i < 60; i++) checks.checkResponse(client.getPriceForDate("t1", "2030-01-02"));
    const counts = Object.fromEntries(Object.entries(verdicts()).map(([name, oks]) => [name, oks.length]));
    expect(counts).toMatchObject({
      "priceListDate: status 200": 60,
      "priceListDate: detail envelope with links": 24,
      [CHEAP_RULES.linksSelf]: 24,
      [CHEAP_RULES.noCache]: 24,
      [CHEAP_RULES.weekday]: 24,
    });
  });

  it("should judge the value rules on the first 5 answers of an endpoint in a VU, then one in 200", () => {
    k6State.handler = () =>
      answer(200, { data: single("2030-01-02", "Wednesday"), links: selfLinks }, { "Cache-Control": "no-store" });
    for (let i = 0; i < 400; i++) checks.checkResponse(client.getPriceForDate("t1", "2030-01-02"));
    const counts = Object.fromEntries(Object.entries(verdicts()).map(([name, oks]) => [name, oks.length]));
    // Shapes: 20 + 38 of the next 380; the value rules: 5 + the 200th and the 400th.
    expect(counts).toMatchObject({ [CHEAP_RULES.linksSelf]: 58, [CHEAP_RULES.uuids]: 7, [CHEAP_RULES.money]: 7 });
  });

  it("should sample failures per endpoint apart from successes", () => {
    k6State.handler = () => answer(404, { error: { code: "not_found" } });
    for (let i = 0; i < 40; i++) checks.checkResponse(client.getBooking("b1"));
    expect(verdicts()[CHEAP_RULES.errorEnvelope]).toHaveLength(20 + 2);
    expect(problems(CHEAP_RULES.errorEnvelope)).toEqual([
      "booking 404: error.message is not a string; error.http_code is null; links is not an array; timestamp is not a string",
    ]);
  });
});

describe("the rules of an answer's values", () => {
  const TYPE = "6f1c1c7e-3f7a-4d2b-9b8e-2d6f0a1b2c3d";
  const BOOKING = "9a7b5c3d-1e2f-4a5b-8c7d-6e5f4a3b2c1d";
  const links = [{ rel: "self", href: `/v2/product-types/${TYPE}/price-lists/2030-01-02`, method: "GET" }];
  const slot = (timeslot: string, remaining: number) => ({ timeslot, available: remaining > 0, remaining });
  const prices = { adults: "35.00", children: "20.00" };
  const validity = { validFrom: "2030-01-02", validUntil: "2030-02-01" };
  /** The reference's single-date result of a timeslotted type, with one open slot. */
  const singleDate = (data: Record<string, unknown> = {}) => ({
    data: {
      ...single("2030-01-02", "Wednesday"),
      available: true,
      currency: "EUR",
      prices,
      timeslots: [slot("10:00", 3), slot("14:00", 0)],
      options: [],
      voucherValidity: { adults: validity, children: validity },
      links,
      ...data,
    },
    links,
  });
  const entry = (date: string, weekday: string, data: Record<string, unknown> = {}) => ({
    ...day(date, weekday),
    available: true,
    currency: "EUR",
    prices,
    timeslots: [slot("10:00", 3)],
    options: [],
    links,
    ...data,
  });
  const calendar = (...entries: unknown[]) => ({
    data: entries,
    meta: { pagination: { ...pagination, total: entries.length, count: entries.length } },
    links,
  });
  const booking = (data: Record<string, unknown> = {}) => ({
    data: {
      uuid: BOOKING,
      status: "reserved",
      adults: 1,
      options: [],
      partner_reference: "ref-1",
      createdAt: "2030-01-02T10:00:00.000Z",
      ...data,
    },
    links: [{ rel: "self", href: `/v2/bookings/${BOOKING}`, method: "GET" }],
  });
  const request = {
    productTypeUuid: TYPE,
    date: "2030-01-02",
    adults: 1,
    partner_reference: "ref-1",
    customer: { firstName: "A", lastName: "B", email: "a@b.example", phone: "+100" },
  };

  type Ask = () => void;
  const single1: Ask = () => checks.checkResponse(client.getPriceForDate(TYPE, "2030-01-02"));
  const calendar1: Ask = () => checks.checkResponse(client.getPriceList(TYPE, "2030-01-01", "2030-01-02"));
  const created: Ask = () => checks.checkResponse(client.createBooking(request as never), [200, 201]);
  const detail: Ask = () => checks.checkResponse(client.getBooking(BOOKING));
  const vouchers: Ask = () => checks.checkResponse(client.listVouchers(BOOKING));

  function judge(ask: Ask, body: unknown, headers: Record<string, string> = { "Cache-Control": "no-store" }) {
    k6State.handler = () => answer(200, body, headers);
    ask();
  }

  it("should pass every rule on the reference's answers", () => {
    judge(single1, singleDate());
    judge(calendar1, calendar(entry("2030-01-01", "Tuesday"), entry("2030-01-02", "Wednesday")));
    judge(created, booking());
    judge(detail, booking({ status: "approved" }));
    const failed = Object.entries(verdicts()).filter(([, oks]) => oks.includes(false));
    expect(failed).toEqual([]);
    for (const name of Object.values(CHEAP_RULES).filter((n) => !/^(gaps-error|2\.6-no-cache)/.test(n)))
      expect(verdicts()[name], name).toBeDefined();
  });

  // Each: the rule, how to ask, the broken answer, what the problem says.
  const cases: [name: string, ask: Ask, body: unknown, problem: string][] = [
    [CHEAP_RULES.uuids, detail, booking({ uuid: "b-1" }), 'booking: data.uuid is "b-1", not a UUID'],
    [
      CHEAP_RULES.timestamps,
      detail,
      booking({ createdAt: "2030-01-02T11:00:00+01:00" }),
      'booking: data.createdAt is "2030-01-02T11:00:00+01:00", not an ISO 8601 time in UTC',
    ],
    [
      CHEAP_RULES.money,
      single1,
      singleDate({ prices: { adults: 35 } }),
      "priceListDate: prices.adults is the number 35, not a decimal string",
    ],
    [
      CHEAP_RULES.timeslots,
      single1,
      singleDate({ timeslots: [slot("10:00:00", 3)] }),
      'priceListDate: data.timeslots[0].timeslot is "10:00:00", not an HH:MM timeslot',
    ],
    [
      CHEAP_RULES.camelCase,
      detail,
      booking({ created_at: "x" }),
      'booking: data has the key "created_at", not camelCase',
    ],
    [
      CHEAP_RULES.versionPrefix,
      detail,
      { ...booking(), links: [{ rel: "self", href: `/v1/bookings/${BOOKING}`, method: "GET" }] },
      `booking: links: href "/v1/bookings/${BOOKING}" is not under http://127.0.0.1:9/v2/`,
    ],
    [
      CHEAP_RULES.listsEnvelope,
      calendar1,
      { ...calendar(entry("2030-01-01", "Tuesday")), meta: { pagination: { ...pagination, total: "1" } } },
      'priceList: meta.pagination.total is "1", not a whole non-negative number',
    ],
    [
      CHEAP_RULES.listsEnvelope,
      vouchers,
      { data: [], meta: { pagination }, links },
      "vouchers: the vouchers answer carries meta.pagination; it is {data: [...], links} without pagination",
    ],
    [
      CHEAP_RULES.nestedShapes,
      calendar1,
      calendar(entry("2030-01-01", "Tuesday", { timeslots: [{ uuid: BOOKING, timeslot: "10:00" }] })),
      "priceList: item 0: timeslots[0] available is null, remaining is null (each item is {timeslot, available, remaining})",
    ],
    [CHEAP_RULES.nestedShapes, detail, booking({ options: {} }), "booking: options is {}, not an array"],
    [
      CHEAP_RULES.availableConsistent,
      calendar1,
      calendar(entry("2030-01-01", "Tuesday"), entry("2030-01-02", "Wednesday", { timeslots: [] })),
      "priceList: item 1: 2030-01-02: available with no bookable timeslot listed",
    ],
    [
      CHEAP_RULES.timeslotsMark,
      single1,
      singleDate({ timeslots: [slot("10:00", 0)] }),
      "priceListDate: 2030-01-02: available, but no timeslot can be booked",
    ],
    [
      CHEAP_RULES.voucherValidity,
      single1,
      singleDate({ voucherValidity: validity }),
      'priceListDate: voucherValidity names "validFrom", "validUntil", not an age group (adults, children, seniors)',
    ],
    [
      CHEAP_RULES.initialReserved,
      created,
      booking({ status: "approved" }),
      'bookingCreate: the new booking\'s status is "approved", not "reserved"',
    ],
    [
      CHEAP_RULES.statusValues,
      detail,
      booking({ status: "RESERVED" }),
      'booking: data.status is "RESERVED", not one of reserved, waiting, approved, rejected, cancelled, expired',
    ],
  ];

  it.each(cases)("should fail %s on its broken answer, naming the problem", (name, ask, body, problem) => {
    judge(ask, body);
    expect(verdicts()[name]).toEqual([false]);
    expect(problems(name)).toEqual([problem]);
  });

  it("should pass the wire's other legal choices (lib/contract/freedoms/wire-format.ts)", () => {
    const v7 = "01890a5d-ac96-774b-bcce-b302099a8057";
    const extras = {
      timeslotUuid: null,
      supplierReference: "",
      tags: [],
      attributes: {},
      pickup: { meetingPointUuid: null, notes: "", window: { from: null, until: null } },
    };
    judge(
      detail,
      booking({ ...extras, uuid: BOOKING.toUpperCase(), productTypeUuid: v7, createdAt: "2030-01-02T10:00:00Z" }),
    );
    for (const createdAt of [
      "2030-01-02T10:00:00.123456+00:00",
      "2030-01-02T10:00:00+00:00",
      "2030-01-02T10:00Z",
      "2030-01-02T10:00:00.1Z",
      "2030-06-30T23:59:60Z",
    ])
      judge(detail, booking({ createdAt, updatedAt: createdAt }));
    judge(single1, singleDate({ prices: { adults: "35", children: "12.5" } }));
    judge(single1, singleDate({ prices: { adults: "35.0000" } }));
    // Keys in another order, and one more key on each nested object.
    const reversed = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).reverse());
    const noted = singleDate({ timeslots: [{ ...slot("10:00", 3), note: null }] });
    judge(single1, { links: noted.links, data: reversed(noted.data) });
    const failed = Object.entries(verdicts()).filter(([, oks]) => oks.includes(false));
    expect(failed).toEqual([]);
    expect(verdicts()[CHEAP_RULES.uuids]?.length).toBeGreaterThan(0);
  });

  // What the wire's freedoms still refuse: each as the rule's problem.
  const refused: [name: string, body: unknown, problem: string][] = [
    [CHEAP_RULES.uuids, booking({ uuid: null }), "booking: data.uuid is null, not a UUID"],
    [CHEAP_RULES.uuids, booking({ typeUuid: null }), "booking: data.typeUuid is null, not a UUID"],
    [CHEAP_RULES.uuids, booking({ timeslotUuid: "" }), 'booking: data.timeslotUuid is "", not a UUID'],
    [
      CHEAP_RULES.uuids,
      booking({ pickup: { meetingPointUuid: 7 } }),
      "booking: data.pickup.meetingPointUuid is 7, not a UUID",
    ],
    ...["2030-01-02T10:00:00-00:00", "2030-01-02T10:00:00+0000", "2030-02-30T10:00:00Z", "2030-01-02T24:00:00Z"].map(
      (createdAt): [string, unknown, string] => [
        CHEAP_RULES.timestamps,
        booking({ createdAt }),
        `booking: data.createdAt is "${createdAt}", not an ISO 8601 time in UTC`,
      ],
    ),
  ];

  it.each(refused)("should still fail %s on %j", (name, body, problem) => {
    judge(detail, body);
    expect(verdicts()[name]).toEqual([false]);
    expect(problems(name)).toEqual([problem]);
  });

  it("should judge a calendar that lists no timeslot by what the VU saw of its type", () => {
    // Sold out on the first day, so the type shows it is timeslotted; then a calendar listing none while available.
    judge(calendar1, calendar(entry("2030-01-01", "Tuesday", { available: false, timeslots: [slot("10:00", 0)] })));
    judge(calendar1, calendar(entry("2030-01-02", "Wednesday", { timeslots: [] })));
    // A type never seen with a timeslot is taken as one without: its calendar listing none passes.
    k6State.handler = () => answer(200, calendar(entry("2030-01-02", "Wednesday", { timeslots: [] })));
    checks.checkResponse(client.getPriceList("5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a", "2030-01-02", "2030-01-02"));
    expect(verdicts()[CHEAP_RULES.availableConsistent]).toEqual([true, false, true]);
  });

  it("should answer a 500 that is not internal_error under gaps-error-500", () => {
    const failure = (code: string) => ({
      error: { code, message: "m", http_code: 500 },
      links: [{ rel: "self", href: `/v2/bookings/${BOOKING}`, method: "GET" }],
      timestamp: "2030-01-02T10:00:00.000Z",
    });
    k6State.handler = () => answer(500, failure("internal_error"));
    checks.checkResponse(client.getBooking(BOOKING));
    k6State.handler = () => answer(500, failure("server_error"));
    checks.checkResponse(client.getBooking(BOOKING));
    expect(verdicts()[CHEAP_RULES.error500]).toEqual([true, false]);
    expect(problems(CHEAP_RULES.error500)).toEqual([
      'booking 500: error.code is "server_error", expected internal_error',
    ]);
  });
});
