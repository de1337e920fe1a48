/** Price calendar and the single-date result (spec 2.5, 2.6, 4.2): computed from live inventory, never cached. */
import { PRICE_CALENDAR_MAX_MONTHS } from "../../lib/contract/index.ts";
import type { ProductType } from "../../lib/reference/catalogue.ts";
import { staleSingleDate } from "../defects/conformance-single-date-stale.ts";
import { addMonths, formatDay, parseDay, weekday } from "../../lib/reference/dates.ts";
import { badRequest, link, type Reply } from "../http.ts";
import { uuidFrom } from "../../lib/reference/rng.ts";
import { renderOptions, renderPrices } from "../render.ts";
import type { ServiceState } from "../state.ts";
import { findProductType } from "./catalogue.ts";
import { param, type ApiContext } from "./context.ts";
import { defaultPerPage, listEnvelope, parsePage, requiredDay } from "./params.ts";

const NO_STORE = { "Cache-Control": "no-store" };

/** conformance-single-date-cacheable: what a cache in front of the service would keep for five minutes. */
function cacheable(): Record<string, string> {
  return { "Cache-Control": "public, max-age=300", Expires: new Date(Date.now() + 300_000).toUTCString() };
}

/** Whether a new booking can be made for the day at all (before capacity): lead time and validity. */
export function dayOpen(state: ServiceState, t: ProductType, day: number): boolean {
  return (
    t.available &&
    t.product.available &&
    day >= state.today() + t.daysInAdvance &&
    day >= t.product.validFrom &&
    day <= t.product.validThrough
  );
}

/**
 * A slot's seats; under conformance-single-date-ignores-supplier the single-date result (`single`) counts the
 * seeded seats of a slot no booking holds, whatever the supplier set since.
 */
function remainingOf(state: ServiceState, t: ProductType, day: number, ts: number, single: boolean): number {
  if (single && state.defects.on("conformance-single-date-ignores-supplier") && !state.inventory.peek(t, day, ts)?.held)
    return state.inventory.seededSupply(t, day, ts);
  return state.inventory.remaining(t, day, ts);
}

function entry(state: ServiceState, t: ProductType, day: number, withValidity: boolean): Record<string, unknown> {
  const open = dayOpen(state, t, day);
  const date = formatDay(day);
  let available = false;
  /** The day's free seats, over its timeslots (conformance-single-date-has-remaining). */
  let seats = 0;
  const timeslots: { timeslot: string; available: boolean; remaining: number }[] = [];
  if (t.timeslots.length > 0) {
    for (let i = 0; i < t.timeslots.length; i++) {
      const remaining = open ? remainingOf(state, t, day, i, withValidity) : 0;
      if (remaining > 0) available = true;
      seats += remaining;
      const timeslot = t.timeslots[i] ?? "";
      // conformance-timeslot-seconds: the calendar's (withValidity false) timeslots as HH:MM:SS.
      const written = !withValidity && state.defects.on("conformance-timeslot-seconds") ? `${timeslot}:00` : timeslot;
      timeslots.push({ timeslot: written, available: remaining > 0, remaining });
    }
  } else {
    seats = open ? remainingOf(state, t, day, 0, withValidity) : 0;
    available = seats > 0;
  }
  // conformance-single-date-available-by-timeslots: the single-date result takes listed timeslots for availability.
  if (withValidity && timeslots.length > 0 && state.defects.on("conformance-single-date-available-by-timeslots"))
    available = true;
  const defects = state.defects;
  // The calendar's defects (withValidity false): the single-date result stays right.
  const calendar = !withValidity;
  const result: Record<string, unknown> = {
    date,
    weekday: weekday(calendar && defects.on("conformance-weekday-mismatch") ? day + 1 : day),
    available,
    currency: t.product.city.currency,
    prices: defects.on("conformance-price-as-number") ? numericPrices(t) : renderPrices(t),
    timeslots:
      calendar && available && timeslots.length > 0 && defects.on("conformance-available-without-timeslots")
        ? []
        : calendar && defects.on("conformance-calendar-timeslots-bare")
          ? bareTimeslots(t, timeslots)
          : timeslots,
    options: renderOptions(t),
  };
  // conformance-calendar-has-voucher-validity: the calendar's entries carry the single-date result's voucherValidity.
  if (withValidity || (calendar && defects.on("conformance-calendar-has-voucher-validity"))) {
    const validity = { validFrom: date, validUntil: formatDay(day + 30) };
    const voucherValidity: Record<string, unknown> = { adults: validity };
    if (t.allowChildren) voucherValidity.children = validity;
    if (t.allowSeniors) voucherValidity.seniors = validity;
    result.voucherValidity = defects.on("conformance-voucher-validity-flat") ? validity : voucherValidity;
  }
  if (withValidity && defects.on("conformance-single-date-has-remaining")) result.remaining = seats;
  result.links = [
    link("self", `/v2/product-types/${t.uuid}/price-lists/${date}`),
    link("product-type", `/v2/product-types/${t.uuid}`),
    link("book", "/v2/bookings", "POST"),
  ];
  return result;
}

