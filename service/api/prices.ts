/** Price calendar and the single-date result (spec 2.5, 2.6, 4.2): computed from live inventory, never cached. */
import { PRICE_CALENDAR_MAX_MONTHS } from "../../lib/contract/index.ts";
import type { ProductType } from "../catalogue.ts";
import { addMonths, formatDay, parseDay, weekday } from "../dates.ts";
import { badRequest, link, type Reply } from "../http.ts";
import { renderOptions, renderPrices } from "../render.ts";
import type { ServiceState } from "../state.ts";
import { findProductType } from "./catalogue.ts";
import { param, type ApiContext } from "./context.ts";
import { listEnvelope, parsePage, requiredDay } from "./params.ts";

const NO_STORE = { "Cache-Control": "no-store" };

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

function entry(state: ServiceState, t: ProductType, day: number, withValidity: boolean): Record<string, unknown> {
  const open = dayOpen(state, t, day);
  const date = formatDay(day);
  let available = false;
  const timeslots: { timeslot: string; available: boolean; remaining: number }[] = [];
  if (t.timeslots.length > 0) {
    for (let i = 0; i < t.timeslots.length; i++) {
      const remaining = open ? state.inventory.remaining(t, day, i) : 0;
      if (remaining > 0) available = true;
      timeslots.push({ timeslot: t.timeslots[i] ?? "", available: remaining > 0, remaining });
    }
  } else {
    available = open && state.inventory.remaining(t, day, 0) > 0;
  }
  const result: Record<string, unknown> = {
    date,
    weekday: weekday(day),
    available,
    currency: t.product.city.currency,
    prices: renderPrices(t),
    timeslots,
    options: renderOptions(t),
  };
  if (withValidity) {
    const validity = { validFrom: date, validUntil: formatDay(day + 30) };
    const voucherValidity: Record<string, unknown> = { adults: validity };
    if (t.allowChildren) voucherValidity.children = validity;
    if (t.allowSeniors) voucherValidity.seniors = validity;
    result.voucherValidity = voucherValidity;
  }
  result.links = [
    link("self", `/v2/product-types/${t.uuid}/price-lists/${date}`),
    link("product-type", `/v2/product-types/${t.uuid}`),
    link("book", "/v2/bookings", "POST"),
  ];
  return result;
}

export function priceList(ctx: ApiContext): Reply {
  const start = requiredDay(ctx.query, "date_start");
  const end = requiredDay(ctx.query, "date_end");
  if (end < start) throw badRequest("date_end must not be before date_start.");
  if (end > addMonths(start, PRICE_CALENDAR_MAX_MONTHS)) {
    throw badRequest(`date_start and date_end must be at most ${PRICE_CALENDAR_MAX_MONTHS} months apart.`);
  }
  const t = findProductType(ctx.state, param(ctx, "uuid"));
  const total = end - start + 1;
  const page = ctx.query.has("page") || ctx.query.has("per_page") ? parsePage(ctx.query) : { page: 1, perPage: total };
  const body = listEnvelope(ctx.path, ctx.query, total, page, (s, e) => {
    const out: Record<string, unknown>[] = [];
    for (let i = s; i < e; i++) out.push(entry(ctx.state, t, start + i, false));
    return out;
  });
  return { status: 200, body, headers: NO_STORE };
}

export function priceListDate(ctx: ApiContext): Reply {
  const raw = param(ctx, "date");
  const day = parseDay(raw);
  if (day === undefined) throw badRequest(`date must be in the format YYYY-MM-DD, got "${raw}".`);
  const t = findProductType(ctx.state, param(ctx, "uuid"));
  return {
    status: 200,
    body: { data: entry(ctx.state, t, day, true), links: [link("self", ctx.path)] },
    headers: NO_STORE,
  };
}
