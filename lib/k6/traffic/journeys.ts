/**
 * The four personas' journeys. Each is one iteration of one partner: a sequence of calls with think times between
 * them, where the model's conversion ratios decide how far it goes. expectedCallsPerJourney (model.ts) states what
 * these make on average; the unit tests hold the two together.
 */
import { sleep } from "k6";
import { addDays, todayUtc, type BookingRequest, type SelectedOption } from "../../contract/index.ts";
import type { ApiClient, ApiResponse, Json } from "../client.ts";
import { checkResponse } from "../checks.ts";
import { thinkSeconds } from "../metrics.ts";
import type { CatalogueSample, SampleProductType } from "./catalogue-sample.ts";
import { decide, spread } from "./decide.ts";
import { fullSync } from "./full-sync.ts";
import { amongProductTypes, onProductsPage, readListed } from "./listed-read.ts";
import type { Persona, TrafficModel } from "../../contract/traffic-model.ts";
import { BOOKER_LAST_DAY } from "../../contract/scenario-days.ts";

export interface JourneyContext {
  client: ApiClient;
  sample: CatalogueSample;
  model: TrafficModel;
  /** The iteration's number in the scenario: drives every decision, so a run is reproducible. */
  n: number;
  /** The persona walked, for the think-time series' tag (trafficScenario names it). */
  persona?: Persona;
}

/** Decision points: each place a journey decides gets its own sequence. */
const POINT = {
  calendar: 1,
  create: 2,
  confirm: 3,
  cancelReserved: 4,
  cancelConfirmed: 5,
  vouchers: 6,
  think: 7,
  fullSync: 8,
} as const;

let thinks = 0;
function think(ctx: JourneyContext): void {
  const { min, max } = ctx.model.thinkTimeSeconds;
  if (max <= 0) return;
  const seconds = min + (max - min) * spread(thinks++, POINT.think);
  // What `harness model check` compares with the model's think times.
  thinkSeconds.add(seconds, ctx.persona ? { persona: ctx.persona } : {});
  sleep(seconds);
}

export function at<T>(items: readonly T[], index: number): T | undefined {
  return items.length ? items[index % items.length] : undefined;
}

/** Back-office list filters, in turn. Every one matches the booking setup() made for each key. */
export function listFilter(n: number): Record<string, string> {
  const today = todayUtc();
  switch (n % 3) {
    case 0:
      return {};
    case 1:
      return { status: "reserved" };
    default:
      return { date_start: today, date_end: addDays(today, 60) };
  }
}

/** The products page a sync reads details of: read alone (incremental), or among every page (a full sync). */
function syncPage(ctx: JourneyContext, page: number): ApiResponse<Json[]> | undefined {
  const { client, model, n } = ctx;
  const sync = model.catalogueSync;
  if (decide(sync.fullSyncRatio, n, POINT.fullSync)) {
    const pages = fullSync(client, sync.pageSize);
    // A list shorter than the sample's: its last page.
    const chosen = pages[Math.min(page, pages.length) - 1];
    return chosen?.ok ? chosen.res : undefined;
  }
  const list = client.listProducts({ page, per_page: sync.pageSize });
  return checkResponse(list) ? list : undefined;
}

/**
 * Every product and product type a journey reads was listed a moment ago (or in setup) and may have been withdrawn
 * since: its reads take the contract's 404 not_found or 410 gone once its list confirms it (listed-read.ts).
 */
export function catalogueSync(ctx: JourneyContext): void {
  const { client, sample, model, n } = ctx;
  const sync = model.catalogueSync;
  const page = 1 + (n % sample.productPages);
  const list = syncPage(ctx, page);
  if (!list) return;
  for (let i = 0; i < sync.detailsPerPage; i++) {
    // itemAt reads one item of the page in Go, not the whole body: parsing a page costs k6 several requests' worth.
    const product = list.itemAt(n + i);
    if (!product) return;
    const uuid = String(product.uuid);
    const listed = onProductsPage(client, page, sync.pageSize, uuid);
    think(ctx);
    readListed(() => client.getProduct(uuid), listed);
    think(ctx);
    const types = readListed(() => client.listProductTypes(uuid), listed);
    const type = types?.itemAt(n);
    if (!type) continue;
    const typeUuid = String(type.uuid);
    const typeListed = amongProductTypes(client, uuid, typeUuid);
    think(ctx);
    readListed(() => client.getProductType(typeUuid), typeListed);
    if (decide(sync.calendarRefreshRatio, n * sync.detailsPerPage + i, POINT.calendar)) {
      const start = todayUtc();
      readListed(() => client.getPriceList(typeUuid, start, addDays(start, sync.calendarDays - 1)), typeListed);
    }
  }
}

