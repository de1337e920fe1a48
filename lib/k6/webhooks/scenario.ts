/**
 * The webhooks scenario's options, setup and iteration; scenarios/webhooks.ts is its entry file. With the control API
 * (ATD_CONTROL_URL) it causes all eight kinds and moves the clock; without it only the booking flows run
 * (public-api.ts).
 */
import exec from "k6/execution";
import type { Options } from "k6/options";
import type { ExpectationRecord } from "../../contract/index.ts";
import { FUNCTIONAL_DRIVERS } from "../../contract/functional-drivers.ts";
import type { ApiClient, Json } from "../client.ts";
import { checkResponse, expectThat } from "../checks.ts";
import { loadConfig } from "../config.ts";
import { discoverProductTypes } from "../discover-product-types.ts";
import { recordExpectation } from "../expectations.ts";
import { HooksClient, reportHookFailures, type HookSettings } from "../hooks-client.ts";
import { functionalOptions } from "../options.ts";
import { partnerClient, setupClient } from "../partner.ts";
import type { SampleProductType } from "../traffic/catalogue-sample.ts";
import { book, publicApiIteration, setupPublicApi, toSample, type PublicApiWebhookSample } from "./public-api.ts";
import { WEBHOOKS_WALK, pickWebhookTypes } from "./sample.ts";

const config = loadConfig(__ENV);

/** The partner whose bookings this scenario makes (index in ATD_API_KEYS); the sink refuses on the last key. */
const KEY_INDEX = 0;
/**
 * Virtual seconds the clock is moved after a confirm that awaits the supplier, or a cancellation request. The contract
 * gives no delay for either ("after a delay", "when approved"): 5 minutes covers the reference service's (60 s and
 * 30 s), and what the booking shows afterwards is what is expected (bookingAfter). A service that takes longer
 * decides at the sink's final move past five days, and that decision is judged for loss only (follow-ons.ts).
 */
const DECISION_ADVANCE_SECONDS = 300;

// A functional driver, not load: the API's latency SLOs belong to the load scenarios (a p95 of a few dozen calls is
// their maximum), and an iteration the executor could not start costs events, which the sink judges.
export const options: Options = functionalOptions(config, {
  name: "webhooks",
  ...FUNCTIONAL_DRIVERS.webhooks,
  endpoints: [],
  // One VU: the clock moves for everyone, so the flows must not overlap.
  maxVUs: 1,
  judgeFailedRequests: true,
});

interface WebhookSample {
  mode: "hooks";
  control: HookSettings;
  instant: SampleProductType;
  supplierDecided: SampleProductType;
  /** A product type and a product whose content and availability change. */
  changingProductType: string;
  changingProduct: string;
}

export function setup(): WebhookSample | PublicApiWebhookSample {
  const control = config.control;
  // No control API: the booking flows alone, which need no hook.
  if (!control) return setupPublicApi(config);
  return reportHookFailures("set up the webhooks scenario", () => {
    const hooks = new HooksClient(control);
    const discovered = discoverProductTypes(hooks, (i) => setupClient(config, i), WEBHOOKS_WALK);
    const picked = pickWebhookTypes(discovered.candidates);
    if (!picked) {
      throw new Error(
        `Failed to set up the webhooks scenario: among ${discovered.candidates.length} product types found by the ${discovered.via} there is no instant and no supplier-decided one without timeslots, or no other products to change. Please use a larger catalogue.`,
      );
    }
    return {
      mode: "hooks" as const,
      control,
      instant: toSample(picked.instant),
      supplierDecided: toSample(picked.supplierDecided),
      changingProductType: picked.changingProductType,
      changingProduct: picked.changingProduct,
    };
  });
}

/** A catalogue change through its required hook, checked like every other call the flows make. */
function change(hooks: HooksClient, hook: "productTypeChange" | "productChange", uuid: string, body: Json): void {
  const name = hook === "productChange" ? "product change" : "product type change";
  const res = hooks.exchange(hook, { params: { uuid }, body });
  expectThat(
    `control API: ${name}`,
    res.status >= 200 && res.status < 300 ? undefined : `PUT ${name} answered ${res.status}: ${res.text.slice(0, 120)}`,
  );
}

function expectEvent(record: Omit<ExpectationRecord, "at">, at: number): void {
  recordExpectation({ ...record, at });
}

function advanceClock(hooks: HooksClient, seconds: number): number {
  const at = Date.now();
  const res = hooks.exchange("clockChange", { body: { advanceSeconds: seconds } });
  expectThat(
    "control API: clock",
    res.status === 200 ? undefined : `POST clock answered ${res.status}: ${res.text.slice(0, 120)}`,
  );
  return at;
}

