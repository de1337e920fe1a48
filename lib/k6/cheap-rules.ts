/**
 * The conformance rules the inventory (lib/contract/conformance-rules.ts) marks cheap, as checks on the answers the
 * traffic gets anyway: one check per rule, named by the rule's id first so the verdict shows which rule broke, with
 * the endpoint in the problem. checks.ts applies them to the sampled successes and failures (a contract break shows
 * on every answer of an endpoint, so the sample is enough). Each reads only the answer, through the same functions
 * the conformance judges call (answer-rules.ts), so a rule cannot pass under load and fail in `harness run
 * conformance` on the same answer, or the other way round.
 */
import { ERROR_CODES, RESPONSE_SHAPES, isRecord, type EndpointName } from "../contract/index.ts";
import {
  baseUrlOf,
  camelCaseProblem,
  entryAvailabilityProblem,
  formatProblems,
  hasMoney,
  initialStatusProblem,
  listsTimeslots,
  moneyProblem,
  paginationProblem,
  statusValuesProblem,
  timeslotsMarkProblem,
  voucherValidityProblem,
  type FormatFindings,
  type Problem,
} from "./answer-rules.ts";
import type { ApiResponse } from "./client.ts";
import { collectionPaginationProblem, hasNestedShapes, nestedShapesProblem } from "./nested-shapes.ts";

export const CHEAP_RULES = {
  linksSelf: "1-links-self: top-level links are {rel, href, method}, self among them",
  noCache: "2.6-no-cache: the single-date answer is not cacheable",
  weekday: "2.5-weekday-matches-date: weekday is the weekday of date",
  dates: "gaps-formats-dates: dates are YYYY-MM-DD",
  errorEnvelope: "gaps-error-envelope: a failure is {error: {code, message, http_code}, links, timestamp}",
  error500: "gaps-error-500: a 500 is internal_error in the error envelope",
  uuids: "gaps-formats-uuids: uuid and *Uuid values are UUIDs",
  timestamps: "gaps-formats-timestamps: timestamps are ISO 8601 in UTC",
  money: "gaps-formats-money: money is a decimal string next to a currency",
  timeslots: "gaps-formats-timeslots: timeslots are HH:MM",
  camelCase: "2-keys-camel-case: keys are camelCase",
  versionPrefix: "9-version-prefix: every link is under /v2/",
  listsEnvelope: "gaps-lists-envelope: a list's pagination is five whole numbers, the vouchers answer has none",
  nestedShapes: "2.12-nested-shapes: timeslots items, options and *Translated have the published shapes",
  availableConsistent: "2.5-available-consistent: a calendar entry's available agrees with its prices and timeslots",
  timeslotsMark: "2.6-timeslots-mark-availability: the single date is available when a listed timeslot can be booked",
  voucherValidity: "2.6-voucher-validity-by-age: an available date's voucherValidity is divided by age group",
  initialReserved: "3-initial-reserved: a new booking is reserved",
  statusValues: "gaps-states-status-values: a booking's status is one of the six states",
} as const;

/**
 * The key-set rules of spec Part 2 by endpoint: the key-set check of an endpoint's answers is named by its rule. The
 * booking's transitions answer with its detail (2.8).
 */
export const KEY_SET_RULES: Partial<Record<EndpointName, string>> = {
  products: "2.1-product-list-keys",
  product: "2.2-product-detail-keys",
  productTypes: "2.3-product-type-summary-keys",
  productType: "2.4-product-type-detail-keys",
  priceList: "2.5-price-list-entry-keys",
  priceListDate: "2.6-single-date-keys",
  bookings: "2.7-booking-list-keys",
  booking: "2.8-booking-detail-keys",
  bookingCreate: "2.8-booking-detail-keys",
  bookingConfirm: "2.8-booking-detail-keys",
  bookingCancel: "2.8-booking-detail-keys",
  vouchers: "2.9-voucher-keys",
};

/** The key-set check of an endpoint: its rule's id first when the endpoint has one. */
export function keySetCheckName(endpoint: EndpointName): string {
  const rule = KEY_SET_RULES[endpoint];
  return rule === undefined ? `${endpoint}: keys match the spec` : `${rule}: ${endpoint} keys match the spec`;
}

