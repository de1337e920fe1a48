/**
 * Query parameter parsing shared by the API handlers: 400 invalid_params on anything malformed, an empty value
 * included (docs/contract-gaps.md, Query parameters): what docs/partner-api.openapi.yaml states of each parameter.
 */
import { PAGINATION, type Link, type Pagination } from "../../lib/contract/index.ts";
import { LANGUAGES } from "../../lib/contract/reference-values.ts";
import type { Language } from "../../lib/reference/catalogue.ts";
import { parseDay } from "../../lib/reference/dates.ts";
import { badRequest, link } from "../http.ts";
import type { ServiceState } from "../state.ts";

/** A query parameter's value, undefined when absent; `?name=` is refused, not read as absent. */
export function queryValue(query: URLSearchParams, name: string): string | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (raw === "") throw badRequest(`${name} is empty; give it a value or leave it out.`);
  return raw;
}

/** `language`: one of the catalogue's codes, exactly as GET /v2/config lists them. */
export function parseLanguage(query: URLSearchParams): Language {
  const raw = queryValue(query, "language");
  if (raw === undefined) return "en";
  if (!(LANGUAGES as readonly string[]).includes(raw)) {
    throw badRequest(`language "${raw}" is not supported; use one of ${LANGUAGES.join(", ")}.`);
  }
  return raw as Language;
}

/** `fields=a,b,c`: every name must be a key of the resource; an empty name (`fields=a,,b`) is not one. */
export function parseFields(query: URLSearchParams, keys: readonly string[]): string[] | undefined {
  const raw = queryValue(query, "fields");
  if (raw === undefined) return undefined;
  const fields = raw.split(",");
  const unknown = fields.filter((f) => !keys.includes(f));
  if (unknown.length > 0) {
    throw badRequest(`fields names unknown keys: ${unknown.map((f) => JSON.stringify(f)).join(", ")}.`);
  }
  return fields;
}

function positiveInt(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = queryValue(query, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw badRequest(`${name} must be a positive integer, got "${raw}".`);
  const value = Number(raw);
  if (value < 1 || value > max) throw badRequest(`${name} must be from 1 to ${max}, got ${raw}.`);
  return value;
}

export interface Page {
  page: number;
  perPage: number;
}

/** The page size of a list asked for without per_page; 25 under the variation lists-default-page-size. */
export function defaultPerPage(state: ServiceState): number {
  return state.variations.on("lists-default-page-size") ? 25 : PAGINATION.defaultPerPage;
}

/**
 * The page asked for, `perPage` the size when per_page is not given (defaultPerPage); `zeroAsFirst`
 * (conformance-page-zero-accepted) serves page=0 as page 1 instead of refusing it.
 */
export function parsePage(query: URLSearchParams, perPage: number, zeroAsFirst = false): Page {
  return {
    page: zeroAsFirst && query.get("page") === "0" ? 1 : positiveInt(query, "page", 1, PAGINATION.maxPage),
    perPage: positiveInt(query, "per_page", perPage, PAGINATION.maxPerPage),
  };
}

/** The item at `i` of a list of `length` in the order served: reversed under the variation lists-reverse-order. */
export function servedIndex(state: ServiceState, length: number, i: number): number {
  return state.variations.on("lists-reverse-order") ? length - 1 - i : i;
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
  const raw = queryValue(query, name);
  if (raw === undefined) return undefined;
  const day = parseDay(raw);
  if (day === undefined) throw badRequest(`${name} must be a date in the format YYYY-MM-DD, got "${raw}".`);
  return day;
}