const status = (resource: string, s: string) => ({
  type: "booking_status_updated" as const,
  resource,
  key: KEY_INDEX,
  status: s,
});

/**
 * After the clock moved past a decision the service makes on its own: expects what the booking now shows, with the
 * move as its trigger (a decision, with its vouchers when approved; a cancellation ended). A booking still undecided
 * expects nothing here: the sink derives the decision as a follow-on and judges it for loss only.
 */
function bookingAfter(client: ApiClient, uuid: string, at: number, awaited: readonly string[]): void {
  const read = client.getBooking(uuid);
  if (!checkResponse(read) || !read.data) return;
  const now = String(read.data.status);
  if (!awaited.includes(now)) return;
  expectEvent(status(uuid, now), at);
  if (now === "approved") expectEvent({ type: "booking_tickets_updated", resource: uuid, key: KEY_INDEX }, at);
}

type Flow = (client: ApiClient, hooks: HooksClient, sample: WebhookSample, n: number) => void;

/**
 * Each flow causes a known set of events; the client records those of booking calls itself. The first four cause all
 * eight kinds (the instant flow's three booking kinds, then the catalogue's five), so a run too short or too loaded for
 * every flow still has each kind to judge; the other booking flows come after.
 */
const FLOWS: readonly Flow[] = [
  // instant confirmation, then a cancellation: reserved, approved, tickets, data, then cancelled once approved
  (client, hooks, sample, n) => {
    const uuid = book(client, sample.instant, n);
    if (!uuid || !checkResponse(client.confirmBooking(uuid)) || !checkResponse(client.cancelBooking(uuid))) return;
    bookingAfter(client, uuid, advanceClock(hooks, DECISION_ADVANCE_SECONDS), ["cancelled"]);
  },
  (_client, hooks, sample, n) => {
    const at = Date.now();
    change(hooks, "productTypeChange", sample.changingProductType, { title: `Webhook check ${n}` });
    expectEvent({ type: "product_type_content_updated", resource: sample.changingProductType }, at);
  },
  // withdrawn and back at once, so that the load scenarios hardly ever see it gone
  (_client, hooks, sample) => {
    for (const available of [false, true]) {
      const at = Date.now();
      change(hooks, "productTypeChange", sample.changingProductType, { available });
      const type = available ? "product_type_available" : "product_type_not_available";
      expectEvent({ type, resource: sample.changingProductType }, at);
    }
  },
  // a content change, then withdrawn (an update) and back (available)
  (_client, hooks, sample, n) => {
    const changes: [Json, "product_updated" | "product_available"][] = [
      [{ title: `Webhook check ${n}` }, "product_updated"],
      [{ available: false }, "product_updated"],
      [{ available: true }, "product_available"],
    ];
    for (const [body, type] of changes) {
      const at = Date.now();
      change(hooks, "productChange", sample.changingProduct, body);
      expectEvent({ type, resource: sample.changingProduct }, at);
    }
  },
  // the supplier decides: reserved, waiting, then approved (and tickets) or rejected
  (client, hooks, sample, n) => {
    const uuid = book(client, sample.supplierDecided, n);
    if (!uuid || !checkResponse(client.confirmBooking(uuid))) return;
    bookingAfter(client, uuid, advanceClock(hooks, DECISION_ADVANCE_SECONDS), ["approved", "rejected"]);
  },
  // the same with a reference the reference service rejects ("reject..."); another service decides its own way
  (client, hooks, sample, n) => {
    const uuid = book(client, sample.supplierDecided, n, `reject-atd-webhooks-${n}`);
    if (!uuid || !checkResponse(client.confirmBooking(uuid))) return;
    bookingAfter(client, uuid, advanceClock(hooks, DECISION_ADVANCE_SECONDS), ["approved", "rejected"]);
  },
  // cancelled while reserved: reserved, data, then cancelled once approved
  (client, hooks, sample, n) => {
    const uuid = book(client, sample.instant, n);
    if (!uuid || !checkResponse(client.cancelBooking(uuid))) return;
    bookingAfter(client, uuid, advanceClock(hooks, DECISION_ADVANCE_SECONDS), ["cancelled"]);
  },
  // left reserved: the extension makes it expire after k6
  (client, _hooks, sample, n) => {
    book(client, sample.instant, n);
  },
];

export default function webhooks(sample: WebhookSample | PublicApiWebhookSample): void {
  const n = exec.scenario.iterationInTest;
  if (sample.mode === "public-api") {
    publicApiIteration(config, sample, n);
    return;
  }
  const flow = FLOWS[n % FLOWS.length] as Flow;
  reportHookFailures(
    "run the webhooks scenario",
    () => {
      flow(partnerClient(config, KEY_INDEX), new HooksClient(sample.control), sample, n);
    },
    true,
  );
}