/** A cheap rule on a success: the check's name and what is wrong with the answer (undefined: nothing). */
export type SuccessRule = readonly [name: string, problemOf: (res: ApiResponse<unknown>) => Problem];

const BOOKING_ENDPOINTS: readonly EndpointName[] = [
  "bookingCreate",
  "bookings",
  "booking",
  "bookingConfirm",
  "bookingCancel",
];
const LIST_ENDPOINTS: readonly EndpointName[] = ["products", "productTypes", "priceList", "bookings"];
const TIMESLOT_ENDPOINTS: readonly EndpointName[] = ["priceList", "priceListDate"];

const records = (data: unknown): Record<string, unknown>[] =>
  Array.isArray(data) ? (data as unknown[]).filter(isRecord) : isRecord(data) ? [data] : [];

/**
 * Product types this VU has seen list a timeslot, by uuid: whether a calendar that lists none belongs to a timeslotted
 * type is not in the calendar itself, but in the type's detail and in its other answers, which the traffic reads too.
 * Bounded: the hot set the traffic asks about is small, and a full table starts over.
 */
let timeslotted: Record<string, true> = Object.create(null) as Record<string, true>;
let timeslottedKnown = 0;
const TIMESLOTTED_MAX = 2048;

function rememberTimeslotted(uuid: string | undefined): void {
  if (uuid === undefined || timeslotted[uuid]) return;
  if (timeslottedKnown >= TIMESLOTTED_MAX) {
    timeslotted = Object.create(null) as Record<string, true>;
    timeslottedKnown = 0;
  }
  timeslotted[uuid] = true;
  timeslottedKnown++;
}

