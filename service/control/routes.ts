/** Control routes over inventory, catalogue changes, bookings (supplier side) and the event ledger. */
import { INVENTORY_RANGE_MAX_DAYS, isRecord, WEBHOOK_EVENT_TYPES } from "../../lib/contract/index.ts";
import { bookingDetail } from "../api/bookings.ts";
import type { Product, ProductType } from "../../lib/reference/catalogue.ts";
import { formatDay, parseDay } from "../../lib/reference/dates.ts";
import { badRequest, defineRoute, notFound, type Route } from "../http.ts";
import { CATEGORY_NAMES, categoriesOf, type Caps } from "../../lib/reference/inventory.ts";
import type { ServiceState } from "../state.ts";
import { ok, type ControlHandler, type ControlContext } from "./control-handler.ts";

function productType(state: ServiceState, uuid: string | undefined): ProductType {
  const t = state.catalogue.productTypesByUuid.get(uuid ?? "");
  if (t === undefined) throw notFound(`Product type ${uuid ?? ""} was not found.`);
  return t;
}

function product(state: ServiceState, uuid: string | undefined): Product {
  const p = state.catalogue.productsByUuid.get(uuid ?? "");
  if (p === undefined) throw notFound(`Product ${uuid ?? ""} was not found.`);
  return p;
}

function day(text: string | null | undefined, name: string): number {
  const d = parseDay(text ?? "");
  if (d === undefined) throw badRequest(`${name} must be a date YYYY-MM-DD.`);
  return d;
}

function slotView(state: ServiceState, t: ProductType, d: number, i: number) {
  const stored = state.inventory.peek(t, d, i);
  const supply = stored?.supply ?? state.inventory.seededSupply(t, d, i);
  const held = stored?.held ?? 0;
  return { remaining: Math.max(0, supply - held), supply, held, caps: stored?.caps };
}

/** One day as GET /__control/inventory answers it (InventoryDay of docs/test-hooks.openapi.yaml). */
function dayView(state: ServiceState, t: ProductType, d: number) {
  const open =
    t.available &&
    t.product.available &&
    d >= state.today() + t.daysInAdvance &&
    d >= t.product.validFrom &&
    d <= t.product.validThrough;
  if (t.timeslots.length === 0) {
    const s = slotView(state, t, d, 0);
    return { date: formatDay(d), open, ...s, remaining: open ? s.remaining : 0 };
  }
  const timeslots = t.timeslots.map((timeslot, i) => {
    const s = slotView(state, t, d, i);
    return { timeslot, ...s, remaining: open ? s.remaining : 0 };
  });
  return {
    date: formatDay(d),
    open,
    remaining: timeslots.reduce((sum, s) => sum + s.remaining, 0),
    timeslots,
  };
}

function parseCaps(value: unknown): Caps | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw badRequest("caps must be an object {adults?, children?, seniors?}.");
  const caps: Caps = {};
  for (const [k, v] of Object.entries(value)) {
    // A key the document does not name is ignored, as everywhere (the hooks-unknown-keys-refused variation refuses it).
    if (!(CATEGORY_NAMES as readonly string[]).includes(k)) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw badRequest(`caps.${k} must be an integer >= 0.`);
    caps[k as keyof Caps] = v;
  }
  return caps;
}

function text(body: Record<string, unknown>, name: string): string | undefined {
  const v = body[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.trim() === "") throw badRequest(`${name} must be a non-empty string.`);
  return v;
}

function flag(body: Record<string, unknown>, name: string): boolean | undefined {
  const v = body[name];
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") throw badRequest(`${name} must be a boolean.`);
  return v;
}

interface BookingChange {
  decision?: "approve" | "reject";
  data?: { customer?: Record<string, string>; partnerReference?: string | null };
}

/** The body of PUT /__control/bookings/{uuid}, checked whole (400 on the first thing wrong). */
function bookingChange(body: Record<string, unknown>): BookingChange {
  const change: BookingChange = {};
  if (body.decision !== undefined) {
    if (body.decision !== "approve" && body.decision !== "reject") throw badRequest("decision is approve or reject.");
    change.decision = body.decision;
  }
  flag(body, "approveCancellation");
  flag(body, "reissueVouchers");
  if (body.customer !== undefined || body.partnerReference !== undefined) {
    const data: NonNullable<BookingChange["data"]> = {};
    if (body.customer !== undefined) {
      if (!isRecord(body.customer) || !Object.values(body.customer).every((v) => typeof v === "string")) {
        throw badRequest("customer must be an object of strings.");
      }
      data.customer = body.customer as Record<string, string>;
    }
    if (body.partnerReference !== undefined) {
      if (typeof body.partnerReference !== "string" && body.partnerReference !== null) {
        throw badRequest("partnerReference must be a string or null.");
      }
      data.partnerReference = body.partnerReference;
    }
    change.data = data;
  }
  return change;
}

