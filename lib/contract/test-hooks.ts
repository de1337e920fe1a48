/**
 * The control API ("test hooks") as a published contract: one row per hook with its method, path template, query,
 * request body, answer and level, like ENDPOINTS is for the partner API. docs/test-hooks.openapi.yaml is generated
 * from this table (scripts/openapi.ts), and the reference service's answers are validated against it.
 *
 * Levels:
 * - `required`: what docs/contract-gaps.md ("Control API (test hooks)") requires of any implementation that offers
 *   hooks (health, reset, inventory read and write, product and product-type changes, partner settings, clock,
 *   events). No scenario may need more than these.
 * - `reference`: optional extensions only the reference service offers (product-type discovery, partner listing,
 *   supplier-side booking changes, rate-limit settings, faults, defects, metrics, this document). Each has a fallback
 *   through the public API or is used only by the reference service's own tests. docs/contract-gaps.md does name
 *   `PUT /__control/faults` and `PUT /__control/defects`, but only as the means to prove that the harness catches
 *   wrong behaviours: their names and effects are the reference service's own (another service has other bugs), and no
 *   scenario needs them, only the defect-proof tests do. So they are reference extensions here.
 *
 * Every JSON answer is `{"data": <answer>}`; failures use the partner API's error envelope. Answers are open objects:
 * an implementation may say more than the contract names. Fields only the reference service gives carry
 * `x-atd-level: reference`.
 *
 * The schemas are plain literals (no builder calls, no spreads, no member accesses) so that esbuild drops them from
 * the k6 bundles that import lib/contract without using the hooks; FromSchema gives their TypeScript types.
 * Runtime-neutral: imports nothing of node or k6.
 */
import { DATE_PATTERN, TIMESLOT_PATTERN, TIMESTAMP_PATTERN, UUID_PATTERN, type FromSchema } from "./schema.ts";
import { ENDPOINT_NAMES } from "./endpoints.ts";
import { RATE_LIMIT_ALGORITHMS } from "./limits.ts";
import { BOOKING_STATUSES, WEBHOOK_EVENT_TYPES } from "./types.ts";

export type HookLevel = "required" | "reference";
export const HOOK_LEVELS: readonly HookLevel[] = ["required", "reference"];

const CATEGORIES = ["adults", "children", "seniors"] as const;
const UUID = { type: "string", format: "uuid", pattern: UUID_PATTERN } as const;
const DAY = { type: "string", format: "date", pattern: DATE_PATTERN, description: "YYYY-MM-DD" } as const;
const TIMESTAMP = { type: "string", format: "date-time", pattern: TIMESTAMP_PATTERN } as const;
const COUNT = { type: "integer", minimum: 0 } as const;

// Upper bounds of the hooks: every value within them is accepted, every value beyond is 400 (plain constants, so the
// schemas below stay plain literals; the descriptions that must state a number say it, test-hooks-document checks).
/** The longest date range one inventory read covers: date_end at most this many days after date_start. */
export const INVENTORY_RANGE_MAX_DAYS = 400;
/** The longest single clock advance: ten years. */
export const ADVANCE_SECONDS_MAX = 315_360_000;
export const TIME_SCALE_MIN = 0.001;
export const TIME_SCALE_MAX = 1_000_000;

export const CapsSchema = {
  type: "object",
  description:
    "Per-booking caps of one slot by age group (docs/contract-gaps.md, Inventory and alternatives): a booking for the slot may take at most this many of the category, and one that asks for more is refused when it is created (422 invalid_data, bookingCreate in docs/partner-api.openapi.yaml). A category without a cap is limited by the seats alone. Bookings do not use caps up, and a reservation made before a cap was set is confirmed whatever the cap.",
  properties: { adults: COUNT, children: COUNT, seniors: COUNT },
} as const;

export const InventoryTimeslotSchema = {
  type: "object",
  required: ["timeslot", "remaining"],
  properties: {
    timeslot: { type: "string", pattern: TIMESLOT_PATTERN, description: "HH:MM" },
    remaining: {
      type: "integer",
      minimum: 0,
      description:
        "Seats a new booking can take at this timeslot now: the supplier's unsold seats minus the seats reserved bookings hold there, never below 0; 0 on a date no booking can be made for (see InventoryDay).",
    },
    caps: CapsSchema,
    supply: {
      type: "integer",
      minimum: 0,
      description:
        "Optional. The supplier's unsold seats at the timeslot, the seats reserved bookings hold included: what PUT inventory last set as `remaining`, less the seats confirmed since, plus the seats given back since. Where given, `remaining` is supply minus held (never below 0) on a date that can be booked.",
      "x-atd-level": "reference",
    },
    held: {
      type: "integer",
      minimum: 0,
      description:
        "Optional. Seats held at the timeslot by reserved bookings: created, and neither confirmed, cancelled nor expired yet.",
      "x-atd-level": "reference",
    },
  },
} as const;

