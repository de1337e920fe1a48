/**
 * Finds product types to check the hooks on through the public API only, the way any partner can: walk /v2/products,
 * each product's /v2/products/{uuid}/product-types and /v2/product-types/{uuid} (timeslotted or not from the
 * detail), and take a date the price calendar shows bookable. Never the reference service's discovery hook: a service
 * that offers only the required hooks has none.
 */
import { addDays, isRecord } from "../../contract/index.ts";
import { toSampleProductType, type SampleProductType } from "../../contract/catalogue-sample.ts";
import type { PartnerApi } from "./partner-api.ts";

/** A product type with a date (and timeslot) the public calendar shows bookable. */
export interface BookableType {
  productUuid: string;
  type: SampleProductType;
  date: string;
  /** An open timeslot of `date`, for timeslotted types. */
  timeslot: string | undefined;
}

export interface CatalogueWalk {
  found: BookableType[];
  productsSeen: number;
  typesSeen: number;
}

/** The walk stops at this many of each kind, or after this many products (the catalogue GETs share one allowance). */
const WANT_PER_KIND = 2;
const MAX_PRODUCTS = 25;
const PAGE_SIZE = 100;
/** How far past the lead time the calendar is read for an open date. */
const CALENDAR_DAYS = 14;

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** The first date (and open timeslot) the calendar shows bookable. */
function openSlot(calendar: unknown, timeslotted: boolean): { date: string; timeslot: string | undefined } | undefined {
  for (const entry of records(calendar)) {
    if (entry.available !== true || typeof entry.date !== "string") continue;
    if (!timeslotted) return { date: entry.date, timeslot: undefined };
    const slot = records(entry.timeslots).find((s) => s.available !== false && typeof s.timeslot === "string");
    if (slot !== undefined) return { date: entry.date, timeslot: String(slot.timeslot) };
  }
  return undefined;
}

export async function walkCatalogue(api: PartnerApi, today: string): Promise<CatalogueWalk> {
  const found: BookableType[] = [];
  let productsSeen = 0;
  let typesSeen = 0;
  const wanted = (timeslotted: boolean) =>
    found.filter((f) => f.type.timeslotted === timeslotted).length < WANT_PER_KIND;
  for (let page = 1; productsSeen < MAX_PRODUCTS && (wanted(true) || wanted(false)); page++) {
    const list = await api.send("products", { query: { page, per_page: PAGE_SIZE } });
    const products = list.status === 200 ? records(list.data) : [];
    if (products.length === 0) break;
    for (const product of products) {
      if (productsSeen >= MAX_PRODUCTS || !(wanted(true) || wanted(false))) break;
      productsSeen++;
      const productUuid = String(product.uuid);
      const summaries = await api.send("productTypes", { params: { uuid: productUuid } });
      for (const summary of summaries.status === 200 ? records(summaries.data) : []) {
        const detail = await api.send("productType", { params: { uuid: String(summary.uuid) } });
        if (detail.status !== 200 || !isRecord(detail.data)) continue;
        typesSeen++;
        const type = toSampleProductType(productUuid, detail.data);
        if (!wanted(type.timeslotted)) continue;
        const start = addDays(today, type.daysInAdvance + 1);
        const calendar = await api.send("priceList", {
          params: { uuid: type.uuid },
          query: { date_start: start, date_end: addDays(start, CALENDAR_DAYS - 1) },
        });
        const slot = calendar.status === 200 ? openSlot(calendar.data, type.timeslotted) : undefined;
        if (slot !== undefined) found.push({ productUuid, type, ...slot });
      }
    }
  }
  return { found, productsSeen, typesSeen };
}