function allPartners(state: ServiceState) {
  return [...state.partners.values()].filter((p) => p.webhookUrl !== null);
}

/** Whether `available` set to the value it has emits its event all the same (docs/contract-freedoms.md). */
function emitsUnchanged(state: ServiceState): boolean {
  return state.variations.on("webhooks-event-on-unchanged-availability");
}

function booking(ctx: ControlContext) {
  const b = ctx.state.bookings.store.byUuid.get(ctx.params.uuid ?? "");
  if (b === undefined) throw notFound("Booking not found.");
  return b;
}

export const extraControlRoutes: Route<ControlHandler>[] = [
  defineRoute("productTypes", "/__control/product-types", {
    // Discovery for tests: product types filtered by kind, e.g. ?timeslotted=true&instant=false&limit=5
    GET: ({ state, query }) => {
      const want = (name: string) => (query.has(name) ? query.get(name) === "true" : undefined);
      const timeslotted = want("timeslotted");
      const instant = want("instant");
      const children = want("children");
      const limit = Math.min(1000, Number(query.get("limit") ?? "100") || 100);
      const out: Record<string, unknown>[] = [];
      for (const t of state.catalogue.productTypes) {
        if (timeslotted !== undefined && t.timeslots.length > 0 !== timeslotted) continue;
        if (instant !== undefined && t.instantConfirmation !== instant) continue;
        if (children !== undefined && t.allowChildren !== children) continue;
        out.push({
          uuid: t.uuid,
          productUuid: t.product.uuid,
          available: t.available,
          timeslots: t.timeslots,
          instantConfirmation: t.instantConfirmation,
          daysInAdvance: t.daysInAdvance,
          minPax: t.minPax,
          maxPax: t.maxPax,
          categories: categoriesOf(t),
          requiredOptions: t.options
            .filter((o) => o.required)
            .map((o) => ({ uuid: o.uuid, type: o.type, values: o.values.map((v) => v.uuid) })),
        });
        if (out.length >= limit) break;
      }
      return ok(out);
    },
  }),
  defineRoute("inventory", "/__control/inventory/{uuid}", {
    GET: ({ state, params, query }) => {
      const t = productType(state, params.uuid);
      const start = day(query.get("date_start"), "date_start");
      const end = day(query.get("date_end"), "date_end");
      if (end < start || end - start > INVENTORY_RANGE_MAX_DAYS) {
        throw badRequest(`date_end must be from date_start to ${INVENTORY_RANGE_MAX_DAYS} days after it.`);
      }
      const days = [];
      for (let d = start; d <= end; d++) days.push(dayView(state, t, d));
      return ok({ productTypeUuid: t.uuid, timeslotted: t.timeslots.length > 0, categories: categoriesOf(t), days });
    },
  }),
  defineRoute("inventoryDay", "/__control/inventory/{uuid}/{date}", {
    PUT: ({ state, params, body }) => {
      const t = productType(state, params.uuid);
      const d = day(params.date, "date");
      const remaining = body.remaining;
      if (remaining !== undefined && (typeof remaining !== "number" || !Number.isInteger(remaining) || remaining < 0)) {
        throw badRequest("remaining must be an integer >= 0 (the supplier's free seats for the slot).");
      }
      const caps = body.caps === undefined ? undefined : parseCaps(body.caps);
      const timeslot = text(body, "timeslot");
      let indexes: number[];
      if (t.timeslots.length === 0) {
        if (timeslot !== undefined) throw badRequest("This product type has no timeslots.");
        indexes = [0];
      } else if (timeslot === undefined) {
        indexes = t.timeslots.map((_, i) => i);
      } else {
        const i = t.timeslots.indexOf(timeslot);
        if (i === -1) throw badRequest(`timeslot must be one of ${t.timeslots.join(", ")}.`);
        indexes = [i];
      }
      for (const i of indexes) {
        const slot = state.inventory.slot(t, d, i);
        if (typeof remaining === "number") slot.supply = remaining;
        if (body.caps !== undefined) slot.caps = caps;
      }
      return ok(dayView(state, t, d));
    },
  }),
  defineRoute("productTypeChange", "/__control/product-types/{uuid}", {
    PUT: ({ state, params, body }) => {
      const t = productType(state, params.uuid);
      const available = flag(body, "available");
      const title = text(body, "title");
      const description = text(body, "description");
      const now = state.now();
      const recipients = allPartners(state);
      const data = () => ({ productTypeUuid: t.uuid, productUuid: t.product.uuid, title: t.title });
      // Each part that changes emits its event; a value equal to the current one is no change.
      if ((title ?? t.title) !== t.title || (description ?? t.description) !== t.description) {
        t.title = title ?? t.title;
        t.description = description ?? t.description;
        t.updatedAt = now;
        state.webhooks.emit("product_type_content_updated", t.uuid, data(), recipients, now);
      }
      if (available !== undefined && (available !== t.available || emitsUnchanged(state))) {
        t.available = available;
        t.updatedAt = now;
        state.webhooks.emit(
          available ? "product_type_available" : "product_type_not_available",
          t.uuid,
          data(),
          recipients,
          now,
        );
      }
      return ok({ uuid: t.uuid, title: t.title, description: t.description, available: t.available });
    },
  }),
  defineRoute("productChange", "/__control/products/{uuid}", {
    PUT: ({ state, params, body }) => {
      const p = product(state, params.uuid);
      const available = flag(body, "available");
      const title = text(body, "title");
      const description = text(body, "description");
      const now = state.now();
      const recipients = allPartners(state);
      if ((title ?? p.title) !== p.title || (description ?? p.description) !== p.description) {
        p.title = title ?? p.title;
        p.description = description ?? p.description;
        p.updatedAt = now;
        state.sortCache = new Map();
        state.renderCache = new Map();
        state.webhooks.emit("product_updated", p.uuid, { productUuid: p.uuid, title: p.title }, recipients, now);
      }
      if (available !== undefined && (available !== p.available || emitsUnchanged(state))) {
        if (available !== p.available) state.catalogue.unavailableProducts += available ? -1 : 1;
        p.available = available;
        p.updatedAt = now;
        state.renderCache = new Map();
        // product_available when a product becomes available; a withdrawal is a product update.
        state.webhooks.emit(
          available ? "product_available" : "product_updated",
          p.uuid,
          { productUuid: p.uuid, title: p.title, available },
          recipients,
          now,
        );
      }
      return ok({ uuid: p.uuid, title: p.title, description: p.description, available: p.available });
    },
  }),
  defineRoute("booking", "/__control/bookings/{uuid}", {
    GET: (ctx) => {
      const b = booking(ctx);
      return ok({ ...bookingDetail(b), partner: b.partner.apiKey, holding: b.holding, locked: b.locked });
    },
    // Supplier-side changes: {decision: "approve"|"reject"} for a waiting booking, {approveCancellation: true},
    // {customer?, partnerReference?} (booking_data_updated), {reissueVouchers: true} (booking_tickets_updated).
    PUT: (ctx) => {
      const b = booking(ctx);
      const { body, state } = ctx;
      const change = bookingChange(body);
      // Checked whole before anything applies: a refused body changes nothing.
      if (change.decision !== undefined && b.status !== "waiting") {
        throw badRequest(`Only a waiting booking gets a decision; this one is ${b.status}.`);
      }
      if (change.decision !== undefined) state.bookings.supplierDecision(b, change.decision === "approve");
      if (flag(body, "approveCancellation") === true) state.bookings.approveCancellation(b);
      if (change.data !== undefined) state.bookings.updateData(b, change.data);
      if (flag(body, "reissueVouchers") === true) state.bookings.reissueVouchers(b);
      return ok(bookingDetail(b));
    },
  }),
  defineRoute("events", "/__control/events", {
    // The ledger: ?type=&apiKey=&resource=&since=<seq>&limit=
    GET: ({ state, query }) => {
      const type = query.get("type") ?? undefined;
      if (type !== undefined && !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
        throw badRequest(`type must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}.`);
      }
      const filter: { type?: string; apiKey?: string; resource?: string; sinceSeq?: number; limit?: number } = {};
      if (type !== undefined) filter.type = type;
      const apiKey = query.get("apiKey");
      if (apiKey !== null) filter.apiKey = apiKey;
      const resource = query.get("resource");
      if (resource !== null) filter.resource = resource;
      if (query.has("since")) filter.sinceSeq = Number(query.get("since")) || 0;
      if (query.has("limit")) filter.limit = Math.max(1, Number(query.get("limit")) || 1000);
      return ok(state.webhooks.events(filter));
    },
  }),
];