export const InventoryDaySchema = {
  type: "object",
  required: ["date", "remaining"],
  properties: {
    date: DAY,
    remaining: {
      type: "integer",
      minimum: 0,
      description:
        "Seats a new booking can take that day: for a timeslotted product type the sum over its timeslots, for another the supplier's unsold seats minus the seats reserved bookings hold, never below 0. 0 on a date no booking can be made for, whatever seats are stored for it: a date in the past, inside the product type's lead time (its daysInAdvance), outside the product's validity, or while the product or the product type is withdrawn.",
    },
    caps: CapsSchema,
    timeslots: {
      type: "array",
      items: InventoryTimeslotSchema,
      description:
        "Timeslotted product types: one entry per timeslot of the type, each with its own caps (the day's `caps` are then not read). Absent for other types, whose day carries the caps.",
    },
    open: {
      type: "boolean",
      description:
        "Optional. Whether a booking can be made for the date at all (see `remaining`). Nothing reads it in place of `remaining`, which is already 0 where it is false.",
      "x-atd-level": "reference",
    },
    supply: {
      type: "integer",
      minimum: 0,
      description: "Optional, non-timeslotted product types: the day's supplier's unsold seats, as for a timeslot.",
      "x-atd-level": "reference",
    },
    held: {
      type: "integer",
      minimum: 0,
      description: "Optional, non-timeslotted product types: the seats reserved bookings hold that day.",
      "x-atd-level": "reference",
    },
  },
} as const;

export const InventorySchema = {
  type: "object",
  description:
    "The seats of a product type over a date range as a booking made now would find them: per date, per timeslot where timeslotted, with the caps per age group. The alternatives of a failed confirmation (`error.alternatives` of bookingConfirm's 422 in docs/partner-api.openapi.yaml) are judged against this answer read right after the 422, so it must agree with what the service used. They follow from it this way: a slot (a timeslot of a timeslotted type; the date of another) offers a qty, the largest over the type's `categories` of the slot's `remaining` limited by that category's cap (a category without a cap: `remaining`); a slot whose qty is 0 is not offered. Only `timeslotted`, `categories`, `date`, `timeslot`, `remaining` and `caps` count: a date the answer does not list counts as sold out; a timeslotted type's day-level `remaining` and `caps` are not read; `open`, `supply` and `held` are not read either, so `remaining` must already be 0 where no booking can be made. Which dates and timeslots are offered, and how far ahead, is docs/contract-gaps.md's (Inventory and alternatives).",
  required: ["timeslotted", "days"],
  properties: {
    timeslotted: { type: "boolean" },
    days: { type: "array", items: InventoryDaySchema },
    productTypeUuid: UUID,
    categories: {
      type: "array",
      items: { type: "string", enum: CATEGORIES },
      description:
        "The age groups the product type sells (adults only when absent); caps of a group it does not sell count for nothing.",
    },
  },
} as const;

export const InventorySetSchema = {
  type: "object",
  description:
    "Changes the seats and caps of one timeslot of the date, of every timeslot of it when `timeslot` is absent, or of the day of a non-timeslotted type. Every key is optional, and a key left out leaves its part as it is: `{remaining}` keeps the caps, `{caps}` keeps the seats, `{}` changes nothing. A date no booking can be made for (past, inside the lead time, withdrawn) may be set too: the answer then reads `remaining` 0, and the seats count once the date can be booked.",
  properties: {
    timeslot: {
      type: "string",
      pattern: TIMESLOT_PATTERN,
      description:
        "One timeslot of the date, HH:MM; every timeslot of it when absent. A timeslot the product type does not have, or any timeslot for a non-timeslotted type, is 400 invalid_params and changes nothing.",
    },
    remaining: {
      type: "integer",
      minimum: 0,
      description:
        "The supplier's unsold seats for the slot, the seats reserved bookings hold there included. Reservations keep their hold: a new booking can then take this number minus the seats they hold (none when they hold as many or more), which is what GET inventory reads as `remaining` afterwards. A reservation holds its seats against new bookings, not against the supplier: confirming it takes its seats from this number, and fails (422 prices_mismatch, bookingConfirm in docs/partner-api.openapi.yaml) when fewer are left than it needs. So `remaining: 0` makes every reservation of the slot unconfirmable, and `remaining` equal to the seats its reservations hold leaves nothing for a new booking while each of them can still be confirmed.",
    },
    caps: {
      anyOf: [CapsSchema, { type: "null" }],
      description:
        "The slot's caps, replaced as a whole: an age group this object leaves out has no cap afterwards (caps are not merged). null clears them; absent, they stay as they are.",
    },
  },
} as const;

