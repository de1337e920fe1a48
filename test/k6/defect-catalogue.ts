/**
 * The defect switchboard as the tests use it: for each area, each defect of the reference service and the check that
 * must catch it. The matrix tier proves each on the normal service (<area>.matrix.test.ts) and on the service in
 * required-hooks mode (required-hooks-defects.matrix.test.ts).
 */
import { ACCURACY_CHECKS } from "../../lib/harness/alternatives/accuracy.ts";
import { INVARIANT_CHECKS } from "../../lib/harness/invariants/history.ts";
import { SOAK_CHECKS } from "../../lib/harness/soak/drift.ts";
import { WEBHOOK_CHECKS, WEBHOOK_METRICS } from "../../lib/harness/webhooks/verdict.ts";
import { ALTERNATIVES_CHECKS } from "../../lib/contract/alternatives-rules.ts";

/** Alternatives (spec 7.2): each defect and the check that names the rule it breaks. */
/**
 * The service flags of a defect sweep's runs beside the defect (issue 27): every variation on, so each defect is proven
 * caught on a service that takes the other legal choice wherever the contract leaves one open. The plain reference
 * service's defect proofs are the per-area matrix files (alternatives, invariants, webhooks, rate-limit).
 */
export const EVERY_VARIATION = "--variations all";

export const ALTERNATIVES_DEFECTS: [defect: string, check: string][] = [
  ["alternatives-sold-out-slot", ACCURACY_CHECKS.precision],
  ["alternatives-missing-timeslot", ACCURACY_CHECKS.recall],
  ["alternatives-beyond-window", ACCURACY_CHECKS.precision],
  ["alternatives-timeslot-key-non-timeslotted", ALTERNATIVES_CHECKS.rule4Requested],
  ["alternatives-qty-understated", ACCURACY_CHECKS.qty],
  ["alternatives-without-opt-in", ALTERNATIVES_CHECKS.rule1OptIn],
  ["alternatives-code-changed", ALTERNATIVES_CHECKS.rule9Unchanged],
];

/** Booking invariants: each defect and the invariant that names the rule it breaks. */
export const INVARIANTS_DEFECTS: [defect: string, check: string][] = [
  ["booking-oversell-race", INVARIANT_CHECKS.oversell],
  ["booking-oversell-race", INVARIANT_CHECKS.oneWinner],
  ["booking-double-confirm", INVARIANT_CHECKS.doubleConfirm],
  ["booking-expiry-keeps-capacity", INVARIANT_CHECKS.expiry],
  ["booking-list-drops-newest", INVARIANT_CHECKS.lost],
  ["booking-confirm-after-cancel", INVARIANT_CHECKS.illegal],
  ["booking-cancel-lost-update", INVARIANT_CHECKS.confirmCancel],
];

export interface Caught {
  /** Must fail: the rules the defect breaks. */
  by: string[];
  /** May fail as well, and why. */
  alsoAllowed?: string[];
}

/** Webhooks: each defect and the checks or thresholds that must (and may) fail. */
export const WEBHOOK_DEFECTS: Record<string, Caught> = {
  "webhook-drop": { by: [WEBHOOK_METRICS.lost] },
  // Messages about one resource queue behind each other's 3 s, so a booking's last ones may pass the loss deadline.
  "webhook-delay": { by: [WEBHOOK_METRICS.latency], alsoAllowed: [WEBHOOK_METRICS.lost] },
  "webhook-duplicate": { by: [WEBHOOK_METRICS.duplicates] },
  "webhook-bad-signature": { by: [WEBHOOK_CHECKS.signature] },
  "webhook-stale-timestamp": { by: [WEBHOOK_CHECKS.timestamp] },
  "webhook-new-id-on-retry": { by: [WEBHOOK_CHECKS.sameId] },
  "webhook-retry-too-early": { by: [WEBHOOK_CHECKS.schedule] },
  "webhook-no-retry": { by: [WEBHOOK_CHECKS.retried] },
  "webhook-ignore-410": { by: [WEBHOOK_CHECKS.gone] },
  // The kind that never comes is also lost for every booking that should have had it.
  "webhook-never-emit-tickets": { by: [WEBHOOK_CHECKS.allKinds, WEBHOOK_METRICS.lost] },
};

