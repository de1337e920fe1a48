/**
 * Every normative statement of the contract as a named rule (issue 20): interface-spec.md statement by statement, and
 * decisions.md (docs/contract-gaps.md in this project's words) where it fills a gap. Pure data: the conformance
 * scenario judges the rules whose `judgedBy` is "conformance"; the others name the scenario and check that already
 * judge them (rate limit, alternatives, webhooks, invariants), referenced and not duplicated.
 *
 * Sources cite docs/spec/ (the copy of ../shared/spec/ the repository keeps): "interface-spec.md <section>",
 * "decisions.md <heading>[: <bullet topic>]", and "contract-gaps.md <heading>" where only this project's page says it;
 * a rule that comes from several places names each, separated by "; ". docs/conformance.md is generated from this file
 * (`npm run conformance-doc`), and test/unit/conformance-rules.test.ts proves every section has a rule or a reason.
 */

export type RuleLevel = "public-api" | "required-hooks";

export interface ConformanceRule {
  /** "<section>-<slug>": the spec section ("1", "2.6", "4.3", "5") or "gaps-<topic>" for docs/contract-gaps.md. */
  id: string;
  /** Where it comes from: "interface-spec.md 2.6" or "contract-gaps.md Wire format and error codes". */
  source: string;
  /** The normative statement, quoted or closely paraphrased. */
  statement: string;
  /** What the harness checks, and how. */
  check: string;
  /** The lowest coverage level that can judge it: through the public API alone, or with the required test hooks. */
  level: RuleLevel;
  /**
   * A statement of the reference service's own choice, not the contract's (docs/contract-gaps.md names it so): judged
   * only where the run's coverage level is `reference` (the target answers the reference service's optional hooks),
   * and left out of every other run's verdict, since another service may choose otherwise.
   */
  referenceOnly?: true;
  /**
   * Cheap enough to check on the answers under load: a header or the keys and values of one answer the traffic gets
   * anyway, no extra request. The traffic scenarios' shared checks judge every cheap rule of the conformance scenario
   * on their sampled answers, as a check named by the rule's id (lib/k6/cheap-rules.ts).
   */
  cheap: boolean;
  /** Who judges it: the conformance scenario, or (Part 7 and Part 8, the webhooks, the invariants) the scenario and check that already do — referenced, not duplicated. */
  judgedBy: { scenario: "conformance" } | { scenario: string; check: string };
}

/** A statement of the contract no rule can judge, and why (listed in docs/conformance.md and the report). */
export interface StatementNotChecked {
  source: string;
  statement: string;
  reason: string;
}

const CONFORMANCE = { scenario: "conformance" } as const;

/** Check names of other scenarios, as they record them (test/unit/conformance-rules.test.ts proves each exists). */
const rateLimit = (n: number, text: string) => ({ scenario: "rate-limit", check: `rate-limit #${n} ${text}` });
const alternatives = (check: string) => ({ scenario: "alternatives", check });
const webhooks = (check: string) => ({ scenario: "webhooks", check });
const invariants = (check: string) => ({ scenario: "invariants", check });

const ERRORS = "decisions.md Wire format: Errors; contract-gaps.md Wire format and error codes";