export const HealthSchema = {
  type: "object",
  required: ["status"],
  properties: {
    status: { type: "string", description: '"ok" when the service is up.' },
    now: {
      type: "string",
      format: "date-time",
      pattern: TIMESTAMP_PATTERN,
      description: "The service's virtual now (GET /__control/clock).",
    },
    seed: { type: "integer", description: "Optional. The seed of the seeded state.", "x-atd-level": "reference" },
    products: { type: "integer", description: "Optional. How many products there are.", "x-atd-level": "reference" },
    productTypes: {
      type: "integer",
      description: "Optional. How many product types there are.",
      "x-atd-level": "reference",
    },
    partners: {
      type: "integer",
      description: "Optional. How many partner keys there are.",
      "x-atd-level": "reference",
    },
    uptimeSeconds: {
      type: "integer",
      description: "Optional. Real seconds since the service started.",
      "x-atd-level": "reference",
    },
  },
} as const;

export const ResetSchema = {
  type: "object",
  properties: {
    seed: {
      type: "integer",
      minimum: 0,
      maximum: 4_294_967_295,
      description:
        "A service that builds its seeded state from a seed builds it from this one (its own when absent); one that does not ignores it and answers its own.",
    },
  },
} as const;

export const ResetAnswerSchema = {
  type: "object",
  required: ["seed"],
  properties: {
    seed: { type: "integer", description: "The seed the state was rebuilt from." },
    now: {
      type: "string",
      format: "date-time",
      pattern: TIMESTAMP_PATTERN,
      description: "The virtual now after the reset.",
    },
    products: { type: "integer", description: "Optional. How many products there are.", "x-atd-level": "reference" },
  },
} as const;

export const CatalogueChangeSchema = {
  type: "object",
  description:
    "A change of content or availability; every key is optional. Each part that changes emits its event: `available` from true to false emits product_type_not_available (a product: product_updated, there being no product_not_available event), from false to true product_type_available (a product: product_available); a `title` or `description` that differs from the current one emits product_type_content_updated (a product: product_updated), one event for both. A value equal to the current one is no change: the service may emit that part's event all the same or emit nothing (either is allowed, and a client expects neither); a call that changes content and availability emits both events, in no promised order.",
  properties: {
    available: {
      type: "boolean",
      description:
        "false withdraws it from sale (a product type's public detail then answers 410 gone, and no booking can be made), true restores it.",
    },
    title: { type: "string", minLength: 1, pattern: "\\S", description: "The new title; not blank." },
    description: { type: "string", minLength: 1, pattern: "\\S", description: "The new description; not blank." },
  },
} as const;

export const CatalogueChangeAnswerSchema = {
  type: "object",
  required: ["uuid"],
  properties: {
    uuid: UUID,
    available: { type: "boolean" },
    title: { type: "string" },
    description: { type: "string" },
  },
} as const;

export const PartnerSettingsSchema = {
  type: "object",
  properties: {
    webhookUrl: {
      anyOf: [{ type: "string", format: "uri" }, { type: "null" }],
      description:
        "Where this partner's events go (an http or https URL), one endpoint per partner; null unregisters. Setting a URL enables delivery to it again, also after a 410 answer or exhausted retries disabled the endpoint.",
    },
    webhookSecret: {
      type: "string",
      pattern: "^whsec_(?:[A-Za-z0-9+/]{4}){8,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
      description:
        "The Standard Webhooks signing secret: whsec_ followed by the base64 of the key (24 to 64 random bytes; the harness sends 24). The HMAC-SHA256 key of webhook-signature is the decoded bytes, not the text. A secret of another form may be refused with 400.",
    },
    alternatives: {
      type: "boolean",
      description:
        "Whether a failed confirmation by this key carries `error.alternatives` (bookingConfirm's 422 in docs/partner-api.openapi.yaml).",
    },
    name: { type: "string", "x-atd-level": "reference" },
    restrictions: {
      type: "object",
      description: "Origin restrictions by product uuid.",
      "x-atd-level": "reference",
      additionalProperties: {
        type: "object",
        properties: {
          allowedCountries: { type: "array", items: { type: "string" } },
          excludedCountries: { type: "array", items: { type: "string" } },
        },
      },
    },
  },
} as const;