/** Rate limit (spec 7.1, 8): each defect and the check that names the rule it breaks. */
export const RATE_LIMIT_DEFECTS: [defect: string, check: string][] = [
  [
    "rate-limit-per-endpoint",
    "rate-limit #3 round-robin over the six endpoints, the successes in one window equal the limit",
  ],
  [
    "rate-limit-remaining-off-by-one",
    "rate-limit #1 X-RateLimit-Remaining starts at limit - 1 and falls by exactly 1 per request",
  ],
  [
    "rate-limit-missing-retry-after",
    "rate-limit #2 429 Retry-After is whole seconds, at least 1 and at most the window",
  ],
  ["rate-limit-retry-after-ms", "rate-limit #2 429 Retry-After is whole seconds, at least 1 and at most the window"],
  [
    "rate-limit-reset-ms",
    "rate-limit #2 429 X-RateLimit-Reset is a UNIX time in seconds consistent with Date and Retry-After",
  ],
  [
    "rate-limit-reset-relative",
    "rate-limit #2 429 X-RateLimit-Reset is a UNIX time in seconds consistent with Date and Retry-After",
  ],
  [
    "rate-limit-wrong-error-code",
    "rate-limit #2 429 body is error {code GEN-TOO-MANY-REQUESTS, http_code 429, message}",
  ],
  ["rate-limit-html-429", "rate-limit #2 429 Content-Type is application/json"],
  ["rate-limit-shared-keys", "rate-limit #5 other keys' allowances are untouched while one key is throttled"],
  ["rate-limit-counts-bookings", "rate-limit #4 booking and config endpoints are outside the shared allowance"],
  [
    "rate-limit-counter-race",
    "rate-limit #9 50 concurrent requests on one key for a window get the limit of successes, never more",
  ],
];

/** The rate-limit value checks every answer of the load scenarios gets (lib/k6/checks.ts). */
export const RATE_LIMIT_VALUE_CHECKS = {
  limitConstant: "rate-limit: X-RateLimit-Limit constant per key",
  belowLimit: "rate-limit: X-RateLimit-Remaining below the limit on a 200",
  neverRises: "rate-limit: X-RateLimit-Remaining never rises within a window",
};

/** Rate-limit header values under load (partner-mix on one key): each defect and the one value check it breaks. */
export const HEADER_VALUE_DEFECTS: [defect: string, check: string][] = [
  ["rate-limit-limit-flaps", RATE_LIMIT_VALUE_CHECKS.limitConstant],
  ["rate-limit-remaining-is-limit", RATE_LIMIT_VALUE_CHECKS.belowLimit],
  ["rate-limit-remaining-per-endpoint", RATE_LIMIT_VALUE_CHECKS.neverRises],
];

/**
 * Soak drift: the slowdown is judged from k6's samples. (soak-memory-leak needs the service's /metrics, an optional
 * hook: on a required-hooks service the soak says memory was not judged, so that defect is proven only on the
 * reference service, in soak.matrix.test.ts.)
 */
export const SOAK_SAMPLE_DEFECTS: [defect: string, check: string][] = [["soak-slowdown", SOAK_CHECKS.p95]];

/**
 * Contract conformance (the conformance scenario): each defect and the rules (by id) whose checks must fail. Every
 * defect breaks its rule alone, except a 401 sent as plain text: it has no links and no timestamp either.
 */
