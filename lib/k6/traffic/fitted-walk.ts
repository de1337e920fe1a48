/**
 * One session of a fitted persona (lib/contract/fitted-traffic.ts): the first call drawn from its `start`, each next
 * one from the row of the call before, until SESSION_END or MAX_FITTED_SESSION_CALLS calls, with a log-normal think
 * time between two calls. Every draw is a function of the iteration number and the call's index (decide.ts), so a
 * run is reproducible. Each step sends its endpoint with what the session has: products and product types from the catalogue
 * sample, dates from today and the type's advance days, bookings the session created (or listed, or the one setup made
 * for the key).
 *
 * A step whose prerequisite is missing is skipped, counted (atd_replay_skips per endpoint), and the walk goes on from
 * it as if it had been made: a confirm or cancel with no booking of the session to act on, a create with no single-date
 * answer that offers a slot, a booking read with no booking known, a voucher file (the file's link is not replayed).
 * Making one first instead would add calls the model did not ask for; skipping keeps the chain's shape and shows as
 * skips, which `harness model check` reports beside the mix.
 */
import { sleep } from "k6";
import { addDays, todayUtc, type EndpointName } from "../../contract/index.ts";
import { SESSION_END, type FittedPersona, type FittedTraffic } from "../../contract/fitted-traffic.ts";
import { MAX_FITTED_SESSION_CALLS } from "../../contract/fitted-traffic-mix.ts";
import { checkResponse } from "../checks.ts";
import type { ApiClient, Json } from "../client.ts";
import { replaySkips, sessions, thinkSeconds } from "../metrics.ts";
import type { CatalogueSample, SampleProductType } from "./catalogue-sample.ts";
import { pickAt, pickWeighted, scatter } from "./decide.ts";
import { at, bookingRequestFor, firstAvailableTimeslot, listFilter } from "./journeys.ts";
import { amongProductTypes, onProductsPage, readListed } from "./listed-read.ts";

/** The longest think time slept, seconds: a log-normal's tail would otherwise hold a VU past the run's end. */
export const MAX_THINK_SECONDS = 60;

/** Decision points of the walk (decide.ts): apart from the journeys' (1-8) and the persona's (0). */
const POINT = { next: 9, thinkRadius: 10, thinkAngle: 11, thinkImmediate: 12 } as const;

export interface WalkContext {
  client: ApiClient;
  sample: CatalogueSample;
  /** per_page of a products list the walk reads. */
  pageSize: number;
  /** The iteration's number in the scenario: drives every draw. */
  n: number;
  /** The reserved booking setup() made for the session's key, when it made one. */
  seedBooking: string | undefined;
}

interface Session extends WalkContext {
  persona: FittedPersona;
  /** The call's index in the session: draws of different calls differ. */
  step: number;
  /** Bookings the session created, newest last, with their last known status. */
  bookings: { uuid: string; status: string }[];
  /** Bookings the session's last bookings list named. */
  listed: string[];
  /** The session's last single-date answer, for a create that follows it. */
  lastDate: { type: SampleProductType; date: string; single: Json } | undefined;
}

/** A step sends its call and says true, or says false when its prerequisite is missing. */
type Step = (s: Session) => boolean;

const typeOf = (s: Session) => at(s.sample.productTypes, s.n + s.step) as SampleProductType;
const firstDate = (type: SampleProductType) => addDays(todayUtc(), type.daysInAdvance + 1);

function product(s: Session): { uuid: string; listed: () => boolean | undefined } {
  const uuid = at(s.sample.productUuids, s.n + s.step) as string;
  return { uuid, listed: onProductsPage(s.client, 1, s.sample.productUuids.length, uuid) };
}

/** A booking to read: the session's newest, else one its list named, else the key's seed booking. */
function knownBooking(s: Session): string | undefined {
  return s.bookings.at(-1)?.uuid ?? at(s.listed, s.n + s.step) ?? s.seedBooking;
}

function newestWith(s: Session, statuses: readonly string[]): { uuid: string; status: string } | undefined {
  return [...s.bookings].reverse().find((b) => statuses.includes(b.status));
}

const catalogueSteps: Partial<Record<EndpointName, Step>> = {
  products: (s) =>
    checkResponse(
      s.client.listProducts({ page: 1 + ((s.n + s.step) % s.sample.productPages), per_page: s.pageSize }),
    ) || true,
  product: (s) => {
    const p = product(s);
    readListed(() => s.client.getProduct(p.uuid), p.listed);
    return true;
  },
  productRestrictions: (s) => {
    const p = product(s);
    readListed(() => s.client.getProductRestrictions(p.uuid), p.listed);
    return true;
  },
  productTypes: (s) => {
    const p = product(s);
    readListed(() => s.client.listProductTypes(p.uuid), p.listed);
    return true;
  },
  productType: (s) => {
    const type = typeOf(s);
    readListed(() => s.client.getProductType(type.uuid), amongProductTypes(s.client, type.productUuid, type.uuid));
    return true;
  },
  priceList: (s) => {
    const type = typeOf(s);
    const start = firstDate(type);
    const listed = amongProductTypes(s.client, type.productUuid, type.uuid);
    readListed(() => s.client.getPriceList(type.uuid, start, addDays(start, 13)), listed);
    return true;
  },
  priceListDate: (s) => {
    const type = typeOf(s);
    const date = addDays(firstDate(type), (s.n + s.step) % 20);
    const listed = amongProductTypes(s.client, type.productUuid, type.uuid);
    const single = readListed(() => s.client.getPriceForDate(type.uuid, date), listed);
    s.lastDate = single?.data ? { type, date, single: single.data } : undefined;
    return true;
  },
  config: (s) => checkResponse(s.client.getConfig()) || true,
};