export function shopper(ctx: JourneyContext): void {
  const { client, sample, model, n } = ctx;
  const type = at(sample.productTypes, n) as SampleProductType;
  const start = addDays(todayUtc(), type.daysInAdvance + 1);
  const listed = amongProductTypes(client, type.productUuid, type.uuid);
  const calendar = readListed(
    () => client.getPriceList(type.uuid, start, addDays(start, model.shopper.calendarDays - 1)),
    listed,
  );
  if (!calendar) return;
  // The available dates read in Go, not the price list parsed whole (unless its shape was sampled and parsed it).
  const dates = calendar.valuesWhere("available", "date").map(String);
  for (let i = 0; i < model.shopper.singleDateChecks; i++) {
    think(ctx);
    const date = at(dates, n + i) ?? addDays(start, i);
    readListed(() => client.getPriceForDate(type.uuid, date), listed);
  }
}

function chosenOptions(type: SampleProductType): SelectedOption[] {
  return type.options
    .filter((o) => o.required)
    .map((o) => ({ uuid: o.uuid, value: o.type === "select" ? (o.values[0] ?? "") : "load test" }));
}

export function firstAvailableTimeslot(single: Json): string | undefined {
  const slots = Array.isArray(single.timeslots) ? (single.timeslots as unknown[]) : [];
  for (const slot of slots) {
    if (typeof slot === "object" && slot !== null && (slot as Json).available === true)
      return String((slot as Json).timeslot);
  }
  return undefined;
}

export function bookingRequestFor(
  type: SampleProductType,
  date: string,
  timeslot: string | undefined,
  n: number,
): BookingRequest {
  return {
    productTypeUuid: type.uuid,
    date,
    ...(timeslot ? { timeslot } : {}),
    // The smallest party the type takes: a single-date answer says whether a slot is open, not how many seats are
    // left, so a larger party could be refused with a legitimate 422 once a slot is down to its last seat (long soaks
    // fill slots up), and no check could tell that from a service refusing bookings it should take.
    adults: Math.min(type.maxPax, type.minPax),
    customer: {
      firstName: "Load",
      lastName: `Tester${n % 1000}`,
      salutation: "Ms",
      email: `load.tester+${n}@example.com`,
      phone: "+6560000000",
    },
    options: chosenOptions(type),
    partnerReference: `atd-load-${n}`,
  };
}

export function booker(ctx: JourneyContext): void {
  const { client, sample, model, n } = ctx;
  const ratios = model.booker;
  const type = at(sample.productTypes, n * 7) as SampleProductType;
  const date = addDays(todayUtc(), type.daysInAdvance + 1 + (n % BOOKER_LAST_DAY));
  const single = readListed(
    () => client.getPriceForDate(type.uuid, date),
    amongProductTypes(client, type.productUuid, type.uuid),
  );
  if (single?.data?.available !== true) return;
  if (!decide(ratios.createRatio, n, POINT.create)) return;
  const timeslot = type.timeslotted ? firstAvailableTimeslot(single.data) : undefined;
  if (type.timeslotted && !timeslot) return;
  think(ctx);
  const created = client.createBooking(bookingRequestFor(type, date, timeslot, n));
  if (!checkResponse(created, [200, 201]) || !created.data) return;
  const uuid = String(created.data.uuid);
  think(ctx);
  if (decide(ratios.confirmRatio, n, POINT.confirm)) {
    if (!checkResponse(client.confirmBooking(uuid))) return;
    const booking = client.getBooking(uuid);
    // Only an approved booking can be cancelled; one waiting for the supplier cannot (docs/contract-gaps.md, Booking
    // states).
    const approved = checkResponse(booking) && booking.data?.status === "approved";
    if (approved && decide(ratios.cancelConfirmedRatio, n, POINT.cancelConfirmed))
      checkResponse(client.cancelBooking(uuid));
  } else if (decide(ratios.cancelReservedRatio, n, POINT.cancelReserved)) {
    checkResponse(client.cancelBooking(uuid));
  }
  // Otherwise the booking stays reserved and expires after five days: the abandoned cart.
}

export function backOffice(ctx: JourneyContext): void {
  const { client, model, n } = ctx;
  const list = client.listBookings({ ...listFilter(n), per_page: 10 });
  if (!checkResponse(list)) return;
  for (let i = 0; i < model.backOffice.detailsPerList; i++) {
    const booking = list.itemAt(n + i);
    if (!booking) return;
    think(ctx);
    checkResponse(client.getBooking(String(booking.uuid)));
    if (decide(model.backOffice.vouchersRatio, n * model.backOffice.detailsPerList + i, POINT.vouchers)) {
      checkResponse(client.listVouchers(String(booking.uuid)));
    }
  }
}

export const JOURNEYS: Readonly<Record<Persona, (ctx: JourneyContext) => void>> = {
  catalogueSync,
  shopper,
  booker,
  backOffice,
};