export const PartnerSchema = {
  type: "object",
  required: ["apiKey"],
  properties: {
    apiKey: { type: "string" },
    name: { type: "string" },
    alternatives: { type: "boolean" },
    webhookUrl: { anyOf: [{ type: "string" }, { type: "null" }] },
    webhookSecret: { type: "string", description: "The signing secret in force (whsec_<base64>)." },
    webhookEnabled: { type: "boolean", "x-atd-level": "reference" },
  },
} as const;

export const ClockSchema = {
  type: "object",
  required: ["now", "nowMs", "timeScale"],
  properties: {
    now: { ...TIMESTAMP, description: "The service's virtual now." },
    nowMs: { type: "integer", description: "The same instant in UNIX milliseconds." },
    timeScale: {
      type: "number",
      exclusiveMinimum: 0,
      description:
        "Virtual seconds per real second. It divides the whole webhook retry schedule, whichever clock the retries run on.",
    },
    offsetSeconds: {
      type: "integer",
      description:
        "Optional. How far the virtual clock is ahead of real time (the advances plus what a time scale above 1 gained), rounded to whole seconds.",
      "x-atd-level": "reference",
    },
    pendingTasks: {
      type: "integer",
      description:
        "Optional, for diagnosis. How many actions wait for a time on the virtual clock (a reservation's expiry, a supplier's decision).",
      "x-atd-level": "reference",
    },
  },
} as const;

export const ClockChangeSchema = {
  type: "object",
  description:
    "`advanceSeconds`, `timeScale` or both (the scale is set first, then the clock moved); a body with neither is 400 invalid_params.",
  anyOf: [{ required: ["advanceSeconds"] }, { required: ["timeScale"] }],
  properties: {
    advanceSeconds: {
      type: "number",
      minimum: 0,
      maximum: ADVANCE_SECONDS_MAX,
      description:
        "Moves the virtual clock forward by this many seconds, at once: a number, so fractions of a second count (to the millisecond). Whatever falls due on the way runs, in the order it fell due, before the answer is sent (a reservation expires, a supplier decides): a read right after shows it done. Webhook retries run on real time (the schedule divided by the time scale, not moved by an advance) or on this clock (then those that fell due run at once): the service's choice.",
    },
    timeScale: {
      type: "number",
      minimum: TIME_SCALE_MIN,
      maximum: TIME_SCALE_MAX,
      description:
        "Virtual seconds per real second from now on: the clock keeps its reading and runs this many times as fast as real time from it.",
    },
  },
} as const;

export const WebhookPayloadSchema = {
  type: "object",
  description: "The body of a webhook delivery (docs/contract-gaps.md, Webhooks).",
  required: ["type", "timestamp", "data"],
  properties: {
    type: { type: "string", enum: WEBHOOK_EVENT_TYPES },
    timestamp: {
      type: "string",
      format: "date-time",
      pattern: TIMESTAMP_PATTERN,
      description:
        "When the event happened, on the service clock or in real time (the service's choice); the webhook-timestamp header of each attempt is real time.",
    },
    data: { type: "object" },
  },
} as const;

