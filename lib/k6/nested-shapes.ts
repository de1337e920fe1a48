/**
 * The nested values the published partner document fixes where spec 2.12 leaves them open (docs/contract-gaps.md,
 * Nested values; rule 2.12-nested-shapes), and the vouchers answer without pagination (gaps-lists-envelope): pure
 * functions of one answer's data, for the conformance judges and the shared checks under load alike (as
 * answer-rules.ts). Each returns what is wrong, or undefined. The other nested values are the service's own and are
 * not read here.
 */
import { isRecord, type EndpointName } from "../contract/index.ts";
import type { Problem } from "./answer-rules.ts";

const show = (value: unknown): string => JSON.stringify(value ?? null);

/** A `timeslots` item of a calendar entry or a single-date result: {timeslot, available, remaining} at least. */
function timeslotItemProblem(item: unknown): Problem {
  if (!isRecord(item)) return `is ${show(item)}, not an object {timeslot, available, remaining}`;
  const wrong: string[] = [];
  if (typeof item.timeslot !== "string") wrong.push(`timeslot is ${show(item.timeslot)}`);
  if (typeof item.available !== "boolean") wrong.push(`available is ${show(item.available)}`);
  if (typeof item.remaining !== "number" || !Number.isInteger(item.remaining))
    wrong.push(`remaining is ${show(item.remaining)}`);
  return wrong.length ? `${wrong.join(", ")} (each item is {timeslot, available, remaining})` : undefined;
}

/** A price answer's record (a calendar entry, the single-date result): its timeslots' items, its options an array. */
function priceRecordProblem(record: Record<string, unknown>): Problem {
  const timeslots = record.timeslots;
  if ("timeslots" in record) {
    if (!Array.isArray(timeslots)) return `timeslots is ${show(timeslots)}, not an array`;
    for (let i = 0; i < timeslots.length; i++) {
      const problem = timeslotItemProblem(timeslots[i]);
      if (problem !== undefined) return `timeslots[${i}] ${problem}`;
    }
  }
  return optionsProblem(record);
}

function optionsProblem(record: Record<string, unknown>): Problem {
  return "options" in record && !Array.isArray(record.options)
    ? `options is ${show(record.options)}, not an array`
    : undefined;
}

/** Every *Translated value of a record: text by language code (an object of strings). */
function translatedProblem(record: Record<string, unknown>): Problem {
  for (const key in record) {
    if (!key.endsWith("Translated")) continue;
    const texts = record[key];
    if (!isRecord(texts)) return `${key} is ${show(texts).slice(0, 80)}, not text by language code (an object)`;
    for (const code in texts) {
      if (typeof texts[code] !== "string") return `${key}.${code} is ${show(texts[code]).slice(0, 80)}, not text`;
    }
  }
  return undefined;
}

/** What each endpoint's records must show of their nested values; the endpoints not named have none to show. */
const RECORD_RULES: Partial<Record<EndpointName, (record: Record<string, unknown>) => Problem>> = {
  priceList: priceRecordProblem,
  priceListDate: priceRecordProblem,
  products: translatedProblem,
  product: translatedProblem,
  productType: translatedProblem,
  booking: optionsProblem,
  bookingCreate: optionsProblem,
  bookingConfirm: optionsProblem,
  bookingCancel: optionsProblem,
};

/** Whether an endpoint's answers have nested values the document fixes (2.12-nested-shapes applies). */
export function hasNestedShapes(endpoint: EndpointName): boolean {
  return RECORD_RULES[endpoint] !== undefined;
}

/** 2.12-nested-shapes on an answer's `data` (a record, or a list's items), naming the item when a list's. */
export function nestedShapesProblem(endpoint: EndpointName, data: unknown): Problem {
  const rule = RECORD_RULES[endpoint];
  if (rule === undefined) return undefined;
  if (!Array.isArray(data)) return isRecord(data) ? rule(data) : undefined;
  for (let i = 0; i < data.length; i++) {
    const item: unknown = data[i];
    const problem = isRecord(item) ? rule(item) : undefined;
    if (problem !== undefined) return `item ${i}: ${problem}`;
  }
  return undefined;
}

/** gaps-lists-envelope of the vouchers answer: {data, links} without the lists' pagination. */
export function collectionPaginationProblem(body: unknown): Problem {
  const meta = isRecord(body) ? body.meta : undefined;
  return isRecord(meta) && "pagination" in meta
    ? "the vouchers answer carries meta.pagination; it is {data: [...], links} without pagination"
    : undefined;
}