function createBooking(s: Session): boolean {
  const last = s.lastDate;
  if (last?.single.available !== true) return false;
  const timeslot = last.type.timeslotted ? firstAvailableTimeslot(last.single) : undefined;
  if (last.type.timeslotted && !timeslot) return false;
  const created = s.client.createBooking(bookingRequestFor(last.type, last.date, timeslot, s.n));
  if (checkResponse(created, [200, 201]) && created.data) {
    s.bookings.push({
      uuid: String(created.data.uuid),
      status: typeof created.data.status === "string" ? created.data.status : "reserved",
    });
  }
  // One slot, one booking: a second create in the session needs a new single-date answer.
  s.lastDate = undefined;
  return true;
}

const bookingSteps: Partial<Record<EndpointName, Step>> = {
  bookingCreate: createBooking,
  bookingConfirm: (s) => {
    const booking = newestWith(s, ["reserved"]);
    if (!booking) return false;
    const res = s.client.confirmBooking(booking.uuid);
    if (checkResponse(res)) booking.status = typeof res.data?.status === "string" ? res.data.status : "approved";
    return true;
  },
  bookingCancel: (s) => {
    // Only a reserved or approved booking can be cancelled (docs/contract-gaps.md, Booking states).
    const booking = newestWith(s, ["reserved", "approved"]);
    if (!booking) return false;
    if (checkResponse(s.client.cancelBooking(booking.uuid))) booking.status = "cancelled";
    return true;
  },
  booking: (s) => {
    const uuid = knownBooking(s);
    if (!uuid) return false;
    checkResponse(s.client.getBooking(uuid));
    return true;
  },
  bookings: (s) => {
    const list = s.client.listBookings({ ...listFilter(s.n + s.step), per_page: 10 });
    if (checkResponse(list)) {
      s.listed = [0, 1, 2].flatMap((i) => {
        const item = list.itemAt(i);
        return item ? [String(item.uuid)] : [];
      });
    }
    return true;
  },
  vouchers: (s) => {
    const uuid = knownBooking(s);
    if (!uuid) return false;
    checkResponse(s.client.listVouchers(uuid));
    return true;
  },
};

const STEPS: Partial<Record<EndpointName, Step>> = { ...catalogueSteps, ...bookingSteps };

/**
 * The persona's think time: none for its share of back-to-back calls (immediateShare), else a log-normal draw
 * (Box-Muller on two scattered points), capped.
 */
export function thinkTimeOf(persona: FittedPersona, n: number, step: number): number {
  if (scatter(n, step, POINT.thinkImmediate) < (persona.thinkTime.immediateShare ?? 0)) return 0;
  const radius = Math.sqrt(-2 * Math.log(1 - scatter(n, step, POINT.thinkRadius)));
  const z = radius * Math.cos(2 * Math.PI * scatter(n, step, POINT.thinkAngle));
  return Math.min(MAX_THINK_SECONDS, Math.exp(persona.thinkTime.mu + persona.thinkTime.sigma * z));
}

/** The persona of the n-th session: by share, evenly spread over n (the built-in personas' pick, decide.ts). */
export function fittedPersonaOf(fitted: FittedTraffic, n: number): FittedPersona {
  const shares = Object.fromEntries(fitted.personas.map((p, i) => [String(i), p.share]));
  return fitted.personas[Number(pickWeighted(shares, n))] as FittedPersona;
}

/** Walks one session of the n-th iteration's persona. */
export function walkFittedSession(fitted: FittedTraffic, ctx: WalkContext): void {
  const persona = fittedPersonaOf(fitted, ctx.n);
  sessions.add(1, { persona: persona.name });
  const s: Session = { ...ctx, persona, step: 0, bookings: [], listed: [], lastDate: undefined };
  // The first call evenly spread over sessions (as the persona); the next ones scattered, each independent of the last.
  let endpoint: string = pickWeighted(persona.start as Record<string, number>, ctx.n, POINT.next);
  while (s.step < MAX_FITTED_SESSION_CALLS) {
    const step = STEPS[endpoint as EndpointName];
    if (!step?.(s)) replaySkips.add(1, { endpoint });
    s.step += 1;
    const row = (persona.transitions[endpoint as EndpointName] ?? { [SESSION_END]: 1 }) as Record<string, number>;
    endpoint = pickAt(row, scatter(ctx.n, s.step, POINT.next));
    if (endpoint === SESSION_END) return;
    const seconds = thinkTimeOf(persona, ctx.n, s.step);
    thinkSeconds.add(seconds, { persona: persona.name });
    sleep(seconds);
  }
}
