/** The webhooks scenario's options, setup and iteration; scenarios/webhooks.ts is its entry file. */
import http from "k6/http";
import exec from "k6/execution";
import type { Options } from "k6/options";
import {
  HEADERS,
  addDays,
  isRecord,
  todayUtc,
  type BookingRequest,
  type ExpectationRecord,
} from "../../contract/index.ts";
import type { ApiClient, Json } from "../client.ts";
import { checkResponse, expectThat } from "../checks.ts";
import { loadConfig } from "../config.ts";
import { loadWebhookSettings, recordExpectation } from "../expectations.ts";
import { functionalOptions } from "../options.ts";
import { partnerClient } from "../partner.ts";
import type { SampleProductType } from "../traffic/catalogue-sample.ts";
import { bookingRequestFor } from "../traffic/journeys.ts";

const config = loadConfig(__ENV);
const settings = loadWebhookSettings(__ENV);

/** Iterations per second; each iteration is one of FLOWS, in turn, so 8 s covers every flow twice. */
const RATE = 2;
/** The partner whose bookings this scenario makes (index in ATD_API_KEYS); the sink refuses on the last key. */
const KEY_INDEX = 0;
/** Virtual seconds that let every supplier decision (60 s) and cancellation approval (30 s) fall due. */
const SUPPLIER_DELAY_SECONDS = 61;
const CANCELLATION_DELAY_SECONDS = 31;

// A functional driver, not load: the API's latency SLOs belong to the load scenarios (a p95 of a few dozen calls is
// their maximum), and an iteration the executor could not start costs events, which the sink judges.
export const options: Options = functionalOptions(config, {
  name: "webhooks",
  rate: RATE,
  defaultDuration: "8s",
  endpoints: [],
  // One VU: the clock moves for everyone, so the flows must not overlap.
  maxVUs: 1,
  judgeFailedRequests: true,
});

interface WebhookSample {
  instant: SampleProductType;
  supplierDecided: SampleProductType;
  /** A product type and a product whose content and availability change. */
  changingProductType: string;
  changingProduct: string;
}

function control(name: string, method: string, path: string, body?: Json): Json | undefined {
  const res = http.request<"text">(method, `${settings.controlUrl ?? ""}${path}`, body ? JSON.stringify(body) : null, {
    headers: { [HEADERS.control]: settings.controlToken ?? "", "Content-Type": "application/json" },
    tags: { phase: "control", name },
  });
  const ok = expectThat(
    `control API: ${name}`,
    res.status >= 200 && res.status < 300
      ? undefined
      : `${method} ${name} answered ${res.status}: ${res.body.slice(0, 120)}`,
  );
  if (!ok) return undefined;
  const parsed = JSON.parse(res.body) as unknown;
  return isRecord(parsed) ? parsed : undefined;
}

function toSample(t: Json): SampleProductType {
  const options = Array.isArray(t.requiredOptions) ? t.requiredOptions.filter(isRecord) : [];
  return {
    uuid: String(t.uuid),
    productUuid: String(t.productUuid),
    timeslotted: Array.isArray(t.timeslots) && t.timeslots.length > 0,
    daysInAdvance: Number(t.daysInAdvance) || 0,
    minPax: Math.max(1, Number(t.minPax) || 1),
    maxPax: Math.max(1, Number(t.maxPax) || 1),
    options: options.map((o) => ({
      uuid: String(o.uuid),
      type: String(o.type),
      required: true,
      values: Array.isArray(o.values) ? o.values.map(String) : [],
    })),
  };
}

export function setup(): WebhookSample {
  if (!settings.controlUrl || !settings.controlToken) {
    throw new Error(
      "Failed to set up the webhooks scenario: ATD_CONTROL_URL and ATD_CONTROL_TOKEN are not set. Please run it through the harness (harness run webhooks), whose webhook sink passes them.",
    );
  }
  const list = (query: string): Json[] => {
    const data = control("product types", "GET", `/__control/product-types?limit=1000&${query}`)?.data;
    return Array.isArray(data) ? data.filter(isRecord).filter((t) => t.available === true) : [];
  };
  // From the end of the catalogue: the load scenarios sample its beginning, and changes here must not break them.
  const instant = list("instant=true&timeslotted=false").at(-1);
  const decided = list("instant=false&timeslotted=false").at(-1);
  const all = list("");
  const used = new Set([instant?.productUuid, decided?.productUuid]);
  const others = all.filter((t) => !used.has(t.productUuid));
  const changingType = others.at(-1);
  const changingProduct = others.filter((t) => t.productUuid !== changingType?.productUuid).at(-1);
  if (!instant || !decided || !changingType || !changingProduct) {
    throw new Error(
      "Failed to set up the webhooks scenario: the catalogue lacks an instant and a supplier-decided product type without timeslots, or products to change. Please use a larger catalogue (--products).",
    );
  }
  return {
    instant: toSample(instant),
    supplierDecided: toSample(decided),
    changingProductType: String(changingType.uuid),
    changingProduct: String(changingProduct.productUuid),
  };
}