export const CONFORMANCE_RULES: readonly ConformanceRule[] = [
  // ---- Part 1: what the service does -------------------------------------------------------------------------
  {
    id: "1-links-self",
    source: "interface-spec.md 1; decisions.md Wire format: links; contract-gaps.md Links",
    statement:
      'Every response carries `links`: an array of {"rel", "href", "method"}, with `self` always present (failures included).',
    check:
      "On one answer of every kind a partner gets (the product list, product detail, restrictions, product types, product-type detail, price calendar, single date and config; a booking of the run's key made, read, listed by its reference and cancelled; a refusal without a key), the top-level `links` is an array whose every element has string rel, href and method, and one element has rel `self`; every answer that lacks it is named. A detail's data and list items that carry `links` (2.1, 2.3, 2.9) are held to the same shape, without self. Not judged when no booking can be made and the other answers keep the rule.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "1-options",
    source:
      "interface-spec.md 1; decisions.md Wire format: OPTIONS on every path; contract-gaps.md OPTIONS; interface-spec.md 4.0",
    statement:
      "The endpoints answer the HTTP OPTIONS method so that the interface describes itself: 200 with an `Allow` header naming the path's methods and a JSON body describing the methods, the parameters and the resource's keys.",
    check:
      "OPTIONS (with the key) on three paths of lib/contract/endpoints.ts that stand for the rest, filled with uuids setup found: a detail, a path with two parameters and a path with two methods. Each: status 200; `Allow` names every method the endpoint table gives the path; the JSON body describes `parameters` and `keys` and names each of those methods.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "1-product-has-types",
    source: "interface-spec.md 1",
    statement: "A product has one or more product types.",
    check:
      "For each product setup walks, GET /v2/products/{uuid}/product-types has meta.pagination.total >= 1 and a non-empty first page. Not under load: churn withdraws product types, and one answer does not tell a product whose types are withdrawn for the moment from one that never had any.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "1-required-options",
    source: "interface-spec.md 1; interface-spec.md 2.4; decisions.md Wire format: Errors",
    statement:
      "Booking options are dynamic fields attached to product types; they can be required (selected or filled out).",
    check:
      "For a found product type whose `options` holds a required one, POST /v2/bookings without it is refused (422 invalid_data or 400 invalid_params, in the error envelope) and creates nothing; not judged when setup found no type with a required option.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },

  // ---- Part 2: resources and their fields ----------------------------------------------------------------------
  {
    id: "2-keys-camel-case",
    source: "interface-spec.md 2",
    statement:
      "Response keys are written in camelCase (the spec's own snake_case exceptions: `partner_reference` of 2.8, `http_code` of 7.1/7.2 and the keys of the alternatives object 2.11).",
    check:
      "Every key of `data` (records and list items, first level) matches ^[a-z][a-zA-Z0-9]*$ or is one of the spec's named exceptions.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2-query-snake-case",
    source: "interface-spec.md 2",
    statement: "Query parameters are written in snake_case, as named in Part 4.",
    check:
      "The Part 4 names (date_start, date_end, first_name, last_name, partner_reference, ...) are accepted as written: each filters (4.3-bookings-filters) rather than being refused as unknown; and the GET parameters the OPTIONS self-descriptions of /v2/products and /v2/bookings name are snake_case (^[a-z][a-z0-9_]*$). The self-description's shape is the service's own (contract-gaps.md OPTIONS): where it names no GET parameters in the form the harness reads (`data.methods[].parameters`), that half is not judged, by design, and the rule is reported so without failing the run.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-formats-uuids",
    source: "interface-spec.md 2; contract-gaps.md Formats",
    statement: "Identifiers (`uuid`) are UUID strings.",
    check:
      "Every `uuid` and `*Uuid` value of the answers (records, list items, voucher files), however deep, matches the UUID pattern of lib/contract/schema.ts (any version, either case); `uuid` and `typeUuid` are never null, any other `*Uuid` key may be (nothing to identify).",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-formats-dates",
    source: "decisions.md Wire format: Dates YYYY-MM-DD; contract-gaps.md Formats",
    statement: "Dates are YYYY-MM-DD.",
    check:
      "Every date value of the answers (`date`, validFrom, validThrough, nearby_dates[].date, requested.date) matches ^\\d{4}-\\d{2}-\\d{2}$ and is a real calendar date.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-formats-timestamps",
    source: "decisions.md Wire format: Dates YYYY-MM-DD; contract-gaps.md Formats",
    statement: "Timestamps are ISO 8601 in UTC.",
    check:
      "Timestamps (the product detail's updatedAt, the error envelope's timestamp) are ISO 8601 in UTC, with Z or +00:00, to the minute, the second or any fraction, and a real time. Under load, every `timestamp`, `createdAt`, `updatedAt` and `generatedAt` of the sampled answers, however deep (null aside).",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-formats-money",
    source: "decisions.md Wire format: Dates YYYY-MM-DD; contract-gaps.md Formats",
    statement: "Money is a decimal string next to a three-letter `currency` code.",
    check:
      "basePrice and the amounts inside `prices` are strings matching ^\\d+(\\.\\d+)?$, and the record (product detail, calendar entry, single-date result) carries `currency` of three capital letters, one /v2/config lists when the config was read.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-formats-timeslots",
    source: "contract-gaps.md Formats; interface-spec.md 2.11",
    statement: "Timeslots are HH:MM.",
    check:
      "Every timeslot value of calendar entries, single-date results and alternatives matches ^([01]\\d|2[0-3]):[0-5]\\d$.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.1-product-list-keys",
    source: "interface-spec.md 2.1; interface-spec.md 9",
    statement:
      "A product list item has exactly uuid, updatedAt, title, titleTranslated, validFrom, validThrough, basePrice, typeName, typeUuid, links (v2 lists return fewer keys).",
    check:
      "Each item of GET /v2/products has exactly PRODUCT_LIST_ITEM_KEYS (lib/contract/key-sets.ts): none missing, none extra.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.2-product-detail-keys",
    source: "interface-spec.md 2.2; interface-spec.md 9",
    statement:
      "The product detail has exactly the keys of 2.2 and does not contain product types, prices, minChildren, maxChildren, url or staticUrl (they have their own endpoints).",
    check:
      "GET /v2/products/{uuid} `data` has exactly PRODUCT_DETAIL_KEYS and none of PRODUCT_DETAIL_FORBIDDEN_KEYS (lib/contract/key-sets.ts).",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.3-product-type-summary-keys",
    source: "interface-spec.md 2.3",
    statement: "A product type summary (the list for a product) has exactly uuid, title, links.",
    check: "Each item of GET /v2/products/{uuid}/product-types has exactly PRODUCT_TYPE_SUMMARY_KEYS.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.4-product-type-detail-keys",
    source: "interface-spec.md 2.4; interface-spec.md 1; interface-spec.md 9",
    statement:
      "The product type detail has exactly the keys of 2.4 (age groups adults, children, seniors and the infant-age fields); the adult limits are minPax and maxPax, and there are no minAdults or maxAdults keys.",
    check:
      "GET /v2/product-types/{uuid} `data` has exactly PRODUCT_TYPE_DETAIL_KEYS and neither minAdults nor maxAdults (PRODUCT_TYPE_DETAIL_FORBIDDEN_KEYS).",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.5-price-list-entry-keys",
    source: "interface-spec.md 2.5",
    statement:
      "A price-list entry (calendar, one per date) has exactly date, weekday, available, currency, prices, timeslots, options, links.",
    check: "Each item of GET /v2/product-types/{uuid}/price-lists has exactly PRICE_LIST_ENTRY_KEYS.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.5-one-entry-per-date",
    source: "interface-spec.md 2.5; interface-spec.md 4.2; contract-gaps.md Lists and pagination",
    statement:
      "The calendar holds one entry per date of the requested range, in ascending date order (so that each page is a range of consecutive dates).",
    check:
      "Over all pages of a price-lists answer for a short range (e.g. 14 days), the entries' dates are exactly the dates from date_start to date_end, each once, none outside, each after the one before it.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.5-weekday-matches-date",
    source: "interface-spec.md 2.5; interface-spec.md 2.6",
    statement: "Each entry's `weekday` is the weekday of its `date` (calendar entries and the single-date result).",
    check:
      "For every calendar entry and single-date result, `weekday` names the day of the week of `date` (computed in UTC; a name or the ISO number, whichever form the service uses, consistently).",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.5-available-consistent",
    source: "interface-spec.md 2.5; interface-spec.md 1",
    statement:
      "A product type has prices and availability per date, and per timeslot where it is timeslotted: `available` agrees with `prices` and, for timeslotted types, with `timeslots`.",
    check:
      "In each calendar entry (and the single-date result): available is a boolean; when true, `prices` is non-empty and, for a type setup found timeslotted, a listed timeslot can be booked; for a non-timeslotted type `timeslots` is empty. The answer alone, no second read. Under load, on the calendar's entries: a type counts as timeslotted once the VU has seen it list a timeslot (its detail, its calendar or its single date).",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.6-single-date-keys",
    source: "interface-spec.md 2.6",
    statement:
      "The single-date result has exactly date, weekday, available, currency, prices, timeslots, options, voucherValidity, links.",
    check: "GET /v2/product-types/{uuid}/price-lists/{date} `data` has exactly SINGLE_DATE_PRICE_KEYS.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.6-timeslots-mark-availability",
    source: "interface-spec.md 2.6",
    statement: "The presence of timeslots marks availability for timeslotted product types.",
    check:
      "For a type setup found timeslotted, the single-date result's `available` is true exactly when a timeslot it lists can be booked (listed, not marked unavailable, not down to 0 remaining): on the probe date, and on a date the calendar shows not available. Under load, on every sampled single-date answer of a type the VU has seen list a timeslot.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.6-voucher-validity-by-age",
    source: "interface-spec.md 2.6",
    statement: "`voucherValidity` is divided by age group and gives the full ticket validity.",
    check:
      "On an available date, voucherValidity is an object keyed by age group or an array whose entries each name one: adults present, every group one of adults, children, seniors. Whether every group the type allows (allowChildren, allowSeniors) has an entry is checked where the scenario read the type's detail; under load, where only the single-date answer is read, adults alone are required.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.6-no-cache",
    source: "interface-spec.md 2.6",
    statement: "The single-date result is computed in real time and must not be cached.",
    check:
      "The single-date answer's Cache-Control carries no-store or no-cache (or max-age=0), and it has no Expires in the future.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.6-real-time",
    source: "interface-spec.md 2.6; interface-spec.md 4.2",
    statement: "The single-date result is computed in real time.",
    check:
      "With the test hooks: inventory changed through PUT /__control/inventory/{productTypeUuid}/{date} (to none, then back) shows at once in the next single-date read: available false, then true again. Without them: the run's key sells a slot out with reservations (large parties first, halved on each refusal, within a bound on seats and requests) until a single seat is refused, and the single-date read right after must not show the slot bookable; a slot still shown bookable fails when one more single seat is then refused too (seats that came back in between are taken and the slot sold out again). The reservations are cancelled afterwards. Without hooks only the way to not bookable is judged: when a cancel's seats come back is the service's own business.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.7-booking-list-keys",
    source: "interface-spec.md 2.7; interface-spec.md 9",
    statement: "A booking list item has exactly uuid, code, status, createdAt, updatedAt.",
    check: "Each item of GET /v2/bookings has exactly BOOKING_LIST_ITEM_KEYS.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.8-booking-detail-keys",
    source: "interface-spec.md 2.8; interface-spec.md 9",
    statement:
      "The booking detail contains an `options` array, `adults` (v1's `guests`), the booking `status` and a `partner_reference`; it does not contain totalAmountRequestCurrency, requestCurrencyCode, confirmationEmailSentAt, confirmationEmailFiles, or links to media files.",
    check:
      "GET /v2/bookings/{uuid} (and the create, confirm and cancel answers) `data` has every key of BOOKING_DETAIL_REQUIRED_KEYS with `options` an array, none of BOOKING_DETAIL_FORBIDDEN_KEYS (guests included), and no element of `links` whose href points at a file (a voucher file or media download).",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.9-voucher-keys",
    source: "interface-spec.md 2.9; interface-spec.md 4.0; interface-spec.md 4.3",
    statement:
      "GET /v2/bookings/{bookingUuid}/vouchers answers an object `data` with one voucher file object per voucher, each with exactly uuid, generatedAt, downloadedAt, links.",
    check:
      "For an approved booking of an instantConfirmation type, the vouchers answer is {data: [...], links} (no pagination) and each element has exactly VOUCHER_FILE_KEYS.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.10-customer-object",
    source: "interface-spec.md 2.10; interface-spec.md 4.3; interface-spec.md 9",
    statement:
      "The booking request's `customer` object holds firstName, lastName, salutation, email, phone: the contact data of the person making the booking.",
    check:
      "POST /v2/bookings with a customer of exactly CUSTOMER_KEYS is accepted (status 200 or 201, booking reserved), the booking's detail echoes every one of them, and the contact data is what the list filters first_name, last_name, email and phone find (4.3-bookings-filters).",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "2.11-alternatives-shape",
    source: "interface-spec.md 2.11",
    statement:
      "The alternatives object: `requested` {date, timeslot only when timeslotted}, `same_date_timeslots` [{timeslot, qty}], `nearby_dates` [{date, qty}] or [{date, qty, timeslots:[{timeslot, qty}]}] for timeslotted products.",
    check: "The alternatives scenario checks every entry's shape on each 422 that carries alternatives.",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rules 5-7: entries are {timeslot, qty} and {date, qty[, timeslots]}"),
  },
  {
    id: "2.12-nested-shapes",
    source: "interface-spec.md 2.12; contract-gaps.md Nested values",
    statement:
      "Of the nested values spec 2.12 leaves open, the published partner document fixes these: each `timeslots` item of a calendar entry and of the single-date result is {timeslot, available, remaining} (a string, a boolean, a whole number; keys of the service's own beside them), their `options` and the booking detail's `options` are arrays, and every `*Translated` value is text by language code (an object of strings). The others are the service's own.",
    check:
      "On a calendar, a single-date result, the products list, a product detail, a product type's detail and a booking's detail: every nested value the statement names has that shape; each problem names the item and the key.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },

  // ---- Part 3: states and transitions ----------------------------------------------------------------------------
  {
    id: "3-initial-reserved",
    source: "interface-spec.md 3; decisions.md Booking states",
    statement: "A new booking starts in the status `reserved` (POST /v2/bookings, request accepted: booking created).",
    check:
      "The answer of POST /v2/bookings (a slot the single-date endpoint said can be booked) has status `reserved`; the same check (initialStatusProblem) reads any create answer the traffic gets, with no request of its own. The booking is cancelled afterwards.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "3-status-segments",
    source: "interface-spec.md 3; interface-spec.md 4.3",
    statement:
      "Transitions are requested with the status path segment `confirm` or `cancel` (PUT /v2/bookings/{uuid}/{status}).",
    check:
      "PUT /v2/bookings/{uuid}/{other segment} (e.g. approve) is refused with 404 not_found or 400 invalid_params in the error envelope, and the booking's status does not change.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-states-status-values",
    source: "decisions.md Booking states; contract-gaps.md Booking states; interface-spec.md 3",
    statement: "The statuses are reserved, waiting, approved, rejected, cancelled, expired.",
    check:
      "Every `status` of a booking answer (detail, list item, create, confirm, cancel) is one of BOOKING_STATUSES (lib/contract/types.ts).",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-states-confirm",
    source: "decisions.md Booking states; contract-gaps.md Booking states; interface-spec.md 3",
    statement:
      "confirm on a bookable `reserved` booking -> `approved` for instantConfirmation product types (vouchers are issued), `waiting` for the others.",
    check:
      "Confirm a fresh booking of a found instantConfirmation type and of a non-instant one: the answer and the next read say `approved` and `waiting` respectively; the approved one has at least one voucher file.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-states-waiting-decided",
    source: "decisions.md Booking states; contract-gaps.md Booking states",
    statement: "A `waiting` booking becomes `approved` or `rejected` by the supplier after a delay.",
    check:
      "A booking confirmed into `waiting` reads `approved` or `rejected` after the clock is moved on (POST /__control/clock); how long the supplier takes is not part of the contract, so one still waiting after a day of service time is a finding, not a failure.",
    level: "required-hooks",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "3-confirm-holds-capacity",
    source: "interface-spec.md 3; decisions.md Booking states; contract-gaps.md Booking states",
    statement:
      "A confirm locks the inventory: seats are held while a booking is reserved, waiting or approved (and given back on cancelled, rejected, expired).",
    check: "The invariants scenario proves no slot ever has more seats confirmed than it offered.",
    level: "public-api",
    cheap: false,
    judgedBy: invariants("invariant: no oversell per slot"),
  },
  {
    id: "3-confirm-last-seat",
    source: "interface-spec.md 3",
    statement:
      "A confirm succeeds only while the inventory is still bookable: of confirms racing for the last seat, one wins.",
    check: "The invariants scenario races confirms on a slot's last seat and checks exactly one succeeds.",
    level: "public-api",
    cheap: false,
    judgedBy: invariants("invariant: exactly one winner in a confirm race on the last seat"),
  },
  {
    id: "3-confirm-failure-422",
    source: "interface-spec.md 3; interface-spec.md 7.2; contract-gaps.md Booking states",
    statement:
      "A confirm the inventory no longer allows answers HTTP 422 (always 422, whatever the cause), and the booking stays `reserved`.",
    check:
      "The alternatives scenario confirms bookings on a sold-out slot (hooks: the inventory set to none; public API: competing reservations with --reservation-hold) and fails any that is confirmed; each 422 goes through the endpoint's status check.",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives: a sold-out slot is not confirmed"),
  },
  {
    id: "gaps-states-cancel-pending",
    source: "decisions.md Booking states; contract-gaps.md Booking states; interface-spec.md 3",
    statement:
      "cancel on `reserved` or `approved` creates a cancellation request subject to approval (cancellationRequestStatus: pending); the booking keeps its status while the request is pending.",
    check:
      "PUT /v2/bookings/{uuid}/cancel on a reserved booking answers 200 with cancellationRequestStatus `pending` and the status unchanged; the next read agrees.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-states-cancelled",
    source: "decisions.md Booking states; contract-gaps.md Booking states",
    statement: "An approved cancellation request ends in `cancelled`, and the seats are given back.",
    check:
      "After a cancel, the clock is moved on (POST /__control/clock): the booking reads `cancelled` and the slot's remaining seats (GET /__control/inventory) are back; the approval delay is not part of the contract, so a request still pending after a day of service time is a finding.",
    level: "required-hooks",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "3-illegal-transition-409",
    source: `decisions.md Booking states; contract-gaps.md Booking states; interface-spec.md 3; interface-spec.md 7.3; ${ERRORS}`,
    statement:
      "Any transition the current status does not allow (a second confirm, confirm or second cancel while a cancellation is pending, cancel while waiting, ...) answers 409 invalid_action, and the status does not change.",
    check: "The invariants scenario tries the illegal transitions and reads the booking after each.",
    level: "public-api",
    cheap: false,
    judgedBy: invariants("invariant: illegal transitions refused with 409 invalid_action and change nothing"),
  },
  {
    id: "gaps-states-double-confirm",
    source: "decisions.md Booking states; contract-gaps.md Booking states",
    statement: "Two confirms of one booking end in one legal state (the second is 409 invalid_action).",
    check:
      "The invariants scenario sends concurrent confirms of one booking and checks a legal order explains the outcome.",
    level: "public-api",
    cheap: false,
    judgedBy: invariants("invariant: a double confirm ends in one legal state"),
  },
  {
    id: "gaps-states-confirm-vs-cancel",
    source: "decisions.md Booking states; contract-gaps.md Booking states",
    statement: "A confirm and a cancel of one booking end in one legal state.",
    check: "The invariants scenario races confirm against cancel and checks a legal order explains the outcome.",
    level: "public-api",
    cheap: false,
    judgedBy: invariants("invariant: confirm vs cancel ends in one legal state"),
  },
  {
    id: "3-expiry-5-days",
    source: "interface-spec.md 3; interface-spec.md 8; decisions.md Booking states",
    statement:
      "A booking not actioned (no confirm or cancel) for 5 days expires (`expired`) and its capacity is released.",
    check:
      "The invariants scenario leaves reservations alone, moves the service clock past 5 days (POST /__control/clock) and reads them expired and their seats back; not judged without the clock hook.",
    level: "required-hooks",
    cheap: false,
    judgedBy: invariants("invariant: a reservation left alone for 5 days expires and releases its capacity"),
  },

  // ---- Part 4: endpoints -----------------------------------------------------------------------------------------
  {
    id: "4.0-fields-honoured",
    source: "interface-spec.md 4.0; interface-spec.md 4.1; interface-spec.md 4.2",
    statement: "Detail endpoints for products and product types accept `fields` (which keys to return).",
    check:
      "GET of the product and product type details with fields=title answers 200 whose `data` holds title and, beyond the keys a detail always keeps (uuid, links), nothing else.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.0-language-honoured",
    source: "interface-spec.md 4.0; interface-spec.md 4.1; interface-spec.md 4.2",
    statement: "Detail endpoints for products and product types accept `language` (language of the returned content).",
    check:
      "For a language GET /v2/config lists besides en, the product detail with language=<it> answers 200 and its translated content (the *Translated values) is not what language=en answers: the content follows `language`. Whether a text is in a language is not judged by its characters (many languages are written in Latin script). Not judged, by design, when the config lists no other language; an unknown code is 4.0-unknown-values-refused's.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.0-unknown-values-refused",
    source: `interface-spec.md 4.0; ${ERRORS}`,
    statement:
      "A `fields` naming no key of the resource or an unsupported `language` is a malformed parameter: 400 invalid_params.",
    check:
      "GET of the details with fields naming a key no resource has and with language=zz (unassigned in ISO 639-1) answers 400 (code invalid_params, in the envelope, is gaps-error-400-validation's).",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-lists-envelope",
    source: "decisions.md Wire format: Lists; contract-gaps.md Lists and pagination; interface-spec.md 4.0",
    statement:
      'Lists answer {"data": [...], "meta": {"pagination": {"total", "count", "per_page", "current_page", "total_pages"}}, "links"}; details {"data": {...}, "links"}; the vouchers answer {"data": [...], "links"} without pagination.',
    check:
      "Every success answer has its endpoint's envelope (RESPONSE_SHAPES in lib/contract/key-sets.ts): the list, collection or detail form, with the five pagination numbers whole and non-negative; the vouchers answer of an approved booking has no meta.pagination. Not judged when no booking can be approved and the other answers keep the rule.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-pagination-params",
    source: "decisions.md Wire format: Lists; contract-gaps.md Lists and pagination",
    statement:
      "Pages are chosen with `page` (from 1) and `per_page` (from 1 to 100); without `per_page` the page size is the service's own, said by meta.pagination.per_page.",
    check:
      "Without per_page a list answers a whole meta.pagination.per_page of at least 1 and at most that many items; per_page=100 is served; per_page=101 and page=0 are refused with 400 invalid_params (a service answering per_page=101 with at most 100 items is reported as a finding).",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.3-pagination-consistent",
    source:
      "interface-spec.md 4.3; interface-spec.md 4.1; decisions.md Wire format: Lists; contract-gaps.md Lists and pagination",
    statement: "Pagination is supported on the lists: the pages of a list add up to it.",
    check:
      "Every list the harness walks adds up, judged strictly in this scenario (nothing changes the lists between its reads): GET /v2/products page by page with a per_page that gives it about five pages (at most ten read), the product types of a found product one to a page, and three bookings that share a first name unique to the call, two to a page (first_name filter). On each page current_page, per_page and count are its own, total_pages is ceil(total / per_page), and it holds the items its total puts there; no item is on two pages, total does not change from page to page, and a whole walk sees total distinct items; the failure names the items and pages. Under load, catalogue sync's full syncs (lib/k6/traffic/full-sync.ts) walk the products list the same way, as the check `4.3-pagination-consistent: a list's pages add up`, counting only what no change of the list between two reads explains (an item on two pages while total held, a page whose figures disagree with its items) and only once the pages read again show it too.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.1-products-language",
    source: "interface-spec.md 4.1",
    statement: "GET /v2/products takes `language` (the language of the list items' content).",
    check:
      "For a language GET /v2/config lists besides en, GET /v2/products?language=<it> answers 200 and the items' translated content (titleTranslated) is not what language=en answers for the same items: it follows `language`, whatever its script; language=zz answers 400 invalid_params. Without another language in the config only the refusal is judged.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.1-product-types-of-product",
    source: "interface-spec.md 4.1; interface-spec.md 4.2",
    statement:
      "GET /v2/products/{uuid}/product-types lists the product's types; each is readable at GET /v2/product-types/{uuid}.",
    check: "Every summary of a walked product's list answers 200 at its detail, with the same uuid and title.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.1-restrictions-answer",
    source: "interface-spec.md 4.1; interface-spec.md 1; interface-spec.md 5",
    statement:
      "GET /v2/products/{uuid}/restrictions answers the origin restrictions configured for the product, scoped to the authenticated partner.",
    check:
      "For walked products the endpoint answers 200 with a detail envelope for the run's key (the record's fields are not shown: 2.12), and 404 not_found for an unknown product uuid.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.2-date-range-required",
    source: `interface-spec.md 4.2; ${ERRORS}`,
    statement: "The price calendar requires `date_start` and `date_end`.",
    check:
      "GET /v2/product-types/{uuid}/price-lists without date_start, without date_end and without both answers 400 invalid_params in the error envelope.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.2-date-format",
    source: `interface-spec.md 4.2; decisions.md Wire format: Dates YYYY-MM-DD; ${ERRORS}`,
    statement: "The single-date path {date} is YYYY-MM-DD; the calendar's dates are YYYY-MM-DD too (the decision).",
    check:
      "price-lists with date_start=25-11-2026 or 2026-13-01, and price-lists/2026-02-30 and price-lists/20261125, are refused with 400 invalid_params (404 not_found accepted for the path form, as a finding); the YYYY-MM-DD forms are served.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.2-six-months",
    source: `interface-spec.md 4.2; interface-spec.md 8; ${ERRORS}`,
    statement: "The range between date_start and date_end must not exceed six months.",
    check:
      "A range of exactly six calendar months is served; one day more, and date_end before date_start, answer 400 invalid_params in the error envelope.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-booking-request",
    source: "contract-gaps.md Booking request; interface-spec.md 4.3; decisions.md Wire format: Errors",
    statement:
      "The booking body needs productTypeUuid and date, a timeslot for timeslotted types; partnerReference is at most 100 characters; each option is {uuid, value}.",
    check:
      "POST /v2/bookings without date, without productTypeUuid, without timeslot on a timeslotted type, or with a 101-character partnerReference is refused (400 invalid_params or 422 invalid_data, in the envelope) and creates nothing (the key's bookings list is unchanged).",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "9-pax-replaced",
    source: "interface-spec.md 9; interface-spec.md 4.3",
    statement: "The booking payload uses `adults` instead of v1's `pax`.",
    check:
      "A booking body with `pax` and no `adults` is not booked as pax people: it is refused (400 or 422 in the envelope), or booked without those people (a finding); a body with `adults` books that many (the detail's `adults` echoes it).",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.3-bookings-filters",
    source: "interface-spec.md 4.3; interface-spec.md 2.8",
    statement:
      "GET /v2/bookings filters by date_start, date_end, first_name, last_name, email, phone, partner_reference, status.",
    check:
      "One booking with customer data and a partner reference unique to the call: all filters at its values find it; each filter at another value, beside its reference, finds nothing. The booking is cancelled afterwards.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "4.3-booking-readable",
    source: "interface-spec.md 4.3",
    statement:
      "GET /v2/bookings/{uuid} answers the booking detail with its current status; the list holds every booking.",
    check: "The invariants scenario reads and lists every booking it made and checks the status its history implies.",
    level: "public-api",
    cheap: false,
    judgedBy: invariants("invariant: no lost booking (readable and listed with the state the history implies)"),
  },
  {
    id: "4.4-config-items",
    source: "interface-spec.md 4.4; interface-spec.md 1",
    statement:
      "GET /v2/config answers the supported languages, currencies and locations, other configuration items, and the base address of images.",
    check:
      "200 with a detail envelope whose `data` has an entry for languages, currencies and locations (non-empty arrays) and an image base address (a string URL); their key names are not shown (2.12), so they are matched by name (language, currenc, location, image) and a different naming is a finding.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },

  // ---- Part 5: authentication ------------------------------------------------------------------------------------
  {
    id: "5-auth-required",
    source: `interface-spec.md 5; interface-spec.md 4.0; ${ERRORS}; contract-gaps.md OPTIONS`,
    statement:
      "Every request carries `X-Authorization` with the partner's API key; a missing or unknown key answers 401 GEN-UNAUTHORIZED in the error envelope, on every path, OPTIONS included.",
    check:
      "A read (GET /v2/products), a write (POST /v2/bookings) and OPTIONS /v2/bookings, each sent with no X-Authorization and with a made-up key: 401 with code GEN-UNAUTHORIZED and http_code 401 in the error envelope; anything the write booked by mistake is cancelled. The three requests stand for every path.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "5-key-identifies-partner",
    source: "interface-spec.md 5",
    statement: "The key identifies the partner.",
    check:
      "With two keys of the run: a booking made with one is not readable (404 not_found) nor listed, confirmable or cancellable with the other.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "5-voucher-links-need-key",
    source: "interface-spec.md 5; interface-spec.md 2.9; interface-spec.md 1; interface-spec.md 9",
    statement:
      "Voucher file links require authorization and are downloaded by the partner (they must not be handed to the end customer).",
    check:
      "An approved booking of an instant-confirmation type bookable on the probe date: its first voucher file's link refuses a request with no key and with a made-up key (401, or 403 from a service that says so); not judged when no such type is found. The booking is cancelled afterwards.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },

  // ---- Part 6 and decisions.md Webhooks --------------------------------------------------------------------------
  {
    id: "6-event-kinds",
    source: "interface-spec.md 6",
    statement:
      "The service sends eight kinds of event as HTTP POSTs to the partner: product_available, product_updated, product_type_available, product_type_not_available, product_type_content_updated, booking_status_updated, booking_data_updated, booking_tickets_updated, each on its trigger.",
    check:
      "The webhooks scenario triggers every kind (catalogue kinds through the control API) and expects each at the sink.",
    level: "required-hooks",
    cheap: false,
    judgedBy: webhooks("webhooks: all eight event kinds delivered"),
  },
  {
    id: "6-booking-event-kinds",
    source: "interface-spec.md 6",
    statement:
      "A booking's status, data and tickets updates are sent as booking_status_updated, booking_data_updated, booking_tickets_updated.",
    check:
      "Without hooks, the webhooks scenario's own bookings cause the three booking kinds; each must arrive at the sink.",
    level: "public-api",
    cheap: false,
    judgedBy: webhooks("webhooks: all three booking event kinds delivered"),
  },
  {
    id: "gaps-webhooks-status-events",
    source: "decisions.md Booking states; contract-gaps.md Booking states; decisions.md Webhooks",
    statement:
      "Every status change emits booking_status_updated; vouchers generated on approval emit booking_tickets_updated.",
    check:
      "Each status change the scenarios cause (and, with hooks, the supplier's decisions and expiry) is logged as an expected event; expected events that never arrive count as lost, against the webhook_lost threshold. A create's `reserved` is expected as optional: whether a create emits is the service's choice (docs/contract-freedoms.md).",
    level: "public-api",
    cheap: false,
    judgedBy: webhooks("webhook_lost"),
  },
  {
    id: "gaps-webhooks-registration",
    source: "decisions.md Webhooks; contract-gaps.md Webhooks",
    statement:
      "Each partner registers one endpoint (control API: PUT /__control/partners/{apiKey} {webhookUrl, webhookSecret}).",
    check:
      "The webhooks scenario registers its sink per key through the hook (or by hand / --webhook-register-cmd without hooks) and expects the key's events there; a registration that does not take shows as loss.",
    level: "required-hooks",
    cheap: false,
    judgedBy: webhooks("webhook_lost"),
  },
  {
    id: "gaps-webhooks-signature",
    source: "decisions.md Webhooks; contract-gaps.md Webhooks",
    statement:
      "Deliveries follow Standard Webhooks: webhook-signature = v1,<base64 HMAC-SHA256 of id.timestamp.body> with the partner's secret.",
    check: "The sink verifies every attempt's signature with the endpoint's secret.",
    level: "public-api",
    cheap: false,
    judgedBy: webhooks("webhooks: webhook-signature valid on every attempt"),
  },
  {
    id: "gaps-webhooks-timestamp",
    source: "decisions.md Webhooks; contract-gaps.md Webhooks",
    statement: "webhook-timestamp is the UNIX seconds of the attempt.",
    check: "The sink checks every attempt's webhook-timestamp is a whole number within the tolerance of its arrival.",
    level: "public-api",
    cheap: false,
    judgedBy: webhooks("webhooks: webhook-timestamp within tolerance on every attempt"),
  },
  {
    id: "gaps-webhooks-id-stable",
    source: "decisions.md Webhooks; contract-gaps.md Webhooks",
    statement: "webhook-id is stable across retries (the same on every attempt of a message).",
    check:
      "The sink refuses a share of first attempts on purpose and checks each retry carries the refused attempt's webhook-id.",
    level: "public-api",
    cheap: false,
    judgedBy: webhooks("webhooks: retries keep the webhook-id"),
  },
  {
    id: "gaps-webhooks-body",
    source: "decisions.md Webhooks; contract-gaps.md Webhooks",
    statement: 'The body is {"type", "timestamp", "data": {...}}, `type` one of the eight events.',
    check:
      "The sink reads type, timestamp and data of each body to join it with its expectation; a body without them joins none, so its expected event counts as lost (webhook_lost). The shape has no check of its own.",
    level: "public-api",
    cheap: false,
    judgedBy: webhooks("webhook_lost"),
  },
  {
    id: "gaps-webhooks-success",
    source: "decisions.md Webhooks; contract-gaps.md Webhooks",
    statement: "A delivery succeeds on a 2xx within 20 s; a failed one is retried.",
    check:
      "The sink refuses a share of first attempts with 500, with 429, or by holding the request past 20 s, and checks each is retried; deliveries answered 2xx in time that arrive again count as duplicates (webhook_duplicates).",
    level: "public-api",
    cheap: false,
    judgedBy: webhooks("webhooks: a refused delivery is retried"),
  },
  {
    id: "gaps-webhooks-retry-schedule",
    source: "decisions.md Webhooks; contract-gaps.md Webhooks",
    statement:
      "Retries come after 1, 2, 4, 8, 16, 32, 64 minutes, then daily for 3 days; a time scale factor divides the schedule in tests.",
    check:
      "Each retry's delay after the refused attempt is checked against RETRY_SCHEDULE_SECONDS divided by the time scale (read from GET /__control/clock, or stated by the operator without hooks), on real timers or on the service clock with the run's own clock advances counted (docs/contract-freedoms.md).",
    level: "public-api",
    cheap: false,
    judgedBy: webhooks("webhooks: retries follow the schedule"),
  },
  {
    id: "gaps-webhooks-410-disables",
    source: "decisions.md Webhooks; contract-gaps.md Webhooks",
    statement: "A 410 answer disables the endpoint at once.",
    check: "Chosen sink endpoints answer 410 after some deliveries; nothing may arrive there afterwards.",
    level: "public-api",
    cheap: false,
    judgedBy: webhooks("webhooks: nothing is delivered after 410"),
  },

  // ---- Part 7: errors --------------------------------------------------------------------------------------------
  {
    id: "7.1-429-status",
    source: "interface-spec.md 7.1; interface-spec.md 8",
    statement: "When the rate limit of Part 8 is exceeded, the response is HTTP 429.",
    check:
      "The rate-limit probe exhausts a fresh key through one listed endpoint and expects a 429 within the limit + 10 requests.",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(2, "the allowance runs out with a 429"),
  },
  {
    id: "7.1-429-content-type",
    source: "interface-spec.md 7.1",
    statement: "The 429 carries Content-Type: application/json.",
    check: "Content-Type of the probe's 429 starts with application/json.",
    level: "public-api",
    cheap: true,
    judgedBy: rateLimit(2, "429 Content-Type is application/json"),
  },
  {
    id: "7.1-429-limit-remaining",
    source: "interface-spec.md 7.1",
    statement: "The 429 carries X-RateLimit-Limit and X-RateLimit-Remaining (0).",
    check: "X-RateLimit-Limit of the 429 equals the limit read on the first answer, and X-RateLimit-Remaining is 0.",
    level: "public-api",
    cheap: true,
    judgedBy: rateLimit(2, "429 X-RateLimit-Limit is the limit and X-RateLimit-Remaining is 0"),
  },
  {
    id: "7.1-429-retry-after",
    source: "interface-spec.md 7.1; decisions.md Rate limit; contract-gaps.md Rate limit",
    statement:
      "The 429 carries Retry-After: the seconds to wait, whole seconds, at least 1 (the seconds left rounded up, down or to the nearest: the service's choice).",
    check: "Retry-After is a whole number of seconds, at least 1 and at most the window.",
    level: "public-api",
    cheap: true,
    judgedBy: rateLimit(2, "429 Retry-After is whole seconds, at least 1 and at most the window"),
  },
  {
    id: "7.1-429-reset",
    source: "interface-spec.md 7.1; decisions.md Rate limit; contract-gaps.md Rate limit",
    statement: "The 429 carries X-RateLimit-Reset: the UNIX timestamp (seconds) at which a retry is possible.",
    check:
      "X-RateLimit-Reset is UNIX seconds, not before Date, and within two seconds of Date + Retry-After (Date is truncated to the second; Reset and Retry-After are rounded as the service chooses).",
    level: "public-api",
    cheap: true,
    judgedBy: rateLimit(2, "429 X-RateLimit-Reset is a UNIX time in seconds consistent with Date and Retry-After"),
  },
  {
    id: "7.1-429-body",
    source: "interface-spec.md 7.1",
    statement: "The 429 body has the object `error` with code GEN-TOO-MANY-REQUESTS, http_code 429 and a message.",
    check: "The probe's 429 body: error.code GEN-TOO-MANY-REQUESTS, error.http_code 429, a non-empty error.message.",
    level: "public-api",
    cheap: true,
    judgedBy: rateLimit(2, "429 body is error {code GEN-TOO-MANY-REQUESTS, http_code 429, message}"),
  },
  {
    id: "7.1-retry-before-refused",
    source: "interface-spec.md 7.1",
    statement: "Retry-After is the time to wait: a retry well before it is refused.",
    check: "The probe retries at a fraction of Retry-After and expects 429 again.",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(6, "a retry well before Retry-After is refused"),
  },
  {
    id: "7.1-retry-after-succeeds",
    source: "interface-spec.md 7.1",
    statement: "X-RateLimit-Reset is when a retry is possible: a retry after Retry-After succeeds.",
    check:
      "The probe waits Retry-After, one second more (a Retry-After rounded down may say up to a second less than is left) and a margin, and expects the retry to be served.",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(6, "a retry after Retry-After succeeds"),
  },
  {
    id: "7.2-always-422",
    source: "interface-spec.md 7.2",
    statement:
      "When a reserved booking cannot be confirmed (changed supplier inventory, stale availability cache, capacity limit) PUT /v2/bookings/{uuid}/confirm always answers 422.",
    check:
      "The alternatives scenario's confirms of sold-out slots must not succeed; each answer goes through the 422 status check.",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives: a sold-out slot is not confirmed"),
  },
  {
    id: "gaps-error-422-prices-mismatch",
    source: `interface-spec.md 7.2; ${ERRORS}`,
    statement:
      "The 422 of a failed confirmation carries code, message, http_code, inside `error` as in 7.1; its code is prices_mismatch.",
    check:
      "A confirm made to fail (hooks: the slot's inventory set to none; public API: the run's own reservations take the slot, with --reservation-hold) answers 422 with error.code prices_mismatch, error.http_code 422, a message, in the envelope.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "7.2-rule1-opt-in",
    source: "interface-spec.md 7.2; interface-spec.md 5",
    statement:
      "Rule 1: alternatives are an opt-in feature enabled per API key; partners without it see identical responses to before (rule 2: omitted entirely when the feature is disabled for the key).",
    check: "The same sold-out confirm with a key without the feature: the 422 carries no `alternatives`.",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rule 1: omitted for keys without the feature"),
  },
  {
    id: "7.2-rule1-identical",
    source: "interface-spec.md 7.2",
    statement: "Rule 1: partners without the feature see identical responses to before.",
    check: "The 422 fields of a key without the feature equal those of a key with it, alternatives cut out.",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rule 1: keys without the feature get the same 422 fields"),
  },
  {
    id: "7.2-rule1-carried",
    source: "interface-spec.md 7.2; decisions.md Wire format: Errors",
    statement:
      "Rule 1: a key with the feature gets `alternatives` on its 422 (inside `error`, beside `code`, per the decision) when a suggestion can be computed.",
    check: "Every judged 422 of a key with the feature carries the alternatives object in `error`.",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rule 1: 422s of keys with the feature carry alternatives"),
  },
  {
    id: "7.2-rule3-arrays",
    source: "interface-spec.md 7.2",
    statement:
      "Rule 3: when present, same_date_timeslots and nearby_dates are both always arrays; either or both may be empty.",
    check: "Both members are arrays on every 422 that carries alternatives.",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rule 3: same_date_timeslots and nearby_dates are always arrays"),
  },
  {
    id: "7.2-rule4-requested",
    source: "interface-spec.md 7.2",
    statement:
      "Rule 4: `requested` is always echoed and holds `date`; `timeslot` is present only for timeslotted products.",
    check:
      "requested.date is the booking's date; requested.timeslot is the booking's timeslot when timeslotted and absent otherwise.",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rule 4: requested echoes the date, and the timeslot only when timeslotted"),
  },
  {
    id: "7.2-rule5-same-date",
    source: "interface-spec.md 7.2",
    statement:
      "Rule 5: timeslotted product, requested date still has other timeslots with capacity: all of them are listed in same_date_timeslots, each {timeslot, qty}.",
    check:
      "Each bookable timeslot of the requested date (ground truth with hooks; fresh single-date reads without) must be suggested (recall); suggestions must be bookable (precision).",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rules 5-7: every bookable slot within the window is suggested (recall)"),
  },
  {
    id: "7.2-rule6-next-date",
    source: "interface-spec.md 7.2; interface-spec.md 8; decisions.md Inventory and alternatives",
    statement:
      "Rule 6: timeslotted product, requested date sold out: same_date_timeslots is empty and nearby_dates holds one entry, the next future date with any bookable timeslot, scanned up to 7 calendar days forward, {date, qty, timeslots:[{timeslot, qty}]}.",
    check:
      "The one suggested date is the first bookable date within 7 days after the requested one, and each suggested slot is bookable (precision); none missed (recall).",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rules 5-7: every suggestion is bookable and within the window (precision)"),
  },
  {
    id: "7.2-rule7-nearby-dates",
    source: "interface-spec.md 7.2; interface-spec.md 8; decisions.md Inventory and alternatives",
    statement:
      "Rule 7: non-timeslotted product: nearby_dates holds up to three future dates within the next three calendar days that have any bookable capacity, each {date, qty}; same_date_timeslots is empty.",
    check:
      "Every suggested date is within 3 days after the requested date and bookable (precision), none missed (recall), and same_date_timeslots is empty (entry shape check).",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rules 5-7: every suggestion is bookable and within the window (precision)"),
  },
  {
    id: "7.2-rule8-qty",
    source:
      "interface-spec.md 7.2; decisions.md Inventory and alternatives; contract-gaps.md Inventory and alternatives",
    statement:
      "Rule 8: `qty` is the maximum any single price category could book at that slot (remaining capacity and the per-category caps).",
    check:
      "Each qty equals the value expectedAlternatives computes from the ground-truth inventory (GET /__control/inventory).",
    level: "required-hooks",
    cheap: false,
    judgedBy: alternatives("alternatives rule 8: qty equals the true value"),
  },
  {
    id: "7.2-rule8-fresh-check",
    source: "interface-spec.md 7.2",
    statement:
      "Rule 8: qty is an upper bound and a hint, not a guarantee; a fresh availability check must be done before confirming an alternative.",
    check:
      "A suggested alternative, checked afresh with the single-date endpoint, books and confirms (unless churn took it since).",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rule 8: a suggested alternative confirms after a fresh check"),
  },
  {
    id: "7.2-rule9-additive",
    source: "interface-spec.md 7.2; interface-spec.md 9",
    statement: "Rule 9: the feature is additive: code, message and http_code of the 422 are unchanged.",
    check:
      "The 422's error object of a key with the feature, alternatives cut out, is byte for byte that of a key without it.",
    level: "public-api",
    cheap: false,
    judgedBy: alternatives("alternatives rule 9: code, message and http_code unchanged by the feature"),
  },
  {
    id: "gaps-error-envelope",
    source: `interface-spec.md 7.3; ${ERRORS}; decisions.md Wire format: links`,
    statement:
      'Every failure answers {"error": {"code", "message", "http_code"}, "links": [...], "timestamp"}, the 422 of a failed confirmation included.',
    check:
      "A missing resource (GET /v2/products/<unknown uuid>) and a missing path answer JSON with error.code a string, error.message, error.http_code equal to the status, `links` with self and an ISO 8601 `timestamp`. The same check (errorEnvelopeProblem) reads any failure an answer the traffic gets anyway, with no request of its own.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-error-400-validation",
    source: `interface-spec.md 7.3; ${ERRORS}`,
    statement: "A malformed parameter or body answers 400 invalid_params.",
    check:
      "POST /v2/bookings whose adults is not an integer answers 400 with code invalid_params in the envelope (anything booked by mistake is cancelled).",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-error-400-malformed-json",
    source: `interface-spec.md 7.3; ${ERRORS}`,
    statement: "A body that is not JSON answers 400 malformed_json.",
    check:
      'POST /v2/bookings with the body `{"adults": 2,` (truncated) answers 400 with code malformed_json in the envelope.',
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-error-404",
    source: `interface-spec.md 7.3; ${ERRORS}`,
    statement: "No such resource or path answers 404 not_found.",
    check:
      "A random UUID on each detail path (product, product type, booking, vouchers) and an unknown path under /v2 answer 404 with code not_found in the envelope.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-error-405",
    source: `interface-spec.md 7.3; ${ERRORS}`,
    statement: "The path exists but the method does not: 405 method_not_allowed.",
    check:
      "DELETE /v2/products answers 405 with code method_not_allowed in the envelope and an Allow header naming GET.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-error-410-gone",
    source: `interface-spec.md 7.3; ${ERRORS}`,
    statement: "A product type no longer available answers 410 gone.",
    check:
      "A found product type withdrawn through PUT /__control/product-types/{uuid} {available: false}: its detail, calendar and single-date paths answer 410 with code gone in the envelope (and it is made available again).",
    level: "required-hooks",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-error-413",
    source: "contract-gaps.md Wire format and error codes",
    statement:
      "The reference service refuses bodies over 64 KiB with 413 payload_too_large (its own choice, not the contract's).",
    check:
      "Only against the reference service (coverage level reference): POST /v2/bookings with a body over 64 KiB answers 413 with code payload_too_large in the envelope. Another service's limit is its own, so the rule is in no other run's verdict.",
    level: "public-api",
    referenceOnly: true,
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-error-422-invalid-data",
    source: `interface-spec.md 7.3; ${ERRORS}`,
    statement: "A booking request that cannot be booked (limits, seats, options) answers 422 invalid_data.",
    check:
      "POST /v2/bookings with adults above the type's maxPax, or on a date the calendar shows unavailable, answers 422 with code invalid_data in the envelope and creates nothing.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
  {
    id: "gaps-error-500",
    source: `interface-spec.md 7.3; ${ERRORS}`,
    statement: "The service failing answers 500 internal_error.",
    check:
      "Any 500 the traffic gets carries code internal_error in the error envelope (under load, on every sampled 500). No request of the public API makes a correct service fail, so the scenario asks for one through the optional fault hook (PUT /__control/faults); where the service does not offer it the rule is not judged, by design, and reported so without failing the run.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },

  // ---- Part 8: limits, and decisions.md Rate limit ----------------------------------------------------------------
  {
    id: "8-headers-on-listed",
    source: "interface-spec.md 8",
    statement:
      "Every response from a listed endpoint carries X-RateLimit-Limit (400) and X-RateLimit-Remaining (requests left in the period).",
    check:
      "The probe reads both headers on all six listed endpoints; every scenario's traffic also checks their values per key (RATE_LIMIT_VALUE_CHECKS in lib/k6/checks.ts).",
    level: "public-api",
    cheap: true,
    judgedBy: rateLimit(1, "every listed endpoint carries X-RateLimit-Limit and X-RateLimit-Remaining"),
  },
  {
    id: "8-limit-value",
    source: "interface-spec.md 8; decisions.md Rate limit; contract-gaps.md Rate limit",
    statement: "The request rate is 400 requests per minute (the decision: per API key, by default, per 60 s window).",
    check:
      "X-RateLimit-Limit is a positive whole number; the harness takes the limit the service states, since a deployment may configure another (a value other than 400 shows in the report, not as a failure).",
    level: "public-api",
    cheap: true,
    judgedBy: rateLimit(1, "X-RateLimit-Limit is a positive whole number"),
  },
  {
    id: "8-remaining-counts",
    source: "interface-spec.md 8",
    statement: "X-RateLimit-Remaining is the requests left in the period.",
    check:
      "On a fresh key, Remaining starts at limit - 1 and falls by exactly one per request across the six endpoints.",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(1, "X-RateLimit-Remaining starts at limit - 1 and falls by exactly 1 per request"),
  },
  {
    id: "8-shared-when-spent",
    source: "interface-spec.md 8; interface-spec.md 7.1",
    statement:
      "The allowance is shared: when it is used up through one listed endpoint, a retry of that request and a request to any other listed endpoint receive 429.",
    check: "After the 429, one request to each of the six listed endpoints: all 429.",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(3, "spent through one endpoint, the retry and all six listed endpoints get 429"),
  },
  {
    id: "8-one-combined-allowance",
    source: "interface-spec.md 8",
    statement: "400 requests per minute, one combined allowance for the six listed GET endpoints.",
    check: "Round-robin over the six endpoints on a fresh key: the successes in one window equal the limit.",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(3, "round-robin over the six endpoints, the successes in one window equal the limit"),
  },
  {
    id: "8-unlisted-not-counted",
    source: "decisions.md Rate limit; contract-gaps.md Rate limit; interface-spec.md 8",
    statement:
      "Booking, config, restriction and voucher endpoints are neither limited nor counted (the spec leaves their limits open).",
    check:
      "With the allowance spent, the booking and config endpoints are still served and do not lower Remaining; a different limit there is reported as a finding.",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(4, "booking and config endpoints are outside the shared allowance"),
  },
  {
    id: "gaps-rate-limit-per-key",
    source: "decisions.md Rate limit; contract-gaps.md Rate limit",
    statement: "One allowance per API key.",
    check: "While one key is throttled, other keys' answers are served with their own Remaining.",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(5, "other keys' allowances are untouched while one key is throttled"),
  },
  {
    id: "8-concurrent-never-more",
    source: "interface-spec.md 8",
    statement: "The allowance holds under concurrency: never more than the limit per period.",
    check: "50 concurrent requests on one key for a window: the successes equal the limit, never more.",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(9, "50 concurrent requests on one key for a window get the limit of successes, never more"),
  },
  {
    id: "gaps-rate-limit-fixed-window",
    source: "decisions.md Rate limit; contract-gaps.md Rate limit; interface-spec.md 8",
    statement: "Default algorithm: fixed window (the spec leaves fixed or sliding open).",
    check:
      "The probe detects the algorithm from when allowance comes back and reports it as a finding; it fails only when the operator configured an algorithm and the service shows another.",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(7, "algorithm"),
  },
  {
    id: "gaps-rate-limit-refused-not-counted",
    source: "decisions.md Rate limit; contract-gaps.md Rate limit",
    statement: "Requests refused with 429 do not consume allowance.",
    check:
      "Requests sent while throttled, then the next window's Remaining: a service counting refused requests is reported as a finding (the spec does not say).",
    level: "public-api",
    cheap: false,
    judgedBy: rateLimit(8, "refused requests"),
  },

  // ---- Part 9: versioning ----------------------------------------------------------------------------------------
  {
    id: "9-version-prefix",
    source: "interface-spec.md 9",
    statement: "The version is in the path prefix /v2.",
    check: "Every href of every `links` the service sends (self and navigation) has a path under the base URL's /v2/.",
    level: "public-api",
    cheap: true,
    judgedBy: CONFORMANCE,
  },
  {
    id: "9-booking-check-removed",
    source: "interface-spec.md 9; interface-spec.md 1",
    statement:
      "The booking check operation (POST /bookings/check) is removed; availability is checked with the single-date price endpoint.",
    check: "POST /v2/bookings/check answers 404 not_found or 405 method_not_allowed, never a 2xx.",
    level: "public-api",
    cheap: false,
    judgedBy: CONFORMANCE,
  },
];

/** Every section heading of the two documents that has no rule, with the written reason. */
export const SECTIONS_WITHOUT_RULES: Readonly<Record<string, string>> = {
  "interface-spec.md 4. Endpoints": "a heading without text of its own: its statements are in 4.0 to 4.4",
  "interface-spec.md 7. Errors": "a heading without text of its own: its statements are in 7.1 to 7.3",
  "decisions.md Control API (test environments only)":
    "the test hooks, not the partner API: their contract is lib/contract/test-hooks.ts (docs/test-hooks.openapi.yaml), each required hook is judged by its effect through the public API by `harness hooks check`, and a service may offer none; rules that need a hook say so with level required-hooks",
};

/** Statements of the contract no rule judges, and why. */
export const STATEMENTS_NOT_CHECKED: readonly StatementNotChecked[] = [
  {
    source: "interface-spec.md 1",
    statement: "Environments: demo and production, each with its own base address.",
    reason: "a run tests one base URL; which environment it is, is the operator's to say (the run file's environment)",
  },
  {
    source: "interface-spec.md 5",
    statement:
      "The same key mechanism applies on demo and production; whether keys are shared between them is not stated.",
    reason: "needs both environments in one run, and the spec leaves the outcome open",
  },
  {
    source: "interface-spec.md 1",
    statement:
      "Origin restrictions say which customer origins may purchase; they are scoped to the authenticated partner.",
    reason:
      "the restriction record is not shown (2.12) and no hook sets one, so neither its content nor its scoping to one partner can be compared; only the endpoint's answer is checked (4.1-restrictions-answer)",
  },
  {
    source: "interface-spec.md 1",
    statement: "Booking options can carry a price.",
    reason:
      "no key of the booking answers carries a price or total (2.8 drops totalAmountRequestCurrency), so there is nothing to compare",
  },
  {
    source: "interface-spec.md 4.1",
    statement:
      "GET /v2/products takes filters (by product type, by category and others), pagination and ordering parameters.",
    reason:
      "their names and values are not shown and decisions.md fixes only page and per_page (checked: gaps-pagination-params, 4.3-pagination-consistent); the OPTIONS description names the others (1-options)",
  },
  {
    source: "interface-spec.md 4.2",
    statement: "Calling the single-date endpoint before creating a booking is required practice for the partner.",
    reason:
      "an obligation of the partner, not of the service; the harness's own journeys honour it (lib/contract/traffic-model.ts)",
  },
  {
    source: "interface-spec.md 7.2",
    statement: "Rule 1: the feature is enabled first on demo, then on production, by request to the service operator.",
    reason: "an operating process, not behaviour of the interface",
  },
  {
    source: "interface-spec.md 7.2",
    statement:
      "Rule 2: alternatives are omitted when no suggestion can be computed (e.g. the booking has no attached product type).",
    reason:
      "a partner cannot make a booking without a product type, and no other such case is named; the disabled-key half is checked (7.2-rule1-opt-in)",
  },
  {
    source: "interface-spec.md 9",
    statement: "The declared interface version is 2.1.",
    reason:
      "the spec names no header or key that declares it (the reference's config carries version 2.1 as its own choice)",
  },
  {
    source: "interface-spec.md 9",
    statement:
      "Product details, product-type details and pricing are separate endpoints; confirm and cancel are unchanged from v1.",
    reason:
      "comparisons with v1, which is not tested; what they imply for v2 is checked (2.2-product-detail-keys, 3-status-segments)",
  },
  {
    source: "decisions.md Booking states",
    statement: "Seats are given back when a booking is rejected.",
    reason:
      "only the supplier rejects a waiting booking, and no required hook makes it do so (the reference's supplier-side hook is optional); the release on cancelled and expired is checked (gaps-states-cancelled, 3-expiry-5-days)",
  },
  {
    source: "decisions.md Webhooks",
    statement: "After the daily retries for 3 days the endpoint is disabled.",
    reason:
      "no run refuses a message for the whole schedule: the sink refuses first and second attempts only, so the disabling after the last retry is never reached (the 410 case is checked: gaps-webhooks-410-disables)",
  },
];