export const EventSchema = {
  type: "object",
  description:
    "One message: an emitted event and the partner it goes to. An event goes to every partner with a webhook URL (a catalogue event) or to the booking's partner (a booking event), one entry each. Every emitted event is recorded, also one nobody receives: a catalogue event while no partner has a webhook URL is one entry with apiKey null, a booking event of a partner without one an entry with that partner's apiKey. Which operation emits which event: docs/contract-gaps.md (Webhooks). Entries may be dropped once ten minutes old.",
  required: ["seq", "id", "type", "apiKey", "resource", "emittedAt", "payload"],
  properties: {
    seq: {
      type: "integer",
      minimum: 1,
      description: "Ledger order: increases with every entry, in the order the events were emitted; `since` takes it.",
    },
    id: {
      type: "string",
      description:
        "The webhook-id of the message, the same on each of its attempts. Whether the messages of one event to several partners share it is the service's choice.",
    },
    type: { type: "string", enum: WEBHOOK_EVENT_TYPES },
    apiKey: {
      anyOf: [{ type: "string" }, { type: "null" }],
      description:
        "The partner the message goes to; null only for a catalogue event while no partner has a webhook URL.",
    },
    resource: { type: "string", description: "The uuid of the booking, product or product type." },
    emittedAt: {
      type: "string",
      format: "date-time",
      pattern: TIMESTAMP_PATTERN,
      description: "When the event was emitted, in real time.",
    },
    payload: WebhookPayloadSchema,
    virtualTime: {
      type: "string",
      format: "date-time",
      pattern: TIMESTAMP_PATTERN,
      description: "When the event was emitted, on the service clock (GET /__control/clock).",
    },
    emittedAtMs: { type: "integer", "x-atd-level": "reference" },
    url: { anyOf: [{ type: "string" }, { type: "null" }], "x-atd-level": "reference" },
    state: {
      type: "string",
      enum: ["pending", "delivered", "failed", "disabled", "no-endpoint"],
      "x-atd-level": "reference",
    },
    attempts: {
      type: "array",
      description: "The delivery attempts, oldest first.",
      "x-atd-level": "reference",
      items: {
        type: "object",
        required: ["attempt", "webhookId", "at"],
        properties: {
          attempt: { type: "integer" },
          webhookId: { type: "string" },
          at: {
            type: "string",
            format: "date-time",
            pattern: TIMESTAMP_PATTERN,
            description: "When the attempt was made, in real time (the webhook-timestamp header's clock).",
          },
          status: { anyOf: [{ type: "integer" }, { type: "null" }] },
          error: { anyOf: [{ type: "string" }, { type: "null" }] },
          durationMs: { type: "number" },
        },
      },
    },
  },
} as const;

export const ControlProductTypeSchema = {
  type: "object",
  required: [
    "uuid",
    "productUuid",
    "available",
    "timeslots",
    "instantConfirmation",
    "daysInAdvance",
    "minPax",
    "maxPax",
    "categories",
    "requiredOptions",
  ],
  properties: {
    uuid: UUID,
    productUuid: UUID,
    available: { type: "boolean" },
    timeslots: { type: "array", items: { type: "string" } },
    instantConfirmation: { type: "boolean" },
    daysInAdvance: COUNT,
    minPax: COUNT,
    maxPax: COUNT,
    categories: { type: "array", items: { type: "string", enum: CATEGORIES } },
    requiredOptions: {
      type: "array",
      description: "Options a booking must carry; a select option takes the uuid of one of its values.",
      items: {
        type: "object",
        required: ["uuid", "type", "values"],
        properties: {
          uuid: { type: "string" },
          type: { type: "string" },
          values: { type: "array", items: { type: "string" } },
        },
      },
    },
  },
} as const;

export const ControlBookingSchema = {
  type: "object",
  description: "The booking detail of the partner API, plus who owns it and whether it holds or locked seats.",
  required: ["uuid", "status"],
  properties: {
    uuid: UUID,
    status: { type: "string", enum: BOOKING_STATUSES },
    partner: { type: "string" },
    holding: { type: "boolean" },
    locked: { type: "boolean" },
  },
} as const;

export const BookingChangeSchema = {
  type: "object",
  properties: {
    decision: {
      type: "string",
      enum: ["approve", "reject"],
      description: "The supplier's decision on a waiting booking.",
    },
    approveCancellation: { type: "boolean" },
    customer: { type: "object", additionalProperties: { type: "string" } },
    partnerReference: { anyOf: [{ type: "string" }, { type: "null" }] },
    reissueVouchers: { type: "boolean" },
  },
} as const;

export const RateLimitSchema = {
  type: "object",
  properties: {
    limit: { type: "integer", minimum: 1 },
    windowSeconds: { type: "integer", minimum: 1 },
    algorithm: { type: "string", enum: RATE_LIMIT_ALGORITHMS },
  },
} as const;

export const RateLimitAnswerSchema = {
  type: "object",
  required: ["limit", "windowSeconds", "algorithm"],
  properties: {
    limit: { type: "integer" },
    windowSeconds: { type: "integer" },
    algorithm: { type: "string", enum: RATE_LIMIT_ALGORITHMS },
  },
} as const;

const FAULT_RULE = {
  type: "object",
  properties: {
    latencyMs: { type: "number", minimum: 0, maximum: 60_000, description: "Added latency before the handler runs." },
    errorRate: { type: "number", minimum: 0, maximum: 1, description: "Share answered 500 internal_error." },
    latencyFactor: {
      type: "number",
      minimum: 1,
      maximum: 10,
      default: 1,
      description:
        "The request takes this many times as long as it otherwise would: the time from just before the added latency until the reply is ready (handler included) is waited (latencyFactor - 1) times more. 1 (the default, always stated in answers) changes nothing.",
    },
  },
} as const;

