/**
 * The partner traffic model, as data: personas with weights, and for each the shape of its journey (how many calls,
 * conversion ratios, think times). The defaults below are the project's reading of how distribution partners use
 * an activities API; a JSON file (--traffic) can override any part of it. The harness merges the override once and
 * writes the whole model as the run directory's traffic.json (TRAFFIC_FILE), which k6 reads as is (ATD_TRAFFIC_FILE).
 *
 * Why these defaults:
 * - Most calls come from browsing, few from booking: look-to-book ratios in travel distribution are in the hundreds,
 *   so shoppers dominate and bookers are a small share of iterations (but each booker iteration makes several calls).
 * - Catalogue sync partners mirror the catalogue into their own store: they page through products with a large page
 *   size and read details, product types and calendars of what changed; a steady but smaller share. Most syncs are
 *   incremental (one page); one in ten is a full sync that walks every page first (at most MAX_SYNC_PAGES), and its
 *   pages must add up (spec 4.3), or the partner's copy silently misses a product.
 * - Back offices (customer service tools) list bookings by filters and open details and vouchers: a small share.
 * - Bookers always check the single date first (required practice, spec 4.2), most go on to create, most created
 *   bookings are confirmed, some are cancelled, and some are left reserved to expire (abandoned carts).
 */
import { SettingsError, type EndpointName } from "./index.ts";
import type { FittedTraffic } from "./fitted-traffic.ts";
import { fittedProblem } from "./fitted-traffic-check.ts";

/** The merged model's file in the run directory, read as is by every k6 process of the run. */
export const TRAFFIC_FILE = "traffic.json";

export const PERSONAS = ["catalogueSync", "shopper", "booker", "backOffice"] as const;
export type Persona = (typeof PERSONAS)[number];

export interface TrafficModel {
  /** Relative weights of the personas among iterations. */
  weights: Record<Persona, number>;
  /** Personas fitted from access logs (`harness model fit`): when present, partner-mix walks these instead. */
  fitted?: FittedTraffic;
  /** Seconds of think time between two calls of a journey, drawn evenly from [min, max]. */
  thinkTimeSeconds: { min: number; max: number };
  catalogueSync: {
    /** per_page of the products list the sync pages through. */
    pageSize: number;
    /** Products of the page whose detail and product types are read. */
    detailsPerPage: number;
    /** Share of synced product types whose price calendar is refreshed. */
    calendarRefreshRatio: number;
    /** Days of the refreshed calendar. */
    calendarDays: number;
    /**
     * Share of syncs that are full: they walk the products list page by page (at most MAX_SYNC_PAGES pages) before
     * reading details of one of its pages; the others read that one page (an incremental sync).
     */
    fullSyncRatio: number;
  };
  shopper: {
    /** Days of the calendar a shopper looks at. */
    calendarDays: number;
    /** Single-date checks after the calendar. */
    singleDateChecks: number;
  };
  booker: {
    /** Share of single-date checks (with availability) that go on to create a booking. */
    createRatio: number;
    /** Share of created bookings that are confirmed. */
    confirmRatio: number;
    /** Share of created, unconfirmed bookings that are cancelled while reserved (the rest are left to expire). */
    cancelReservedRatio: number;
    /** Share of confirmed bookings that are cancelled afterwards (those approved at once; waiting ones cannot be). */
    cancelConfirmedRatio: number;
  };
  backOffice: {
    /** Booking details opened per list. */
    detailsPerList: number;
    /** Share of opened bookings whose vouchers are listed. */
    vouchersRatio: number;
  };
}

export const DEFAULT_TRAFFIC_MODEL: TrafficModel = {
  weights: { catalogueSync: 0.15, shopper: 0.6, booker: 0.15, backOffice: 0.1 },
  thinkTimeSeconds: { min: 0, max: 0.5 },
  catalogueSync: { pageSize: 50, detailsPerPage: 2, calendarRefreshRatio: 0.5, calendarDays: 30, fullSyncRatio: 0.1 },
  shopper: { calendarDays: 14, singleDateChecks: 2 },
  booker: { createRatio: 0.8, confirmRatio: 0.75, cancelReservedRatio: 0.2, cancelConfirmedRatio: 0.1 },
  backOffice: { detailsPerList: 2, vouchersRatio: 0.5 },
};

/** The most pages a full sync walks, whatever the catalogue's size: a bound on one iteration's requests. */
export const MAX_SYNC_PAGES = 20;

export type CallCounts = Partial<Record<EndpointName, number>>;

/** Pages a full sync walks through a products list of `products` items. */
export function syncPages(model: TrafficModel, products: number): number {
  return Math.min(MAX_SYNC_PAGES, Math.max(1, Math.ceil(products / Math.max(1, model.catalogueSync.pageSize))));
}