export const CONFORMANCE_DEFECTS: Record<string, Caught> = {
  "conformance-links-no-self": { by: ["1-links-self"] },
  "conformance-type-detail-no-self": { by: ["1-links-self"] },
  "conformance-options-no-allow": { by: ["1-options"] },
  "conformance-product-detail-has-url": { by: ["2.2-product-detail-keys"] },
  "conformance-price-as-number": { by: ["gaps-formats-money"] },
  "conformance-timestamp-offset": { by: ["gaps-formats-timestamps"] },
  "conformance-weekday-mismatch": { by: ["2.5-weekday-matches-date"] },
  "conformance-available-without-timeslots": { by: ["2.5-available-consistent"] },
  "conformance-single-date-cacheable": { by: ["2.6-no-cache"] },
  "conformance-fields-ignored": { by: ["4.0-fields-honoured"] },
  "conformance-language-ignored": { by: ["4.0-language-honoured"] },
  "conformance-unknown-language-accepted": { by: ["4.0-unknown-values-refused"] },
  "conformance-price-list-range-optional": { by: ["4.2-date-range-required"] },
  "conformance-price-list-beyond-six-months": { by: ["4.2-six-months"] },
  "conformance-type-uuid-not-uuid": { by: ["gaps-formats-uuids"] },
  "conformance-date-slashes": { by: ["gaps-formats-dates"] },
  "conformance-timeslot-seconds": { by: ["gaps-formats-timeslots"] },
  "conformance-unknown-booking-vouchers-empty": { by: ["gaps-error-404"] },
  "conformance-pagination-as-strings": { by: ["gaps-lists-envelope"] },
  "conformance-page-zero-accepted": { by: ["gaps-pagination-params"] },
  "conformance-link-to-v1": { by: ["9-version-prefix"] },
  "conformance-date-day-first-accepted": { by: ["4.2-date-format"] },
  "conformance-calendar-drops-last-day": { by: ["2.5-one-entry-per-date"] },
  "conformance-voucher-validity-flat": { by: ["2.6-voucher-validity-by-age"] },
  // A total of 0 over a page with items: the product types' pages do not add up either.
  "conformance-product-types-total-zero": { by: ["1-product-has-types"], alsoAllowed: ["4.3-pagination-consistent"] },
  "conformance-type-title-differs": { by: ["4.1-product-types-of-product"] },
  "conformance-restrictions-unknown-product-empty": { by: ["4.1-restrictions-answer"] },
  "conformance-config-without-locations": { by: ["4.4-config-items"] },
  "conformance-restrictions-snake-case": { by: ["2-keys-camel-case"] },
  "conformance-query-camel-case": { by: ["2-query-snake-case"] },
  "conformance-products-language-ignored": { by: ["4.1-products-language"] },
  "conformance-single-date-ignores-supplier": { by: ["2.6-real-time"] },
  "conformance-single-date-stale": { by: ["2.6-real-time"] },
  "conformance-withdrawn-type-calendar-served": { by: ["gaps-error-410-gone"] },
  "conformance-single-date-available-by-timeslots": { by: ["2.6-timeslots-mark-availability"] },
  "conformance-401-plain-text": {
    by: ["5-auth-required"],
    alsoAllowed: ["1-links-self", "gaps-formats-timestamps", "gaps-error-envelope"],
  },
  "conformance-401-wrong-code": { by: ["5-auth-required"] },
  "conformance-options-without-key": { by: ["5-auth-required"] },
  "conformance-voucher-download-without-key": { by: ["5-voucher-links-need-key"] },
  // An HTML 404 breaks every rule whose judge expects a 404 not_found in the envelope on its way.
  "conformance-404-html": {
    by: ["gaps-error-envelope"],
    alsoAllowed: ["gaps-error-404", "1-links-self", "3-status-segments", "5-key-identifies-partner"],
  },
  "conformance-404-without-timestamp": { by: ["gaps-error-envelope"] },
  "conformance-500-html": { by: ["gaps-error-500"] },
  "conformance-405-as-404": { by: ["gaps-error-405"] },
  "conformance-payload-too-large-500": { by: ["gaps-error-413"] },
  "conformance-malformed-json-500": { by: ["gaps-error-400-malformed-json"] },
  // Every invalid booking request is a 500 under it: the rules that send one on their way see it too.
  "conformance-validation-500": {
    by: ["gaps-error-400-validation"],
    alsoAllowed: ["gaps-booking-request", "9-pax-replaced"],
  },
  "conformance-created-as-approved": { by: ["3-initial-reserved"] },
  "conformance-bookings-status-filter-ignored": { by: ["4.3-bookings-filters"] },
  "conformance-pagination-total-wrong": { by: ["4.3-pagination-consistent"] },
  "conformance-product-pages-overlap": { by: ["4.3-pagination-consistent"] },
  "conformance-list-status-upper-case": { by: ["gaps-states-status-values"] },
  "conformance-confirm-waiting-as-approved": { by: ["gaps-states-confirm"] },
  "conformance-cancel-at-once": { by: ["gaps-states-cancel-pending"] },
  "conformance-approve-segment-confirms": { by: ["3-status-segments"] },
  "conformance-partner-reference-unbounded": { by: ["gaps-booking-request"] },
  "conformance-customer-salutation-dropped": { by: ["2.10-customer-object"] },
  "conformance-pax-accepted": { by: ["9-pax-replaced"] },
  "conformance-required-options-ignored": { by: ["1-required-options"] },
  "conformance-bookings-shared-across-keys": { by: ["5-key-identifies-partner"] },
  "conformance-over-max-pax-400": { by: ["gaps-error-422-invalid-data"] },
  "conformance-booking-check-kept": { by: ["9-booking-check-removed"] },
  "conformance-confirm-failure-as-409": { by: ["gaps-error-422-prices-mismatch"] },
  "conformance-waiting-decided-back-to-reserved": { by: ["gaps-states-waiting-decided"] },
  "conformance-cancel-keeps-seats": { by: ["gaps-states-cancelled"] },
  "conformance-product-list-has-description": { by: ["2.1-product-list-keys"] },
  "conformance-type-summary-has-product-uuid": { by: ["2.3-product-type-summary-keys"] },
  "conformance-type-detail-has-min-adults": { by: ["2.4-product-type-detail-keys"] },
  "conformance-calendar-has-voucher-validity": { by: ["2.5-price-list-entry-keys"] },
  "conformance-single-date-has-remaining": { by: ["2.6-single-date-keys"] },
  "conformance-booking-list-has-partner-reference": { by: ["2.7-booking-list-keys"] },
  "conformance-booking-detail-has-guests": { by: ["2.8-booking-detail-keys"] },
  "conformance-voucher-has-booking-uuid": { by: ["2.9-voucher-keys"] },
  // Issue 27: what the harness missed. The vouchers answer is {data, links} by both rules' words.
  "conformance-vouchers-paginated": { by: ["gaps-lists-envelope", "2.9-voucher-keys"] },
  // A calendar whose timeslots say nothing of availability cannot agree with its entry's `available` either.
  "conformance-calendar-timeslots-bare": { by: ["2.12-nested-shapes"], alsoAllowed: ["2.5-available-consistent"] },
  "conformance-calendar-dates-descending": { by: ["2.5-one-entry-per-date"] },
};

