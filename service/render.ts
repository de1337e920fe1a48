/** Wire objects of spec Part 2, rendered from catalogue records with exactly the spec's keys. */
import type { Link } from "../lib/contract/index.ts";
import {
  CATEGORIES,
  PRODUCT_KINDS,
  money,
  translate,
  type Catalogue,
  type Language,
  type Product,
  type ProductType,
} from "../lib/reference/catalogue.ts";
import { formatDay } from "../lib/reference/dates.ts";
import { link } from "./http.ts";

export const IMAGE_BASE_URL = "https://images.atd.example/";

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function tr(text: string, language: Language): Record<string, string> {
  return { [language]: translate(text, language) };
}

export function productLinks(p: Product): Link[] {
  return [
    link("self", `/v2/products/${p.uuid}`),
    link("product-types", `/v2/products/${p.uuid}/product-types`),
    link("restrictions", `/v2/products/${p.uuid}/restrictions`),
  ];
}

export function productListItem(c: Catalogue, p: Product, language: Language): Record<string, unknown> {
  return {
    uuid: p.uuid,
    updatedAt: iso(p.updatedAt),
    title: p.title,
    titleTranslated: tr(p.title, language),
    validFrom: formatDay(p.validFrom),
    validThrough: formatDay(p.validThrough),
    basePrice: money(p.basePrice),
    typeName: PRODUCT_KINDS[p.kind] ?? "Attraction",
    typeUuid: c.kindUuids[p.kind] ?? "",
    links: productLinks(p),
  };
}

export function productDetail(c: Catalogue, p: Product, language: Language): Record<string, unknown> {
  const highlights = `Highlights of ${p.title}.`;
  const info = "Wear comfortable shoes.";
  const includes = "Entrance fees, local guide.";
  const excludes = "Meals and personal expenses.";
  const itinerary = "Meet, visit, return.";
  const warnings = "Not suitable for people with reduced mobility.";
  const safety = "Follow the guide's instructions.";
  const minPax = Math.min(...p.productTypes.map((t) => t.minPax));
  const maxPax = Math.max(...p.productTypes.map((t) => t.maxPax));
  const withOptions = p.productTypes.filter((t) => t.options.length > 0).length;
  return {
    uuid: p.uuid,
    updatedAt: iso(p.updatedAt),
    title: p.title,
    titleTranslated: tr(p.title, language),
    description: p.description,
    descriptionTranslated: tr(p.description, language),
    highlights,
    highlightsTranslated: tr(highlights, language),
    additionalInfo: info,
    additionalInfoTranslated: tr(info, language),
    priceIncludes: includes,
    priceIncludesTranslated: tr(includes, language),
    priceExcludes: excludes,
    priceExcludesTranslated: tr(excludes, language),
    validFrom: formatDay(p.validFrom),
    validThrough: formatDay(p.validThrough),
    itinerary,
    itineraryTranslated: tr(itinerary, language),
    warnings,
    warningsTranslated: tr(warnings, language),
    safety,
    safetyTranslated: tr(safety, language),
    latitude: p.city.latitude,
    longitude: p.city.longitude,
    minPax,
    maxPax,
    basePrice: money(p.basePrice),
    currency: p.city.currency,
    isFlatPaxPrice: false,
    reviewCount: p.reviewCount,
    reviewAverageScore: p.reviewAverageScore / 10,
    typeName: PRODUCT_KINDS[p.kind] ?? "Attraction",
    typeUuid: c.kindUuids[p.kind] ?? "",
    photosUrl: `${IMAGE_BASE_URL}products/${p.uuid}/`,
    businessHoursFrom: "08:00",
    businessHoursTo: "20:00",
    averageDelivery: p.productTypes.every((t) => t.instantConfirmation) ? "instant" : "within 24 hours",
    hotelPickup: p.hotelPickup,
    airportPickup: p.airportPickup,
    hasOptions: withOptions > 0,
    allProductTypesHaveOptions: withOptions === p.productTypes.length,
    photos: [0, 1].map((i) => ({ path: `products/${p.uuid}/${i + 1}.jpg`, caption: `${p.title} (${i + 1})` })),
    categories: p.categories.map((i) => ({
      uuid: c.categoryUuids[i] ?? "",
      slug: CATEGORIES[i]?.slug ?? "",
      name: CATEGORIES[i]?.name ?? "",
    })),
    locations: [
      {
        city: p.city.name,
        citySlug: p.city.slug,
        country: p.city.country,
        latitude: p.city.latitude,
        longitude: p.city.longitude,
      },
    ],
    guideLanguages: ["en", "zh"],
    audioHeadsetLanguages: ["en", "ja", "ko"],
    writtenLanguages: ["en", "de", "fr"],
    links: productLinks(p),
  };
}