export const FaultsSchema = {
  type: "object",
  properties: {
    default: FAULT_RULE,
    routes: {
      type: "object",
      description:
        "Per operation of the partner API, by its operationId in docs/partner-api.openapi.yaml (bookingCreate, priceListDate...); another name is 400 invalid_params.",
      propertyNames: { enum: ENDPOINT_NAMES },
      additionalProperties: FAULT_RULE,
    },
  },
} as const;

export const DefectSchema = {
  type: "object",
  required: ["name", "enabled"],
  properties: {
    name: { type: "string" },
    enabled: { type: "boolean" },
    issue: { type: "integer" },
    area: { type: "string" },
    description: { type: "string" },
  },
} as const;

export const VariationSchema = {
  type: "object",
  required: ["name", "freedom", "enabled"],
  properties: {
    name: { type: "string" },
    freedom: { type: "string", description: "The id of the freedom of the contract it varies." },
    description: { type: "string" },
    enabled: { type: "boolean" },
  },
} as const;

export const DefectSwitchesSchema = {
  type: "object",
  description: "Defect names switched on (true) or off (false); GET lists the names.",
  additionalProperties: { type: "boolean" },
} as const;

export const OpenApiDocumentSchema = {
  type: "object",
  description: "An OpenAPI 3.1 document.",
  required: ["openapi", "info", "paths"],
  properties: { openapi: { type: "string" }, info: { type: "object" }, paths: { type: "object" } },
} as const;

/** A query parameter of a hook. */
export interface QueryParameter {
  readonly schema: { readonly [keyword: string]: unknown };
  readonly required: boolean;
  readonly description: string;
}

export interface TestHookSpec {
  readonly method: "GET" | "POST" | "PUT";
  /** Path template on the control listener; `{name}` marks a path parameter. */
  readonly path: string;
  readonly level: HookLevel;
  readonly summary: string;
  /** What the hook does beyond its summary, in words a team can implement from. */
  readonly description?: string;
  /** What a 404 answer means for this hook; absent: the hook never answers 404 (its path parameters included). */
  readonly notFound?: string;
  readonly query?: Readonly<Record<string, QueryParameter>>;
  /** The JSON Schema of the request body; the hook takes none when absent. */
  readonly request?: { readonly [keyword: string]: unknown };
  /** The body may be left out (reset without a seed). */
  readonly bodyOptional?: boolean;
  /** The JSON Schema of the answer: what `data` holds, or the whole body when `envelope` is "none". */
  readonly answer: { readonly [keyword: string]: unknown };
  readonly envelope: "data" | "none";
  readonly contentType: "application/json" | "text/plain";
  /** Success statuses. */
  readonly statuses: readonly number[];
}

const TRUE_OR_FALSE = { type: "string", enum: ["true", "false"] } as const;