/**
 * The cheap conformance rules under load (lib/k6/cheap-rules.ts): each defect and the rules whose checks must fail in
 * a short partner-mix. `faults`: 500s injected by the reference's fault hook (--faults), the only way a correct
 * service answers one. Three cheap rules have no row, each proven by its unit test (cheap-conformance-checks.test.ts)
 * and in `harness run conformance`: 2-keys-camel-case (partner-mix reads no answer whose key set the spec leaves
 * open and a defect breaks), 2.6-timeslots-mark-availability (a few seconds sell out no timeslot) and 2.9-voucher-keys
 * (a few seconds issue no voucher).
 */
/** The conformance defects whose rules are cheap: under load they fail the same rules as in the conformance run. */
const UNDER_LOAD_AS_IN_CONFORMANCE = [
  "conformance-links-no-self",
  "conformance-type-detail-no-self",
  "conformance-single-date-cacheable",
  "conformance-weekday-mismatch",
  "conformance-date-slashes",
  "conformance-type-uuid-not-uuid",
  "conformance-timestamp-offset",
  "conformance-price-as-number",
  "conformance-timeslot-seconds",
  "conformance-available-without-timeslots",
  "conformance-voucher-validity-flat",
  "conformance-created-as-approved",
  "conformance-list-status-upper-case",
  "conformance-pagination-as-strings",
  "conformance-link-to-v1",
  "conformance-product-list-has-description",
  "conformance-product-detail-has-url",
  "conformance-type-summary-has-product-uuid",
  "conformance-type-detail-has-min-adults",
  "conformance-calendar-has-voucher-validity",
  "conformance-single-date-has-remaining",
  "conformance-booking-list-has-partner-reference",
  "conformance-booking-detail-has-guests",
];

export const UNDER_LOAD_DEFECTS: Record<string, Caught & { faults?: true }> = {
  ...Object.fromEntries(UNDER_LOAD_AS_IN_CONFORMANCE.map((defect) => [defect, CONFORMANCE_DEFECTS[defect] as Caught])),
  // The shopper's calendars show it; its vouchers twin (gaps-lists-envelope) needs a voucher read, which a few
  // seconds of partner-mix rarely make (proven in `harness run conformance` and by cheap-conformance-checks.test.ts).
  "conformance-calendar-timeslots-bare": CONFORMANCE_DEFECTS["conformance-calendar-timeslots-bare"] as Caught,
  // An HTML 500 is no envelope at all: no links either (the conformance run names gaps-error-500 alone).
  "conformance-500-html": {
    by: ["gaps-error-500", "gaps-error-envelope"],
    alsoAllowed: ["1-links-self"],
    faults: true,
  },
};

/**
 * The page walk under load (lib/k6/traffic/full-sync.ts): each defect and the rules whose checks must fail in a short
 * catalogue run, whose full syncs walk the products list (page-walk.matrix.test.ts).
 */
export const PAGE_WALK_DEFECTS: Record<string, Caught> = {
  "conformance-product-pages-overlap": { by: ["4.3-pagination-consistent"] },
};
