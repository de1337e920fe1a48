/**
 * Proof that a registration made outside the harness works (a target without test hooks): the harness causes an
 * event itself (a reservation through the public API with the first key, cancelled at once so that it holds no seat)
 * and waits until a delivery reaches that key's endpoint. Before a registration by hand the service sends nowhere, so
 * the probe is repeated until one arrives or the wait is over. A probe whose `reserved` event arrived was made after
 * the registration took, so its events are the run's own and are expected like any other booking's. Whether a create
 * emits is the service's choice (docs/contract-freedoms.md, webhooks-event-on-create): a probe counts when any of its
 * events arrived, and its `reserved` is expected as optional, the cancellation's event as required.
 */
import { addDays, isRecord, todayUtc, type BookingRequest } from "../../contract/index.ts";
import { walkCatalogue, type BookableType } from "../hooks/catalogue-walk.ts";
import { PartnerApi, type PartnerCall, type PartnerAnswer } from "../hooks/partner-api.ts";
import type { EndpointName } from "../../contract/index.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import type { Delivery, Expectation } from "./types.ts";

/** A partner API whose calls go round the run's keys: the walk's GETs share one allowance per key. */
class SpreadApi extends PartnerApi {
  readonly #keys: readonly string[];
  #next = 0;
  constructor(baseUrl: string, keys: readonly string[]) {
    super(baseUrl, keys[0] ?? "");
    this.#keys = keys;
  }
  override send(endpoint: EndpointName, call: PartnerCall = {}): Promise<PartnerAnswer> {
    const key = this.#keys[this.#next++ % this.#keys.length];
    return super.send(endpoint, { ...call, ...(call.key === undefined && key !== undefined ? { key } : {}) });
  }
}

export interface ProbeOptions {
  apiUrl: string;
  keys: readonly string[];
  /** The sink's deliveries, read as they grow. */
  deliveries: readonly Delivery[];
  waitMs: number;
  /** How often a new probe is made while nothing arrived (a registration by hand takes its time). */
  repeatMs?: number;
  now?: () => number;
}

interface Probe {
  uuid: string;
  reservedAt: number;
  cancelledAt: number | undefined;
}

const POLL_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function requestFor(c: BookableType, n: number): BookingRequest {
  return {
    productTypeUuid: c.type.uuid,
    date: c.date,
    ...(c.timeslot === undefined ? {} : { timeslot: c.timeslot }),
    adults: Math.min(c.type.maxPax, c.type.minPax),
    customer: {
      firstName: "Webhook",
      lastName: "Probe",
      salutation: "Ms",
      email: "webhook.probe@example.com",
      phone: "+6560000000",
    },
    options: c.type.options
      .filter((o) => o.required)
      .map((o) => ({ uuid: o.uuid, value: o.type === "select" ? (o.values[0] ?? "") : "webhook probe" })),
    partnerReference: `atd-webhook-probe-${Date.now()}-${n}`,
  };
}

const failure = (why: string, please: string) =>
  new HarnessError(`Failed to prove the webhook registration: ${why}. Please ${please}.`, EXIT.usage);

/**
 * Makes probes until a delivery reaches endpoint 0 and returns the expectations of the probes whose events arrived; a
 * HarnessError (exit 2) when nothing arrived within waitMs.
 */
export async function proveRegistration(options: ProbeOptions): Promise<Expectation[]> {
  const now = options.now ?? Date.now;
  const first = options.keys[0];
  if (first === undefined) throw failure("the run has no API key", "pass --keys");
  const walk = await walkCatalogue(new SpreadApi(options.apiUrl, options.keys), todayUtc());
  const slot = walk.found[0];
  if (slot === undefined) {
    throw failure(
      `the public catalogue walk found no bookable product type (${walk.productsSeen} products, ${walk.typesSeen} types seen), so the harness could not cause an event`,
      "check that the keys can read the catalogue and that it has open dates",
    );
  }
  const api = new PartnerApi(options.apiUrl, first);
  const probes: Probe[] = [];
  const probe = async () => {
    const reservedAt = now();
    const created = await api.send("bookingCreate", { body: requestFor(slot, probes.length) });
    const uuid = isRecord(created.data) && typeof created.data.uuid === "string" ? created.data.uuid : undefined;
    if ((created.status !== 200 && created.status !== 201) || uuid === undefined) {
      throw failure(
        `a reservation of ${slot.type.uuid} on ${slot.date} with key #0 answered ${created.status}${created.errorCode === undefined ? "" : ` (${created.errorCode})`}, so the harness could not cause an event`,
        `check that key #0 can book (${addDays(todayUtc(), slot.type.daysInAdvance)} or later)`,
      );
    }
    const p: Probe = { uuid, reservedAt, cancelledAt: undefined };
    probes.push(p);
    // Cancelled at once: the probe must hold no seat (cancelling a reservation is free and allowed, spec 6).
    const at = now();
    const cancelled = await api.send("bookingCancel", { params: { uuid } });
    if (cancelled.status === 200) p.cancelledAt = at;
  };
  const started = now();
  const repeatMs = options.repeatMs ?? 10_000;
  let lastProbe = -Infinity;
  for (;;) {
    if (options.deliveries.some((d) => d.endpoint === 0)) break;
    if (now() - started >= options.waitMs) {
      throw failure(
        `no webhook reached the sink within ${Math.round(options.waitMs / 1000)} s of ${probes.length} reservations made with key #0`,
        "check that key #0's webhook URL is the sink's (printed above) and that the service can reach it (--webhook-listen 0.0.0.0:<port>, --webhook-url), or give the registration more time",
      );
    }
    if (now() - lastProbe >= repeatMs) {
      lastProbe = now();
      await probe();
      continue;
    }
    await sleep(POLL_MS);
  }
  return probeExpectations(probes, options.deliveries);
}

/**
 * The expectations of the probes whose events reached endpoint 0: a `reserved` that came shows the registration was
 * in place at the create, so the cancellation's event must follow; a cancellation's event alone, that it took between
 * the two (or that the create emits nothing).
 */
function probeExpectations(probes: readonly Probe[], deliveries: readonly Delivery[]): Expectation[] {
  const reached = deliveries.filter((d) => d.endpoint === 0);
  const reserved = new Set(
    reached.filter((d) => d.type === "booking_status_updated" && d.bookingStatus === "reserved").map((d) => d.resource),
  );
  const cancelled = new Set(reached.filter((d) => d.type === "booking_data_updated").map((d) => d.resource));
  const out: Expectation[] = [];
  for (const p of probes) {
    if (!reserved.has(p.uuid) && !cancelled.has(p.uuid)) continue;
    out.push({
      type: "booking_status_updated",
      status: "reserved",
      resource: p.uuid,
      key: 0,
      at: p.reservedAt,
      optional: true,
    });
    if (p.cancelledAt !== undefined) {
      out.push({ type: "booking_data_updated", resource: p.uuid, key: 0, at: p.cancelledAt });
    }
  }
  return out;
}
