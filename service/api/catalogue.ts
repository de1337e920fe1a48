/** Products, product types, restrictions and config (spec 4.1, 4.2 without prices, 4.4). */
import { PRODUCT_DETAIL_KEYS, PRODUCT_TYPE_DETAIL_KEYS, type Link } from "../../lib/contract/index.ts";
import { LANGUAGES, PRODUCT_SORTS } from "../../lib/contract/reference-values.ts";
import {
  CATEGORIES,
  CITIES,
  CURRENCIES,
  translateUnmarked,
  translationMarker,
  type Language,
  type Product,
  type ProductType,
} from "../../lib/reference/catalogue.ts";
import { HttpError, badRequest, link, notFound, type Reply } from "../http.ts";
import { hash } from "../../lib/reference/rng.ts";
import {
  IMAGE_BASE_URL,
  pickFields,
  productDetail,
  productListItem,
  productTypeDetail,
  productTypeSummary,
} from "../render.ts";
import type { ServiceState } from "../state.ts";
import { param, type ApiContext } from "./context.ts";
import {
  defaultPerPage,
  listEnvelope,
  parseFields,
  parseLanguage,
  parsePage,
  queryValue,
  servedIndex,
} from "./params.ts";

function self(ctx: ApiContext): Link[] {
  const qs = ctx.query.toString();
  const rel = ctx.state.defects.on("conformance-links-no-self") ? "canonical" : "self";
  return [link(rel, qs === "" ? ctx.path : `${ctx.path}?${qs}`, ctx.method)];
}

/** The language of a request's content: parseLanguage, with the conformance defects of language in between. */
function languageOf(ctx: ApiContext): Language {
  const defects = ctx.state.defects;
  if (defects.on("conformance-unknown-language-accepted")) {
    const raw = (ctx.query.get("language") ?? "").toLowerCase();
    if (!(LANGUAGES as readonly string[]).includes(raw)) return "en";
  }
  const language = parseLanguage(ctx.query);
  return defects.on("conformance-language-ignored") ? "en" : language;
}

/**
 * A rendered record's translated content (its *Translated keys) without the marker that names the language, under the
 * variation translations-unmarked; as rendered otherwise.
 */
function translatedContent<T extends Record<string, unknown>>(state: ServiceState, data: T, language: Language): T {
  if (language === "en" || !state.variations.on("translations-unmarked")) return data;
  const marker = translationMarker(language);
  for (const key of Object.keys(data)) {
    const texts = data[key];
    if (!key.endsWith("Translated") || typeof texts !== "object" || texts === null) continue;
    const out: Record<string, string> = {};
    for (const [code, text] of Object.entries(texts as Record<string, string>))
      out[code] = translateUnmarked(text.startsWith(marker) ? text.slice(marker.length) : text, language);
    (data as Record<string, unknown>)[key] = out;
  }
  return data;
}

/** The requested fields, checked; none (every key) under conformance-fields-ignored. */
function fieldsOf(ctx: ApiContext, keys: readonly string[]): string[] | undefined {
  const fields = parseFields(ctx.query, keys);
  return ctx.state.defects.on("conformance-fields-ignored") ? undefined : fields;
}