export const TEST_HOOKS = {
  health: {
    method: "GET",
    path: "/__control/health",
    level: "required",
    summary: "Whether the service is up (the harness polls it while a run lasts).",
    answer: HealthSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  reset: {
    method: "POST",
    path: "/__control/reset",
    level: "required",
    summary: "Back to the seeded state.",
    description:
      "Back to the seeded catalogue (content and availability), inventory (seats and caps) and partner settings (webhook URLs and secrets, alternatives), with no bookings, an empty events ledger, and the virtual clock back at real time (every advance undone) with nothing waiting on it. The time scale goes back to the service's start setting or stays as it is: either is allowed, so a client that changed it sets it back itself.",
    request: ResetSchema,
    bodyOptional: true,
    answer: ResetAnswerSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  inventory: {
    method: "GET",
    path: "/__control/inventory/{productTypeUuid}",
    level: "required",
    summary: "The seats of a product type over a date range: remaining per date and timeslot, with the caps.",
    notFound: "No such product type.",
    query: {
      date_start: { schema: DAY, required: true, description: "First day." },
      date_end: {
        schema: DAY,
        required: true,
        description:
          "Last day (inclusive): from date_start to 400 days after it (401 days at most); another range is 400 invalid_params.",
      },
    },
    answer: InventorySchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  inventorySet: {
    method: "PUT",
    path: "/__control/inventory/{productTypeUuid}/{date}",
    level: "required",
    summary: "Sets the supplier's seats and the caps of a date (one timeslot of it, or all of them); answers the date.",
    notFound: "No such product type.",
    request: InventorySetSchema,
    answer: InventoryDaySchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  productTypeChange: {
    method: "PUT",
    path: "/__control/product-types/{uuid}",
    level: "required",
    summary:
      "Changes a product type's content or availability; emits product_type_content_updated, product_type_available or product_type_not_available.",
    notFound: "No such product type.",
    request: CatalogueChangeSchema,
    answer: CatalogueChangeAnswerSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  productChange: {
    method: "PUT",
    path: "/__control/products/{uuid}",
    level: "required",
    summary: "Changes a product's content or availability; emits product_updated or product_available.",
    notFound: "No such product.",
    request: CatalogueChangeSchema,
    answer: CatalogueChangeAnswerSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  partnerSet: {
    method: "PUT",
    path: "/__control/partners/{apiKey}",
    level: "required",
    summary: "Sets a partner's webhook endpoint (URL and signing secret) and its alternatives opt-in.",
    description:
      "A key the service does not know: it either creates the key with these settings (201) or refuses with 404 not_found and creates nothing; either is allowed, and a client sets only keys the service already has.",
    notFound: "The key is unknown, and this service does not create keys.",
    request: PartnerSettingsSchema,
    answer: PartnerSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200, 201],
  },
  clock: {
    method: "GET",
    path: "/__control/clock",
    level: "required",
    summary: "The service's virtual clock.",
    answer: ClockSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  clockChange: {
    method: "POST",
    path: "/__control/clock",
    level: "required",
    summary: "Advances the virtual clock ({advanceSeconds}) or sets its time scale ({timeScale}).",
    request: ClockChangeSchema,
    answer: ClockSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  events: {
    method: "GET",
    path: "/__control/events",
    level: "required",
    summary: "The ledger of emitted events, one entry per message (an event and one partner), oldest first.",
    query: {
      type: { schema: { type: "string", enum: WEBHOOK_EVENT_TYPES }, required: false, description: "Only this type." },
      apiKey: { schema: { type: "string" }, required: false, description: "Only messages for this partner." },
      resource: { schema: { type: "string" }, required: false, description: "Only events about this uuid." },
      since: { schema: COUNT, required: false, description: "Only entries with a larger seq." },
      limit: {
        schema: { type: "integer", minimum: 1 },
        required: false,
        description:
          "At most this many: the oldest entries that match, so that asking again with since = the last seq reads on. All that match when absent.",
      },
    },
    answer: { type: "array", items: EventSchema },
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  productTypes: {
    method: "GET",
    path: "/__control/product-types",
    level: "reference",
    summary:
      "Discovery of product types by kind, with their required options (fallback: walk /v2/products and /v2/product-types).",
    query: {
      timeslotted: {
        schema: TRUE_OR_FALSE,
        required: false,
        description: "Only timeslotted (true) or non-timeslotted (false) types.",
      },
      instant: {
        schema: TRUE_OR_FALSE,
        required: false,
        description: "Only instant-confirmation (true) or supplier-decided (false) types.",
      },
      children: {
        schema: TRUE_OR_FALSE,
        required: false,
        description: "Only types that do (true) or do not (false) sell children tickets.",
      },
      limit: {
        schema: { type: "integer", minimum: 1, maximum: 1000 },
        required: false,
        description: "At most this many (100 when absent).",
      },
    },
    answer: { type: "array", items: ControlProductTypeSchema },
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  partners: {
    method: "GET",
    path: "/__control/partners",
    level: "reference",
    summary:
      "Every partner key with its settings. Optional: a client that needs the keys of a service without it is given them another way.",
    answer: { type: "array", items: PartnerSchema },
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  partner: {
    method: "GET",
    path: "/__control/partners/{apiKey}",
    level: "reference",
    summary: "One partner's settings.",
    notFound: "No such partner.",
    answer: PartnerSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  booking: {
    method: "GET",
    path: "/__control/bookings/{uuid}",
    level: "reference",
    summary: "A booking of any partner, with whether it holds or locked seats.",
    notFound: "No such booking.",
    answer: ControlBookingSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  bookingChange: {
    method: "PUT",
    path: "/__control/bookings/{uuid}",
    level: "reference",
    summary: "Supplier-side changes: a decision on a waiting booking, a cancellation approval, data, vouchers.",
    notFound: "No such booking.",
    request: BookingChangeSchema,
    answer: ControlBookingSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  rateLimit: {
    method: "GET",
    path: "/__control/rate-limit",
    level: "reference",
    summary: "The rate limiter's settings.",
    answer: RateLimitAnswerSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  rateLimitSet: {
    method: "PUT",
    path: "/__control/rate-limit",
    level: "reference",
    summary: "Reconfigures the rate limiter and forgets every allowance.",
    request: RateLimitSchema,
    answer: RateLimitAnswerSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  faults: {
    method: "GET",
    path: "/__control/faults",
    level: "reference",
    summary: "The injected faults.",
    answer: FaultsSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  faultsSet: {
    method: "PUT",
    path: "/__control/faults",
    level: "reference",
    summary: "Added latency and a 500 internal_error share, by default and per operation of the partner API.",
    request: FaultsSchema,
    answer: FaultsSchema,
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  defects: {
    method: "GET",
    path: "/__control/defects",
    level: "reference",
    summary: "Every named defect of the reference service, with its description and state.",
    answer: { type: "array", items: DefectSchema },
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  defectsSet: {
    method: "PUT",
    path: "/__control/defects",
    level: "reference",
    summary: "Switches named defects on or off (only the defect-proof tests use them).",
    request: DefectSwitchesSchema,
    answer: { type: "array", items: DefectSchema },
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  variations: {
    method: "GET",
    path: "/__control/variations",
    level: "reference",
    summary:
      "Every variation of the reference service (another legal choice where the contract leaves one open), with its state; chosen when the service starts.",
    answer: { type: "array", items: VariationSchema },
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  metrics: {
    method: "GET",
    path: "/metrics",
    level: "reference",
    summary:
      'Prometheus text: RSS, heap, event-loop lag, open connections, requests by route and status. A soak reads these series, each optional: process_resident_memory_bytes, nodejs_heap_used_bytes, http_open_connections, nodejs_eventloop_lag_seconds{quantile="0.99"}; it judges memory on the heap\'s floor where the heap is reported, else on RSS.',
    answer: { type: "string" },
    envelope: "none",
    contentType: "text/plain",
    statuses: [200],
  },
  openApi: {
    method: "GET",
    path: "/__control/openapi.json",
    level: "reference",
    summary: "This document, as JSON.",
    answer: OpenApiDocumentSchema,
    envelope: "none",
    contentType: "application/json",
    statuses: [200],
  },
} as const satisfies Record<string, TestHookSpec>;

export type TestHookName = keyof typeof TEST_HOOKS;
export const TEST_HOOK_NAMES = /* @__PURE__ */ Object.keys(TEST_HOOKS) as TestHookName[];
export const REQUIRED_TEST_HOOKS = /* @__PURE__ */ TEST_HOOK_NAMES.filter(
  (name) => TEST_HOOKS[name].level === "required",
);

/** The request body a hook takes (undefined when it takes none). */
export type TestHookRequest<N extends TestHookName> = (typeof TEST_HOOKS)[N] extends { request: infer S }
  ? FromSchema<S>
  : undefined;

/** What a hook answers: the value of `data`, or the whole body for hooks without the envelope. */
export type TestHookAnswer<N extends TestHookName> = FromSchema<(typeof TEST_HOOKS)[N]["answer"]>;

export type ControlInventory = FromSchema<typeof InventorySchema>;
export type ControlInventoryDay = FromSchema<typeof InventoryDaySchema>;
export type ControlClock = FromSchema<typeof ClockSchema>;
export type ControlPartner = FromSchema<typeof PartnerSchema>;
export type ControlEvent = FromSchema<typeof EventSchema>;

/** The named schemas of the hooks: components/schemas of docs/test-hooks.openapi.yaml. */
export const TEST_HOOK_SCHEMAS = {
  Health: HealthSchema,
  Reset: ResetSchema,
  ResetAnswer: ResetAnswerSchema,
  Caps: CapsSchema,
  Inventory: InventorySchema,
  InventoryDay: InventoryDaySchema,
  InventoryTimeslot: InventoryTimeslotSchema,
  InventorySet: InventorySetSchema,
  CatalogueChange: CatalogueChangeSchema,
  CatalogueChangeAnswer: CatalogueChangeAnswerSchema,
  PartnerSettings: PartnerSettingsSchema,
  Partner: PartnerSchema,
  Clock: ClockSchema,
  ClockChange: ClockChangeSchema,
  Event: EventSchema,
  WebhookPayload: WebhookPayloadSchema,
  ControlProductType: ControlProductTypeSchema,
  ControlBooking: ControlBookingSchema,
  BookingChange: BookingChangeSchema,
  RateLimit: RateLimitSchema,
  RateLimitAnswer: RateLimitAnswerSchema,
  Faults: FaultsSchema,
  Defect: DefectSchema,
  DefectSwitches: DefectSwitchesSchema,
  OpenApiDocument: OpenApiDocumentSchema,
} as const;