/** conformance-calendar-timeslots-bare: each timeslot as {uuid, timeslot}, without available and remaining. */
function bareTimeslots(t: ProductType, timeslots: readonly { timeslot: string }[]): Record<string, unknown>[] {
  return timeslots.map((s, i) => ({ uuid: uuidFrom(t.index, 77, i), timeslot: s.timeslot }));
}

/** Prices as JSON numbers (conformance-price-as-number). */
function numericPrices(t: ProductType): Record<string, number> {
  const prices: Record<string, number> = {};
  for (const [group, text] of Object.entries(renderPrices(t))) prices[group] = Number(text);
  return prices;
}

/** A calendar bound; under conformance-price-list-range-optional a missing one defaults (today, 30 days on). */
function rangeDay(ctx: ApiContext, name: "date_start" | "date_end", fallback: () => number): number {
  const raw = ctx.query.get(name);
  if ((raw === null || raw === "") && ctx.state.defects.on("conformance-price-list-range-optional")) return fallback();
  // conformance-date-day-first-accepted: DD-MM-YYYY read as the day it names.
  const dayFirst = raw === null ? null : /^(\d{2})-(\d{2})-(\d{4})$/.exec(raw);
  if (dayFirst && ctx.state.defects.on("conformance-date-day-first-accepted")) {
    const day = parseDay(`${dayFirst[3]}-${dayFirst[2]}-${dayFirst[1]}`);
    if (day !== undefined) return day;
  }
  return requiredDay(ctx.query, name);
}

/** The calendar's product type; under conformance-withdrawn-type-calendar-served a withdrawn one too (no 410). */
function calendarType(ctx: ApiContext): ProductType {
  const t = ctx.state.catalogue.productTypesByUuid.get(param(ctx, "uuid"));
  if (t !== undefined && ctx.state.defects.on("conformance-withdrawn-type-calendar-served")) return t;
  return findProductType(ctx.state, param(ctx, "uuid"));
}

export function priceList(ctx: ApiContext): Reply {
  const start = rangeDay(ctx, "date_start", () => ctx.state.today());
  const end = rangeDay(ctx, "date_end", () => start + 30);
  if (end < start) throw badRequest("date_end must not be before date_start.");
  const months = ctx.state.defects.on("conformance-price-list-beyond-six-months") ? 12 : PRICE_CALENDAR_MAX_MONTHS;
  if (end > addMonths(start, months)) {
    throw badRequest(`date_start and date_end must be at most ${PRICE_CALENDAR_MAX_MONTHS} months apart.`);
  }
  const t = calendarType(ctx);
  // conformance-calendar-drops-last-day: date_end taken as exclusive when the range is longer than a day.
  const total = end - start + (end > start && ctx.state.defects.on("conformance-calendar-drops-last-day") ? 0 : 1);
  // Without page and per_page the whole range on one page; paged like the other lists under lists-default-page-size.
  const paged =
    ctx.query.has("page") || ctx.query.has("per_page") || ctx.state.variations.on("lists-default-page-size");
  const page = paged ? parsePage(ctx.query, defaultPerPage(ctx.state)) : { page: 1, perPage: total };
  const body = listEnvelope(ctx.path, ctx.query, total, page, (s, e) => {
    const out: Record<string, unknown>[] = [];
    // conformance-calendar-dates-descending: the range served latest date first.
    const backwards = ctx.state.defects.on("conformance-calendar-dates-descending");
    for (let i = s; i < e; i++) out.push(entry(ctx.state, t, backwards ? start + total - 1 - i : start + i, false));
    return out;
  });
  return { status: 200, body, headers: NO_STORE };
}

export function priceListDate(ctx: ApiContext): Reply {
  const raw = param(ctx, "date");
  const day = parseDay(raw);
  if (day === undefined) throw badRequest(`date must be in the format YYYY-MM-DD, got "${raw}".`);
  const t = findProductType(ctx.state, param(ctx, "uuid"));
  const compute = () => entry(ctx.state, t, day, true);
  const data = ctx.state.defects.on("conformance-single-date-stale")
    ? staleSingleDate(ctx.state, `${t.uuid}/${day}`, compute)
    : compute();
  return {
    status: 200,
    body: { data, links: [link("self", ctx.path)] },
    headers: ctx.state.defects.on("conformance-single-date-cacheable") ? cacheable() : NO_STORE,
  };
}