/** The product detail's data, with the conformance defects of its keys and formats. */
function productData(ctx: ApiContext, p: Product, language: Language, fields: string[] | undefined) {
  const data = pickFields(
    translatedContent(ctx.state, productDetail(ctx.state.catalogue, p, language), language),
    fields,
  );
  const defects = ctx.state.defects;
  // The whole detail only: a sparse one (fields) keeps to what was asked, so only the key-set rule breaks.
  if (fields === undefined && defects.on("conformance-product-detail-has-url"))
    data.url = `https://www.atd.example/products/${p.uuid}`;
  if (defects.on("conformance-timestamp-offset") && "updatedAt" in data) {
    // The same instant at Singapore's +08:00: a valid ISO 8601 time, but not in UTC.
    data.updatedAt = new Date(p.updatedAt + 8 * 3_600_000).toISOString().replace("Z", "+08:00");
  }
  if (defects.on("conformance-type-uuid-not-uuid") && "typeUuid" in data) data.typeUuid = `kind-${p.kind}`;
  if (defects.on("conformance-date-slashes")) {
    // DD/MM/YYYY: the same days, not in the contract's YYYY-MM-DD.
    for (const key of ["validFrom", "validThrough"] as const) {
      const value = data[key];
      if (typeof value === "string") data[key] = value.split("-").reverse().join("/");
    }
  }
  if (defects.on("conformance-link-to-v1") && Array.isArray(data.links)) {
    data.links = (data.links as Link[]).map((l) =>
      l.rel === "restrictions" ? { ...l, href: l.href.replace(/^\/v2\//, "/v1/") } : l,
    );
  }
  return data;
}

function sorted(state: ServiceState, sort: string): Product[] {
  let list = state.sortCache.get(sort);
  if (list === undefined) {
    const desc = sort.startsWith("-");
    const key = desc ? sort.slice(1) : sort;
    const cmp = (a: Product, b: Product): number => {
      const d =
        key === "title"
          ? a.title.localeCompare(b.title)
          : key === "updated_at"
            ? a.updatedAt - b.updatedAt
            : a.basePrice - b.basePrice;
      return (desc ? -d : d) || a.index - b.index;
    };
    list = [...state.catalogue.products].sort(cmp);
    state.sortCache.set(sort, list);
  }
  return list;
}

export function findProduct(state: ServiceState, uuid: string): Product {
  const p = state.catalogue.productsByUuid.get(uuid);
  if (p !== undefined && !p.available && state.variations.on("lists-withdrawn-product-gone"))
    throw new HttpError(410, "gone", `Product ${uuid} is no longer available.`);
  if (p === undefined || !p.available) throw notFound(`Product ${uuid} was not found.`);
  return p;
}

export function findProductType(state: ServiceState, uuid: string): ProductType {
  const t = state.catalogue.productTypesByUuid.get(uuid);
  if (t === undefined) throw notFound(`Product type ${uuid} was not found.`);
  if (!t.available || !t.product.available) {
    throw new HttpError(410, "gone", `Product type ${uuid} is no longer available.`);
  }
  return t;
}

export function listProducts(ctx: ApiContext): Reply {
  const { state, query } = ctx;
  const asked = parseLanguage(query);
  const language = state.defects.on("conformance-products-language-ignored") ? "en" : asked;
  const page = parsePage(query, defaultPerPage(state), state.defects.on("conformance-page-zero-accepted"));
  const sort = queryValue(query, "sort");
  if (sort !== undefined && !(PRODUCT_SORTS as readonly string[]).includes(sort)) {
    throw badRequest(`sort must be one of ${PRODUCT_SORTS.join(", ")}, got "${sort}".`);
  }
  // Filters select; a value no product has selects none (an empty list), as the document says.
  const type = queryValue(query, "type") ?? queryValue(query, "type_uuid");
  const category = queryValue(query, "category");
  const country = queryValue(query, "country")?.toUpperCase();
  const city = queryValue(query, "city");
  const typeIndex = type === undefined ? undefined : state.catalogue.kindUuids.indexOf(type);
  const categoryIndex =
    category === undefined
      ? undefined
      : CATEGORIES.findIndex((c, i) => c.slug === category || state.catalogue.categoryUuids[i] === category);
  let list = sort === undefined ? state.catalogue.products : sorted(state, sort);
  const filtered = type !== undefined || category !== undefined || country !== undefined || city !== undefined;
  const hidden = state.catalogue.unavailableProducts > 0;
  if (filtered || hidden) {
    list = list.filter(
      (p) =>
        p.available &&
        (typeIndex === undefined || p.kind === typeIndex) &&
        (categoryIndex === undefined || p.categories.includes(categoryIndex)) &&
        (country === undefined || p.city.country === country) &&
        (city === undefined || p.city.slug === city),
    );
  }
  // conformance-product-list-has-description: each item with the detail's description, past the cache.
  const withDescription = state.defects.on("conformance-product-list-has-description");
  // conformance-product-pages-overlap: an off-by-one offset, every page after the first one product early.
  const early = page.page > 1 && state.defects.on("conformance-product-pages-overlap") ? 1 : 0;
  // Hot path: list items are serialised once per (product, language) and spliced into the envelope as text.
  const { data, ...rest } = listEnvelope(ctx.path, query, list.length, page, (start, end) => {
    const out: string[] = [];
    for (let i = start - early; i < end - early; i++) {
      // Without sort the order is the service's own (lists-reverse-order serves it the other way round).
      const p = list[sort === undefined ? servedIndex(state, list.length, i) : i];
      if (p === undefined) continue;
      out.push(
        withDescription
          ? JSON.stringify({ ...productListItem(state.catalogue, p, language), description: p.description })
          : listItemJson(state, p, language),
      );
    }
    return out;
  });
  const meta: Record<string, unknown> = { ...rest.meta };
  if (state.defects.on("conformance-pagination-as-strings")) {
    const { current_page: current, total_pages: pages } = rest.meta.pagination;
    meta.pagination = { ...rest.meta.pagination, current_page: String(current), total_pages: String(pages) };
  }
  const body = `{"data":[${data.join(",")}],"meta":${JSON.stringify(meta)},"links":${JSON.stringify(rest.links)}}`;
  return { status: 200, body, contentType: "application/json" };
}

function listItemJson(state: ServiceState, p: Product, language: Language): string {
  const key = `${language}:${p.index}`;
  let json = state.renderCache.get(key);
  if (json === undefined) {
    json = JSON.stringify(translatedContent(state, productListItem(state.catalogue, p, language), language));
    state.renderCache.set(key, json);
  }
  return json;
}

export function getProduct(ctx: ApiContext): Reply {
  const language = languageOf(ctx);
  const fields = fieldsOf(ctx, PRODUCT_DETAIL_KEYS);
  const p = findProduct(ctx.state, param(ctx, "uuid"));
  return { status: 200, body: { data: productData(ctx, p, language, fields), links: self(ctx) } };
}

export function listProductTypes(ctx: ApiContext): Reply {
  const p = findProduct(ctx.state, param(ctx, "uuid"));
  const types = p.productTypes.filter((t) => t.available);
  if (ctx.state.variations.on("lists-reverse-order")) types.reverse();
  const page = parsePage(ctx.query, defaultPerPage(ctx.state));
  // conformance-type-summary-has-product-uuid: each summary with its product's uuid, a key of the data model.
  const withProductUuid = ctx.state.defects.on("conformance-type-summary-has-product-uuid");
  const body = listEnvelope(ctx.path, ctx.query, types.length, page, (s, e) =>
    types
      .slice(s, e)
      .map((t) => (withProductUuid ? { ...productTypeSummary(t), productUuid: p.uuid } : productTypeSummary(t))),
  );
  if (ctx.state.defects.on("conformance-product-types-total-zero")) body.meta.pagination.total = 0;
  return { status: 200, body };
}

export function getProductType(ctx: ApiContext): Reply {
  const language = languageOf(ctx);
  const fields = fieldsOf(ctx, PRODUCT_TYPE_DETAIL_KEYS);
  const t = findProductType(ctx.state, param(ctx, "uuid"));
  const data = pickFields(translatedContent(ctx.state, productTypeDetail(t, language), language), fields);
  // The whole detail only: a sparse one (fields) keeps to what was asked, so only the key-set rule breaks.
  if (fields === undefined && ctx.state.defects.on("conformance-type-detail-has-min-adults")) {
    data.minAdults = t.minPax;
    data.maxAdults = t.maxPax;
  }
  if (ctx.state.defects.on("conformance-type-title-differs") && "title" in data)
    data.title = `${t.product.title}: ${t.title}`;
  // conformance-type-detail-no-self: this detail's own link under another rel.
  const links = ctx.state.defects.on("conformance-type-detail-no-self")
    ? self(ctx).map((l) => ({ ...l, rel: "canonical" }))
    : self(ctx);
  return { status: 200, body: { data, links } };
}

const COUNTRIES = [...new Set(CITIES.map((c) => c.country))];

/** The partner's origin restrictions for a product: set through the control API, else seeded per (partner, product). */
export function restrictionsFor(
  state: ServiceState,
  partnerIndex: number,
  apiKeyRestrictions: Map<string, { allowedCountries: string[]; excludedCountries: string[] }>,
  p: Product,
): { allowedCountries: string[]; excludedCountries: string[] } {
  const set = apiKeyRestrictions.get(p.uuid);
  if (set !== undefined) return set;
  const h = hash(state.seed, 900 + partnerIndex, p.index);
  const bucket = h % 20;
  const pickCountries = (n: number) =>
    [...new Set(Array.from({ length: n }, (_, i) => COUNTRIES[hash(h, i) % COUNTRIES.length] ?? "TH"))].sort();
  if (bucket >= 17) return { allowedCountries: [], excludedCountries: pickCountries(1 + (h % 2)) };
  if (bucket >= 14) return { allowedCountries: pickCountries(2 + (h % 2)), excludedCountries: [] };
  return { allowedCountries: [], excludedCountries: [] };
}

export function getRestrictions(ctx: ApiContext): Reply {
  const uuid = param(ctx, "uuid");
  if (
    ctx.state.defects.on("conformance-restrictions-unknown-product-empty") &&
    !ctx.state.catalogue.productsByUuid.has(uuid)
  )
    return {
      status: 200,
      body: {
        data: { productUuid: uuid, mode: "none", allowedCountries: [], excludedCountries: [] },
        links: self(ctx),
      },
    };
  const p = findProduct(ctx.state, uuid);
  const r = restrictionsFor(ctx.state, ctx.partner.index, ctx.partner.restrictions, p);
  const mode = r.allowedCountries.length > 0 ? "allow" : r.excludedCountries.length > 0 ? "exclude" : "none";
  const data = ctx.state.defects.on("conformance-restrictions-snake-case")
    ? { product_uuid: p.uuid, mode, allowed_countries: r.allowedCountries, excluded_countries: r.excludedCountries }
    : { productUuid: p.uuid, mode, allowedCountries: r.allowedCountries, excludedCountries: r.excludedCountries };
  return { status: 200, body: { data, links: self(ctx) } };
}

export function getConfig(ctx: ApiContext): Reply {
  const countries = new Map<string, { country: string; name: string; cities: { slug: string; name: string }[] }>();
  for (const c of CITIES) {
    let entry = countries.get(c.country);
    if (entry === undefined) {
      entry = { country: c.country, name: c.countryName, cities: [] };
      countries.set(c.country, entry);
    }
    entry.cities.push({ slug: c.slug, name: c.name });
  }
  return {
    status: 200,
    body: {
      data: {
        version: "2.1",
        languages: [...LANGUAGES],
        currencies: [...CURRENCIES],
        ...(ctx.state.defects.on("conformance-config-without-locations") ? {} : { locations: [...countries.values()] }),
        categories: CATEGORIES.map((c, i) => ({ uuid: ctx.state.catalogue.categoryUuids[i] ?? "", ...c })),
        imageBaseUrl: IMAGE_BASE_URL,
        rateLimit: {
          limit: ctx.state.limiter.config.limit,
          windowSeconds: ctx.state.limiter.config.windowSeconds,
        },
      },
      links: self(ctx),
    },
  };
}