function expectEvent(record: Omit<ExpectationRecord, "at">, at: number): void {
  recordExpectation({ ...record, at });
}

/** Creates a booking on the first bookable date from a few weeks out (the single-date check first, spec 4.2). */
function book(client: ApiClient, type: SampleProductType, n: number, reference?: string): string | undefined {
  for (let i = 0; i < 5; i++) {
    const date = addDays(todayUtc(), type.daysInAdvance + 20 + ((n * 5 + i) % 60));
    const single = client.getPriceForDate(type.uuid, date);
    if (!checkResponse(single) || single.data?.available !== true) continue;
    const request: BookingRequest = bookingRequestFor(type, date, undefined, n);
    if (reference !== undefined) request.partnerReference = reference;
    const created = client.createBooking(request);
    if (!checkResponse(created, [200, 201]) || !created.data) return undefined;
    return String(created.data.uuid);
  }
  expectThat("webhooks: a bookable date found", `no bookable date for ${type.uuid} in 5 tries`);
  return undefined;
}

function advanceClock(seconds: number): number {
  const at = Date.now();
  control("clock", "POST", "/__control/clock", { advanceSeconds: seconds });
  return at;
}

const status = (resource: string, s: string) => ({
  type: "booking_status_updated" as const,
  resource,
  key: KEY_INDEX,
  status: s,
});

type Flow = (client: ApiClient, sample: WebhookSample, n: number) => void;

/** Each flow causes a known set of events; the client records those of booking calls itself. */
const FLOWS: readonly Flow[] = [
  // instant confirmation, then a cancellation the supplier approves: reserved, approved, tickets, data, cancelled
  (client, sample, n) => {
    const uuid = book(client, sample.instant, n);
    if (!uuid || !checkResponse(client.confirmBooking(uuid)) || !checkResponse(client.cancelBooking(uuid))) return;
    expectEvent(status(uuid, "cancelled"), advanceClock(CANCELLATION_DELAY_SECONDS));
  },
  // supplier approves: reserved, waiting, approved, tickets
  (client, sample, n) => {
    const uuid = book(client, sample.supplierDecided, n);
    if (!uuid || !checkResponse(client.confirmBooking(uuid))) return;
    const at = advanceClock(SUPPLIER_DELAY_SECONDS);
    expectEvent(status(uuid, "approved"), at);
    expectEvent({ type: "booking_tickets_updated", resource: uuid, key: KEY_INDEX }, at);
  },
  // supplier rejects (the reference service rejects partner references starting with "reject"): ..., rejected
  (client, sample, n) => {
    const uuid = book(client, sample.supplierDecided, n, `reject-atd-webhooks-${n}`);
    if (!uuid || !checkResponse(client.confirmBooking(uuid))) return;
    expectEvent(status(uuid, "rejected"), advanceClock(SUPPLIER_DELAY_SECONDS));
  },
  // cancelled while reserved: reserved, data, cancelled
  (client, sample, n) => {
    const uuid = book(client, sample.instant, n);
    if (!uuid || !checkResponse(client.cancelBooking(uuid))) return;
    expectEvent(status(uuid, "cancelled"), advanceClock(CANCELLATION_DELAY_SECONDS));
  },
  // left reserved: the extension makes it expire after k6
  (client, sample, n) => {
    book(client, sample.instant, n);
  },
  (_client, sample, n) => {
    const at = Date.now();
    control("product type change", "PUT", `/__control/product-types/${sample.changingProductType}`, {
      title: `Webhook check ${n}`,
    });
    expectEvent({ type: "product_type_content_updated", resource: sample.changingProductType }, at);
  },
  // withdrawn and back at once, so that the load scenarios hardly ever see it gone
  (_client, sample) => {
    for (const available of [false, true]) {
      const at = Date.now();
      control("product type change", "PUT", `/__control/product-types/${sample.changingProductType}`, { available });
      const type = available ? "product_type_available" : "product_type_not_available";
      expectEvent({ type, resource: sample.changingProductType }, at);
    }
  },
  // a content change, then withdrawn (an update) and back (available)
  (_client, sample, n) => {
    const changes: [Json, "product_updated" | "product_available"][] = [
      [{ title: `Webhook check ${n}` }, "product_updated"],
      [{ available: false }, "product_updated"],
      [{ available: true }, "product_available"],
    ];
    for (const [change, type] of changes) {
      const at = Date.now();
      control("product change", "PUT", `/__control/products/${sample.changingProduct}`, change);
      expectEvent({ type, resource: sample.changingProduct }, at);
    }
  },
];

export default function webhooks(sample: WebhookSample): void {
  const n = exec.scenario.iterationInTest;
  const flow = FLOWS[n % FLOWS.length] as Flow;
  flow(partnerClient(config, KEY_INDEX), sample, n);
}
