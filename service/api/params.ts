/** Query parameter parsing shared by the API handlers: 400 invalid_params on anything malformed. */
import { PAGINATION, type Link, type Pagination } from "../../lib/contract/index.ts";
import { LANGUAGES, type Language } from "../catalogue.ts";
import { parseDay } from "../dates.ts";
import { badRequest, link } from "../http.ts";

export function parseLanguage(query: URLSearchParams): Language {
  const raw = query.get("language");
  if (raw === null || raw === "") return "en";
  const value = raw.toLowerCase();
  if (!(LANGUAGES as readonly string[]).includes(value)) {
    throw badRequest(`language "${raw}" is not supported; use one of ${LANGUAGES.join(", ")}.`);
  }
  return value as Language;
}

/** `fields=a,b,c`: every name must be a key of the resource. */
export function parseFields(query: URLSearchParams, keys: readonly string[]): string[] | undefined {
  const raw = query.get("fields");
  if (raw === null || raw.trim() === "") return undefined;
  const fields = raw
    .split(",")
    .map((f) => f.trim())
    .filter((f) => f !== "");
  const unknown = fields.filter((f) => !keys.includes(f));
  if (unknown.length > 0) throw badRequest(`fields names unknown keys: ${unknown.join(", ")}.`);
  return fields;
}

function positiveInt(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = query.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw badRequest(`${name} must be a positive integer, got "${raw}".`);
  const value = Number(raw);
  if (value < 1 || value > max) throw badRequest(`${name} must be from 1 to ${max}, got ${raw}.`);
  return value;
}

export interface Page {
  page: number;
  perPage: number;
}

/** The page asked for; `zeroAsFirst` (conformance-page-zero-accepted) serves page=0 as page 1 instead of refusing it. */
export function parsePage(query: URLSearchParams, zeroAsFirst = false): Page {
  return {
    page: zeroAsFirst && query.get("page") === "0" ? 1 : positiveInt(query, "page", 1, 1_000_000),
    perPage: positiveInt(query, "per_page", PAGINATION.defaultPerPage, PAGINATION.maxPerPage),
  };
}

/** Slices `items` for the page and builds the list envelope with pagination meta and navigation links. */
export function listEnvelope<T>(
  path: string,
  query: URLSearchParams,
  total: number,
  page: Page,
  slice: (start: number, end: number) => T[],
): { data: T[]; meta: { pagination: Pagination }; links: Link[] } {
  const start = (page.page - 1) * page.perPage;
  const data = start < total ? slice(start, Math.min(total, start + page.perPage)) : [];
  const totalPages = Math.max(1, Math.ceil(total / page.perPage));
  const href = (n: number) => {
    const q = new URLSearchParams(query);
    q.set("page", String(n));
    q.set("per_page", String(page.perPage));
    return `${path}?${q.toString()}`;
  };
  const links = [link("self", href(page.page)), link("first", href(1)), link("last", href(totalPages))];
  if (page.page > 1) links.push(link("prev", href(Math.min(page.page - 1, totalPages))));
  if (page.page < totalPages) links.push(link("next", href(page.page + 1)));
  return {
    data,
    meta: {
      pagination: {
        total,
        count: data.length,
        per_page: page.perPage,
        current_page: page.page,
        total_pages: totalPages,
      },
    },
    links,
  };
}

/** A required YYYY-MM-DD query date. */
export function requiredDay(query: URLSearchParams, name: string): number {
  const raw = query.get(name);
  if (raw === null || raw === "") throw badRequest(`${name} is required (YYYY-MM-DD).`);
  const day = parseDay(raw);
  if (day === undefined) throw badRequest(`${name} must be a date in the format YYYY-MM-DD, got "${raw}".`);
  return day;
}

export function optionalDay(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  const day = parseDay(raw);
  if (day === undefined) throw badRequest(`${name} must be a date in the format YYYY-MM-DD, got "${raw}".`);
  return day;
}