export function productTypeLinks(t: ProductType): Link[] {
  return [
    link("self", `/v2/product-types/${t.uuid}`),
    link("product", `/v2/products/${t.product.uuid}`),
    link("price-lists", `/v2/product-types/${t.uuid}/price-lists`),
  ];
}

export function productTypeSummary(t: ProductType): Record<string, unknown> {
  return { uuid: t.uuid, title: t.title, links: productTypeLinks(t) };
}

export function renderOptions(t: ProductType): Record<string, unknown>[] {
  return t.options.map((o) => ({
    uuid: o.uuid,
    name: o.name,
    type: o.type,
    required: o.required,
    values: o.values.map((v) => ({ uuid: v.uuid, label: v.label, price: money(v.price) })),
  }));
}

export function productTypeDetail(t: ProductType, language: Language): Record<string, unknown> {
  const voucherUse = "Show the voucher on your phone at the entrance.";
  const address = `${t.product.city.name} visitor centre`;
  const meeting = `Main gate, ${t.product.city.name}`;
  return {
    uuid: t.uuid,
    title: t.title,
    titleTranslated: tr(t.title, language),
    description: t.description,
    descriptionTranslated: tr(t.description, language),
    durationDays: 0,
    durationHours: t.durationHours,
    durationMinutes: 0,
    daysInAdvance: t.daysInAdvance,
    isNonRefundable: t.isNonRefundable,
    minPax: t.minPax,
    maxPax: t.maxPax,
    minAdultAge: 18,
    maxAdultAge: 64,
    hasChildPrice: t.allowChildren,
    allowChildren: t.allowChildren,
    minChildren: 0,
    maxChildren: t.maxChildren,
    minChildAge: 4,
    maxChildAge: 17,
    allowSeniors: t.allowSeniors,
    minSeniors: 0,
    maxSeniors: t.maxSeniors,
    minSeniorAge: 65,
    maxSeniorAge: 120,
    allowInfant: t.allowInfant,
    minInfantAge: 0,
    maxInfantAge: 3,
    maxGroup: t.maxGroup,
    minGroup: 1,
    instantConfirmation: t.instantConfirmation,
    nonInstantVoucher: !t.instantConfirmation,
    directAdmission: t.timeslots.length === 0,
    voucherUse,
    voucherUseTranslated: tr(voucherUse, language),
    voucherRedemptionAddress: address,
    voucherRedemptionAddressTranslated: tr(address, language),
    voucherRequiresPrinting: false,
    meetingTime: t.timeslots[0] ?? null,
    meetingAddress: meeting,
    meetingLocation: meeting,
    meetingLocationTranslated: tr(meeting, language),
    cancellationPolicies: t.isNonRefundable ? [] : [{ hoursBefore: 24, refundPercent: 100 }],
    recommendedMarkup: "15.00",
    adultParityPrice: money(Math.round(t.adultPrice * 1.15)),
    childParityPrice: t.allowChildren ? money(Math.round(t.childPrice * 1.15)) : null,
    seniorParityPrice: t.allowSeniors ? money(Math.round(t.seniorPrice * 1.15)) : null,
    validity: { type: "date", days: 1 },
    timeslots: t.timeslots.map((timeslot) => ({ timeslot })),
    options: renderOptions(t),
    links: productTypeLinks(t),
  };
}

/** Prices per age group the product type sells, as decimal strings. */
export function renderPrices(t: ProductType): Record<string, string> {
  const prices: Record<string, string> = { adults: money(t.adultPrice) };
  if (t.allowChildren) prices.children = money(t.childPrice);
  if (t.allowSeniors) prices.seniors = money(t.seniorPrice);
  return prices;
}

/** Keeps only the requested keys of a rendered resource (sparse fieldsets); `uuid` and `links` always stay. */
export function pickFields(
  value: Record<string, unknown>,
  fields: readonly string[] | undefined,
): Record<string, unknown> {
  if (fields === undefined) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === "uuid" || key === "links" || fields.includes(key)) out[key] = value[key];
  }
  return out;
}

export { formatDay, iso };
