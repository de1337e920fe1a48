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
import { RATE_LIMIT_ALGORITHMS } from "./limits.ts";
import { BOOKING_STATUSES, WEBHOOK_EVENT_TYPES } from "./types.ts";

export type HookLevel = "required" | "reference";
export const HOOK_LEVELS: readonly HookLevel[] = ["required", "reference"];

const CATEGORIES = ["adults", "children", "seniors"] as const;
const UUID = { type: "string", format: "uuid", pattern: UUID_PATTERN } as const;
const DAY = { type: "string", format: "date", pattern: DATE_PATTERN, description: "YYYY-MM-DD" } as const;
const TIMESTAMP = { type: "string", format: "date-time", pattern: TIMESTAMP_PATTERN } as const;
const COUNT = { type: "integer", minimum: 0 } as const;

export const CapsSchema = {
  type: "object",
  description:
    "Per-category caps of one slot: at most this many of the category per booking (docs/contract-gaps.md, Inventory and alternatives).",
  properties: { adults: COUNT, children: COUNT, seniors: COUNT },
} as const;

export const InventoryTimeslotSchema = {
  type: "object",
  required: ["timeslot", "remaining"],
  properties: {
    timeslot: { type: "string", pattern: TIMESLOT_PATTERN, description: "HH:MM" },
    remaining: { type: "integer", minimum: 0, description: "Seats a new booking can take at this timeslot." },
    caps: CapsSchema,
    supply: {
      type: "integer",
      minimum: 0,
      description: "The supplier's free seats (what PUT inventory sets).",
      "x-atd-level": "reference",
    },
    held: { type: "integer", minimum: 0, description: "Seats held by reserved bookings.", "x-atd-level": "reference" },
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
      description: "Seats a new booking can take that day (the sum over its timeslots when timeslotted).",
    },
    caps: CapsSchema,
    timeslots: {
      type: "array",
      items: InventoryTimeslotSchema,
      description: "Present for timeslotted product types.",
    },
    open: {
      type: "boolean",
      description: "Whether the day is bookable at all (lead time, validity).",
      "x-atd-level": "reference",
    },
    supply: {
      type: "integer",
      minimum: 0,
      description: "The supplier's free seats (non-timeslotted types).",
      "x-atd-level": "reference",
    },
    held: {
      type: "integer",
      minimum: 0,
      description: "Seats held by reserved bookings (non-timeslotted types).",
      "x-atd-level": "reference",
    },
  },
} as const;

export const InventorySchema = {
  type: "object",
  description: "Ground truth: remaining per date, timeslot and category (the alternatives oracle's snapshot).",
  required: ["timeslotted", "days"],
  properties: {
    timeslotted: { type: "boolean" },
    days: { type: "array", items: InventoryDaySchema },
    productTypeUuid: UUID,
    categories: {
      type: "array",
      items: { type: "string", enum: CATEGORIES },
      description: "The price categories the product type sells (adults when absent).",
    },
  },
} as const;

export const InventorySetSchema = {
  type: "object",
  properties: {
    timeslot: { type: "string", description: "One timeslot; every timeslot of the day when absent." },
    remaining: { type: "integer", minimum: 0, description: "The supplier's free seats for the slot." },
    caps: { anyOf: [CapsSchema, { type: "null" }], description: "Per-category caps; null clears them." },
  },
} as const;

export const HealthSchema = {
  type: "object",
  required: ["status"],
  properties: {
    status: { type: "string", description: '"ok" when the service is up.' },
    now: { type: "string", format: "date-time", pattern: TIMESTAMP_PATTERN, description: "The service's virtual now." },
    seed: { type: "integer", "x-atd-level": "reference" },
    products: { type: "integer", "x-atd-level": "reference" },
    productTypes: { type: "integer", "x-atd-level": "reference" },
    partners: { type: "integer", "x-atd-level": "reference" },
    uptimeSeconds: { type: "integer", "x-atd-level": "reference" },
  },
} as const;

export const ResetSchema = {
  type: "object",
  properties: {
    seed: { type: "integer", minimum: 0, description: "The seed of the catalogue; the service's own when absent." },
  },
} as const;

export const ResetAnswerSchema = {
  type: "object",
  required: ["seed"],
  properties: {
    seed: { type: "integer" },
    now: TIMESTAMP,
    products: { type: "integer", "x-atd-level": "reference" },
  },
} as const;

export const CatalogueChangeSchema = {
  type: "object",
  properties: {
    available: {
      type: "boolean",
      description: "Withdraws (false) or restores (true); each change emits its event.",
    },
    title: { type: "string", minLength: 1 },
    description: { type: "string", minLength: 1 },
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
    alternatives: { type: "boolean", description: "Alternatives on a failed confirmation for this key (spec 7.2)." },
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
    now: { type: "string", format: "date-time", pattern: TIMESTAMP_PATTERN, description: "The service's virtual now." },
    nowMs: { type: "integer", description: "The same instant in UNIX milliseconds." },
    timeScale: {
      type: "number",
      exclusiveMinimum: 0,
      description:
        "Virtual seconds per real second. It divides the whole webhook retry schedule, whichever clock the retries run on.",
    },
    offsetSeconds: { type: "integer", description: "How far the clock was advanced.", "x-atd-level": "reference" },
    pendingTasks: { type: "integer", description: "Timers on the virtual clock.", "x-atd-level": "reference" },
  },
} as const;

export const ClockChangeSchema = {
  type: "object",
  description: "One of the two, or both.",
  anyOf: [{ required: ["advanceSeconds"] }, { required: ["timeScale"] }],
  properties: {
    advanceSeconds: {
      type: "number",
      minimum: 0,
      description:
        "Moves the clock forward; due tasks (approvals, expiry) run at once. Webhook retries run on real timers (the schedule divided by the time scale, not moved by an advance) or on this clock (then those that fell due run at once): the service's choice.",
    },
    timeScale: { type: "number", exclusiveMinimum: 0, description: "Virtual seconds per real second from now on." },
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
      description: "By endpoint name of ENDPOINTS (another name is refused with 400).",
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
    summary: "Back to the seeded catalogue, inventory, partners, bookings and clock.",
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
    summary: "Ground truth of a product type over a date range: remaining per date, timeslot and category.",
    query: {
      date_start: { schema: DAY, required: true, description: "First day." },
      date_end: { schema: DAY, required: true, description: "Last day (inclusive)." },
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
    summary: "Sets the supplier's free seats and caps of one day (one timeslot, or all of them): inventory churn.",
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
      "Changes a product type's content or availability; emits product_type_content_updated or product_type_(not_)available.",
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
    summary:
      "Sets a partner's webhook endpoint (URL and signing secret) and its alternatives opt-in; creates the key when new (201).",
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
    summary: "Every partner key with its settings.",
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
    summary: "Added latency and a 500 internal_error share, by default and per endpoint name.",
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
      "Every variation of the reference service (another legal choice where the contract leaves one open), with its state; chosen at start with --variations.",
    answer: { type: "array", items: VariationSchema },
    envelope: "data",
    contentType: "application/json",
    statuses: [200],
  },
  metrics: {
    method: "GET",
    path: "/metrics",
    level: "reference",
    summary: "Prometheus text: RSS, heap, event-loop lag, open connections, requests by route and status.",
    answer: { type: "string" },
    envelope: "none",
    contentType: "text/plain",
    statuses: [200],
  },
  openApi: {
    method: "GET",
    path: "/__control/openapi.json",
    level: "reference",
    summary: "This document (docs/test-hooks.openapi.yaml) as JSON.",
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
