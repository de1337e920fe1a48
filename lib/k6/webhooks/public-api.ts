/**
 * The webhooks scenario without test hooks (no ATD_CONTROL_URL): only the booking flows that need no hook, each a
 * partner's own calls whose events the client records (lib/k6/expectations.ts). No clock moves and no catalogue
 * changes; what the service decides later on its own (a supplier's decision, a cancellation's approval) is observed
 * by the sink, not expected (lib/harness/webhooks/observed.ts). No flow leaves a booking reserved: a deployment the
 * run does not own would hold those seats for five days.
 */
import { addDays, todayUtc, type BookingRequest } from "../../contract/index.ts";
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import { checkResponse, expectThat } from "../checks.ts";
import type { ApiClient } from "../client.ts";
import type { K6Config } from "../config.ts";
import { discoverProductTypes } from "../discover-product-types.ts";
import { partnerClient, setupClient } from "../partner.ts";
import type { SampleProductType } from "../traffic/catalogue-sample.ts";
import { bookingRequestFor } from "../traffic/journeys.ts";
import { WEBHOOKS_PUBLIC_API_WALK, pickWebhookBookingTypes } from "./sample.ts";

/** What a partner's booking needs of a discovered type. */
export function toSample(t: ControlProductType): SampleProductType {
  return {
    uuid: t.uuid,
    productUuid: t.productUuid,
    timeslotted: t.timeslots.length > 0,
    daysInAdvance: t.daysInAdvance,
    minPax: t.minPax,
    maxPax: t.maxPax,
    options: t.requiredOptions.map((o) => ({ uuid: o.uuid, type: o.type, required: true, values: o.values })),
  };
}

/** Creates a booking on the first bookable date from a few weeks out (the single-date check first, spec 4.2). */
export function book(client: ApiClient, type: SampleProductType, n: number, reference?: string): string | undefined {
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

export interface PublicApiWebhookSample {
  mode: "public-api";
  instant: SampleProductType;
  supplierDecided: SampleProductType;
}

export function setupPublicApi(config: K6Config): PublicApiWebhookSample {
  const discovered = discoverProductTypes(undefined, (i) => setupClient(config, i), WEBHOOKS_PUBLIC_API_WALK);
  const picked = pickWebhookBookingTypes(discovered.candidates);
  if (!picked) {
    throw new Error(
      `Failed to set up the webhooks scenario: among ${discovered.candidates.length} product types found by the ${discovered.via} there is no instant and no supplier-decided one without timeslots. Please use a larger catalogue.`,
    );
  }
  return { mode: "public-api", instant: toSample(picked.instant), supplierDecided: toSample(picked.supplierDecided) };
}

/** A confirm that failed leaves the booking reserved: cancel it, so the run holds no seat. */
function confirmOrRelease(client: ApiClient, uuid: string): boolean {
  if (checkResponse(client.confirmBooking(uuid))) return true;
  client.cancelBooking(uuid);
  return false;
}

type Flow = (client: ApiClient, sample: PublicApiWebhookSample, n: number) => void;

const FLOWS: readonly { key: "first" | "last"; flow: Flow }[] = [
  // instant confirmation, then a cancellation: reserved, approved, tickets, data (then cancelled: observed)
  {
    key: "first",
    flow: (client, sample, n) => {
      const uuid = book(client, sample.instant, n);
      if (uuid && confirmOrRelease(client, uuid)) checkResponse(client.cancelBooking(uuid));
    },
  },
  // the supplier decides: reserved, waiting (the decision and its vouchers: observed)
  {
    key: "first",
    flow: (client, sample, n) => {
      const uuid = book(client, sample.supplierDecided, n);
      if (uuid) confirmOrRelease(client, uuid);
    },
  },
  // cancelled while reserved: reserved, data (then cancelled: observed)
  {
    key: "first",
    flow: (client, sample, n) => {
      const uuid = book(client, sample.instant, n);
      if (uuid) checkResponse(client.cancelBooking(uuid));
    },
  },
  // the same with the last key, whose endpoint the misbehaving sink makes answer 410: nothing may follow
  {
    key: "last",
    flow: (client, sample, n) => {
      const uuid = book(client, sample.instant, n);
      if (uuid) checkResponse(client.cancelBooking(uuid));
    },
  },
];

export function publicApiIteration(config: K6Config, sample: PublicApiWebhookSample, n: number): void {
  const flows = config.apiKeys.length > 1 ? FLOWS : FLOWS.filter((f) => f.key === "first");
  const { key, flow } = flows[n % flows.length] as (typeof FLOWS)[number];
  flow(partnerClient(config, key === "first" ? 0 : config.apiKeys.length - 1), sample, n);
}