/**
 * Calls each persona's journey makes on average per iteration, when every lookup finds what it looks for, for a
 * catalogue of `products` products (a full sync walks its pages).
 */
export function expectedCallsPerJourney(model: TrafficModel, products: number): Record<Persona, CallCounts> {
  const c = model.catalogueSync;
  const b = model.booker;
  const created = b.createRatio;
  const confirmed = created * b.confirmRatio;
  return {
    catalogueSync: {
      products: 1 + c.fullSyncRatio * (syncPages(model, products) - 1),
      product: c.detailsPerPage,
      productTypes: c.detailsPerPage,
      productType: c.detailsPerPage,
      priceList: c.detailsPerPage * c.calendarRefreshRatio,
    },
    shopper: { priceList: 1, priceListDate: model.shopper.singleDateChecks },
    booker: {
      priceListDate: 1,
      bookingCreate: created,
      bookingConfirm: confirmed,
      booking: confirmed,
      bookingCancel: (created - confirmed) * b.cancelReservedRatio + confirmed * b.cancelConfirmedRatio,
    },
    backOffice: {
      bookings: 1,
      booking: model.backOffice.detailsPerList,
      vouchers: model.backOffice.detailsPerList * model.backOffice.vouchersRatio,
    },
  };
}

/** The share of all calls each endpoint should get under the model, for a catalogue of `products` products. */
export function expectedEndpointMix(model: TrafficModel, products: number): CallCounts {
  const perJourney = expectedCallsPerJourney(model, products);
  const totalWeight = Object.values(model.weights).reduce((a, b) => a + b, 0);
  const calls: CallCounts = {};
  for (const persona of PERSONAS) {
    const share = model.weights[persona] / totalWeight;
    for (const [endpoint, n] of Object.entries(perJourney[persona]) as [EndpointName, number][]) {
      calls[endpoint] = (calls[endpoint] ?? 0) + share * n;
    }
  }
  const total = Object.values(calls).reduce((a, b) => a + b, 0);
  return Object.fromEntries(Object.entries(calls).map(([e, n]) => [e, n / total]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Applies an override (parsed JSON) to the model; refuses unknown keys and values that are not numbers >= 0. A
 * `fitted` section is taken whole, once fitted-traffic-check.ts finds nothing wrong with it.
 */
export function mergeTrafficModel(base: TrafficModel, override: unknown, where: string): TrafficModel {
  const fail = (path: string, why: string): never => {
    throw new SettingsError(
      `Failed to read the traffic model ${where}: ${path} ${why}. Please see lib/contract/traffic-model.ts.`,
    );
  };
  const merge = (target: Record<string, unknown>, patch: unknown, path: string): Record<string, unknown> => {
    if (!isRecord(patch)) return fail(path, "is not an object");
    const out = { ...target };
    for (const [key, value] of Object.entries(patch)) {
      // Own keys only: "valueOf" or "__proto__" is in every object, and is no setting of the model.
      const current = Object.hasOwn(target, key) ? target[key] : undefined;
      if (current === undefined) fail(`${path}.${key}`, "is not a setting of the model");
      if (isRecord(current)) out[key] = merge(current, value, `${path}.${key}`);
      else if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
        fail(`${path}.${key}`, "must be a number >= 0");
      else out[key] = value;
    }
    return out;
  };
  const { fitted, ...rest } = isRecord(override) ? override : { fitted: undefined };
  const merged = merge(
    base as unknown as Record<string, unknown>,
    isRecord(override) ? rest : override,
    "model",
  ) as unknown as TrafficModel;
  if (fitted !== undefined) {
    const problem = fittedProblem(fitted);
    if (problem) fail(`model.fitted${problem.path}`, problem.why);
    merged.fitted = fitted as FittedTraffic;
  }
  const ratios: [string, number][] = [
    ["catalogueSync.calendarRefreshRatio", merged.catalogueSync.calendarRefreshRatio],
    ["catalogueSync.fullSyncRatio", merged.catalogueSync.fullSyncRatio],
    ["booker.createRatio", merged.booker.createRatio],
    ["booker.confirmRatio", merged.booker.confirmRatio],
    ["booker.cancelReservedRatio", merged.booker.cancelReservedRatio],
    ["booker.cancelConfirmedRatio", merged.booker.cancelConfirmedRatio],
    ["backOffice.vouchersRatio", merged.backOffice.vouchersRatio],
  ];
  for (const [path, value] of ratios) if (value > 1) fail(`model.${path}`, "is a ratio and must be at most 1");
  if (Object.values(merged.weights).every((w) => w === 0)) fail("model.weights", "are all 0");
  if (merged.thinkTimeSeconds.min > merged.thinkTimeSeconds.max) fail("model.thinkTimeSeconds", "has min > max");
  return merged;
}