/** The product type a price answer is about, from its URL (/v2/product-types/{uuid}/price-lists...). */
function priceTypeOf(res: ApiResponse<unknown>): string | undefined {
  const match = /\/product-types\/([^/?#]+)\/price-lists/.exec(res.url);
  return match ? decodeURIComponent(match[1] as string) : undefined;
}

function firstOf(items: readonly Record<string, unknown>[], problemOf: (item: Record<string, unknown>) => Problem) {
  for (let i = 0; i < items.length; i++) {
    const problem = problemOf(items[i] as Record<string, unknown>);
    if (problem !== undefined) return items.length > 1 ? `item ${i}: ${problem}` : problem;
  }
  return undefined;
}

/**
 * The format findings of the answer being checked: one walk serves the four format rules (formatProblems), so the
 * last answer's findings are kept for the next rule of the same answer.
 */
let walked: ApiResponse<unknown> | undefined;
let walkedFindings: FormatFindings | undefined;

function formatsOf(res: ApiResponse<unknown>): FormatFindings {
  if (walked !== res || walkedFindings === undefined) {
    walked = res;
    walkedFindings = formatProblems(res.body, baseUrlOf(res.url));
  }
  return walkedFindings;
}

/** Every answer with a body: identifiers, timestamps and links however deep. */
const EVERY_SUCCESS: readonly SuccessRule[] = [
  [CHEAP_RULES.uuids, (res) => formatsOf(res).uuids],
  [CHEAP_RULES.timestamps, (res) => formatsOf(res).timestamps],
  [CHEAP_RULES.versionPrefix, (res) => formatsOf(res).links],
];

/**
 * The keys' case, where the spec does not fix the key set exactly (the booking detail's minimum, restrictions,
 * config): elsewhere the key-set check already refuses any key the spec does not name.
 */
const camelCase: SuccessRule = [CHEAP_RULES.camelCase, (res) => camelCaseProblem(res.data)];

const listsEnvelope: SuccessRule = [
  CHEAP_RULES.listsEnvelope,
  (res) => paginationProblem(res.body as Record<string, unknown>),
];
const vouchersEnvelope: SuccessRule = [CHEAP_RULES.listsEnvelope, (res) => collectionPaginationProblem(res.body)];
const nestedShapes: SuccessRule = [CHEAP_RULES.nestedShapes, (res) => nestedShapesProblem(res.endpoint, res.data)];
const timeslots: SuccessRule = [CHEAP_RULES.timeslots, (res) => formatsOf(res).timeslots];
/** The type detail's timeslots: their format, and whether the type is timeslotted, for its calendar's rule below. */
const typeTimeslots: SuccessRule = [
  CHEAP_RULES.timeslots,
  (res) => {
    const data = res.data as Record<string, unknown>;
    if (listsTimeslots(data) && typeof data.uuid === "string") rememberTimeslotted(data.uuid);
    return formatsOf(res).timeslots;
  },
];
const statusValues: SuccessRule = [CHEAP_RULES.statusValues, (res) => statusValuesProblem(res.data)];

/** Rules of one endpoint beyond EVERY_SUCCESS and the lists' and bookings' own. */
const ENDPOINT_RULES: Partial<Record<EndpointName, readonly SuccessRule[]>> = {
  product: [
    [
      CHEAP_RULES.money,
      (res) => {
        const data = res.data as Record<string, unknown>;
        return hasMoney(data, "basePrice") ? moneyProblem(data, "basePrice") : undefined;
      },
    ],
  ],
  priceList: [
    [
      CHEAP_RULES.money,
      (res) => firstOf(records(res.data), (e) => (hasMoney(e, "prices") ? moneyProblem(e, "prices") : undefined)),
    ],
    [
      CHEAP_RULES.availableConsistent,
      (res) => {
        const entries = records(res.data);
        const type = priceTypeOf(res);
        if (entries.some(listsTimeslots)) rememberTimeslotted(type);
        const timeslottedType = type !== undefined && timeslotted[type] === true;
        return firstOf(entries, (e) => entryAvailabilityProblem(e, timeslottedType));
      },
    ],
  ],
  priceListDate: [
    [
      CHEAP_RULES.money,
      (res) => {
        const data = res.data as Record<string, unknown>;
        return hasMoney(data, "prices") ? moneyProblem(data, "prices") : undefined;
      },
    ],
    [
      CHEAP_RULES.timeslotsMark,
      (res) => {
        const data = res.data as Record<string, unknown>;
        const type = priceTypeOf(res);
        if (listsTimeslots(data)) rememberTimeslotted(type);
        return type !== undefined && timeslotted[type] === true ? timeslotsMarkProblem(data) : undefined;
      },
    ],
    [
      CHEAP_RULES.voucherValidity,
      (res) => {
        const data = res.data as Record<string, unknown>;
        // Which groups the type sells is in its detail; every type sells to adults.
        return data.available === true ? voucherValidityProblem(data.voucherValidity, ["adults"]) : undefined;
      },
    ],
  ],
  bookingCreate: [[CHEAP_RULES.initialReserved, initialStatusProblem]],
};

/** The cheap rules of an endpoint's successes (with a JSON body in its envelope), worked out once per endpoint. */
export function successRulesOf(endpoint: EndpointName): readonly SuccessRule[] {
  if (endpoint === "voucherFile") return [];
  const rules: SuccessRule[] = [...EVERY_SUCCESS];
  if (!RESPONSE_SHAPES[endpoint].exact) rules.push(camelCase);
  if (LIST_ENDPOINTS.includes(endpoint)) rules.push(listsEnvelope);
  if (endpoint === "vouchers") rules.push(vouchersEnvelope);
  if (hasNestedShapes(endpoint)) rules.push(nestedShapes);
  if (TIMESLOT_ENDPOINTS.includes(endpoint)) rules.push(timeslots);
  if (endpoint === "productType") rules.push(typeTimeslots);
  if (BOOKING_ENDPOINTS.includes(endpoint)) rules.push(statusValues);
  rules.push(...(ENDPOINT_RULES[endpoint] ?? []));
  return rules;
}

/** gaps-error-500: a 500 answers internal_error in the error envelope (its envelope is gaps-error-envelope's). */
export function error500Problem(res: ApiResponse<unknown>): Problem {
  if (res.status !== 500) return undefined;
  const code = res.error?.code;
  return code === ERROR_CODES.internal
    ? undefined
    : `${res.endpoint} 500: error.code is ${JSON.stringify(code ?? null)}, expected ${ERROR_CODES.internal}`;
}
