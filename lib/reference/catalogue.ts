/**
 * The seeded catalogue: products with 1-5 product types, timeslotted and not, age-group rules, booking options
 * (required and priced) and prices. Same seed and size, same catalogue and same UUIDs. Records are compact;
 * the wire objects are rendered per request (service/render.ts), so 20,000 products start in well under 10 s.
 *
 * lib/reference holds the reference service's seeded world (this catalogue, its inventory, the hashing and days they
 * use) apart from the service itself: pure functions of seed, size and day, imported by the service and by the
 * harness's dry-run estimate (lib/harness/plan/reference-catalogue.ts), which foresees the embedded target from the
 * same code without importing the service. Runtime-neutral: it imports only lib/contract.
 */
import { LANGUAGES } from "../contract/reference-values.ts";
import { hash, pick, uuidFrom } from "./rng.ts";

/** The seed and catalogue size the service starts with unless told otherwise (service/options.ts). */
export const DEFAULT_SEED = 1;
export const DEFAULT_PRODUCTS = 200;

export type Language = (typeof LANGUAGES)[number];

export interface City {
  slug: string;
  name: string;
  country: string;
  countryName: string;
  currency: string;
  latitude: number;
  longitude: number;
}

export const CITIES: readonly City[] = [
  {
    slug: "bangkok",
    name: "Bangkok",
    country: "TH",
    countryName: "Thailand",
    currency: "THB",
    latitude: 13.7563,
    longitude: 100.5018,
  },
  {
    slug: "chiang-mai",
    name: "Chiang Mai",
    country: "TH",
    countryName: "Thailand",
    currency: "THB",
    latitude: 18.7883,
    longitude: 98.9853,
  },
  {
    slug: "phuket",
    name: "Phuket",
    country: "TH",
    countryName: "Thailand",
    currency: "THB",
    latitude: 7.8804,
    longitude: 98.3923,
  },
  {
    slug: "singapore",
    name: "Singapore",
    country: "SG",
    countryName: "Singapore",
    currency: "SGD",
    latitude: 1.3521,
    longitude: 103.8198,
  },
  {
    slug: "kuala-lumpur",
    name: "Kuala Lumpur",
    country: "MY",
    countryName: "Malaysia",
    currency: "MYR",
    latitude: 3.139,
    longitude: 101.6869,
  },
  {
    slug: "penang",
    name: "Penang",
    country: "MY",
    countryName: "Malaysia",
    currency: "MYR",
    latitude: 5.4164,
    longitude: 100.3327,
  },
  {
    slug: "bali",
    name: "Bali",
    country: "ID",
    countryName: "Indonesia",
    currency: "IDR",
    latitude: -8.3405,
    longitude: 115.092,
  },
  {
    slug: "jakarta",
    name: "Jakarta",
    country: "ID",
    countryName: "Indonesia",
    currency: "IDR",
    latitude: -6.2088,
    longitude: 106.8456,
  },
  {
    slug: "tokyo",
    name: "Tokyo",
    country: "JP",
    countryName: "Japan",
    currency: "JPY",
    latitude: 35.6762,
    longitude: 139.6503,
  },
  {
    slug: "kyoto",
    name: "Kyoto",
    country: "JP",
    countryName: "Japan",
    currency: "JPY",
    latitude: 35.0116,
    longitude: 135.7681,
  },
  {
    slug: "osaka",
    name: "Osaka",
    country: "JP",
    countryName: "Japan",
    currency: "JPY",
    latitude: 34.6937,
    longitude: 135.5023,
  },
  {
    slug: "seoul",
    name: "Seoul",
    country: "KR",
    countryName: "South Korea",
    currency: "KRW",
    latitude: 37.5665,
    longitude: 126.978,
  },
  {
    slug: "busan",
    name: "Busan",
    country: "KR",
    countryName: "South Korea",
    currency: "KRW",
    latitude: 35.1796,
    longitude: 129.0756,
  },
  {
    slug: "hong-kong",
    name: "Hong Kong",
    country: "HK",
    countryName: "Hong Kong",
    currency: "HKD",
    latitude: 22.3193,
    longitude: 114.1694,
  },
  {
    slug: "taipei",
    name: "Taipei",
    country: "TW",
    countryName: "Taiwan",
    currency: "TWD",
    latitude: 25.033,
    longitude: 121.5654,
  },
  {
    slug: "hanoi",
    name: "Hanoi",
    country: "VN",
    countryName: "Vietnam",
    currency: "VND",
    latitude: 21.0278,
    longitude: 105.8342,
  },
  {
    slug: "ho-chi-minh-city",
    name: "Ho Chi Minh City",
    country: "VN",
    countryName: "Vietnam",
    currency: "VND",
    latitude: 10.8231,
    longitude: 106.6297,
  },
  {
    slug: "manila",
    name: "Manila",
    country: "PH",
    countryName: "Philippines",
    currency: "PHP",
    latitude: 14.5995,
    longitude: 120.9842,
  },
  {
    slug: "cebu",
    name: "Cebu",
    country: "PH",
    countryName: "Philippines",
    currency: "PHP",
    latitude: 10.3157,
    longitude: 123.8854,
  },
  {
    slug: "siem-reap",
    name: "Siem Reap",
    country: "KH",
    countryName: "Cambodia",
    currency: "USD",
    latitude: 13.3671,
    longitude: 103.8448,
  },
];

export const CURRENCIES = ["USD", "EUR", "THB", "SGD", "MYR", "IDR", "JPY", "KRW", "HKD", "TWD", "VND", "PHP"] as const;

export const CATEGORIES = [
  { slug: "attractions", name: "Attractions" },
  { slug: "tours", name: "Tours" },
  { slug: "activities", name: "Activities" },
  { slug: "shows", name: "Shows" },
  { slug: "transport", name: "Transport" },
  { slug: "food-drink", name: "Food and drink" },
  { slug: "nature", name: "Nature" },
  { slug: "culture", name: "Culture" },
] as const;

export const PRODUCT_KINDS = ["Attraction", "Tour", "Activity", "Show", "Transfer"] as const;

const ADJECTIVES = [
  "Classic",
  "Hidden",
  "Grand",
  "Sunset",
  "Private",
  "Family",
  "Night",
  "Heritage",
  "Street-food",
  "Island",
];
const NOUNS = [
  "Temple Walk",
  "River Cruise",
  "Cooking Class",
  "Market Tour",
  "Theme Park",
  "Cable Car",
  "Snorkel Trip",
  "Museum Pass",
  "Lantern Show",
  "Bike Ride",
  "Tea Ceremony",
  "Aquarium",
];
const TYPE_TITLES = ["Standard Ticket", "Express Pass", "Half Day", "Full Day", "Evening Session", "Premium Package"];
const ALL_TIMESLOTS = ["08:00", "09:30", "11:00", "13:00", "14:30", "16:00", "18:00", "20:00"];

/** Id spaces of uuidFrom(seed, kind, index). */
const UUID_KIND = { product: 1, productType: 2, kind: 3, option: 4, category: 5, optionValue: 6 } as const;

export interface OptionValue {
  uuid: string;
  label: string;
  /** Price in minor units (cents), 0 when free. */
  price: number;
}

export interface BookingOption {
  uuid: string;
  name: string;
  type: "select" | "text";
  required: boolean;
  /** For "select": the allowed values (the booking sends a value's uuid). */
  values: OptionValue[];
}

export interface ProductType {
  index: number;
  uuid: string;
  product: Product;
  title: string;
  description: string;
  available: boolean;
  updatedAt: number;
  /** Empty for non-timeslotted product types. */
  timeslots: string[];
  instantConfirmation: boolean;
  isNonRefundable: boolean;
  durationHours: number;
  daysInAdvance: number;
  minPax: number;
  maxPax: number;
  allowChildren: boolean;
  maxChildren: number;
  allowSeniors: boolean;
  maxSeniors: number;
  allowInfant: boolean;
  maxGroup: number;
  /** Prices in minor units. */
  adultPrice: number;
  childPrice: number;
  seniorPrice: number;
  /** Base capacity per slot (a day, or a timeslot of a day) before the per-day variation. */
  capacity: number;
  options: BookingOption[];
}

export interface Product {
  index: number;
  uuid: string;
  title: string;
  description: string;
  kind: number;
  city: City;
  categories: number[];
  available: boolean;
  updatedAt: number;
  validFrom: number;
  validThrough: number;
  basePrice: number;
  reviewCount: number;
  reviewAverageScore: number;
  hotelPickup: boolean;
  airportPickup: boolean;
  productTypes: ProductType[];
}

export interface Catalogue {
  seed: number;
  /** The day (days since epoch) the catalogue was generated for. */
  baseDay: number;
  products: Product[];
  productTypes: ProductType[];
  productsByUuid: Map<string, Product>;
  productTypesByUuid: Map<string, ProductType>;
  kindUuids: string[];
  categoryUuids: string[];
  /** How many products are withdrawn (available false); 0 lets the product list skip filtering. */
  unavailableProducts: number;
}

export function generateCatalogue(seed: number, count: number, baseDay: number, uuidVersion: 4 | 7 = 4): Catalogue {
  const products: Product[] = [];
  const productTypes: ProductType[] = [];
  const productsByUuid = new Map<string, Product>();
  const productTypesByUuid = new Map<string, ProductType>();
  const kindUuids = PRODUCT_KINDS.map((_, i) => uuidFrom(seed, UUID_KIND.kind, i, uuidVersion));
  const categoryUuids = CATEGORIES.map((_, i) => uuidFrom(seed, UUID_KIND.category, i, uuidVersion));
  const options = { next: 0 };
  for (let i = 0; i < count; i++) {
    const product = seededProduct(seed, i, baseDay, uuidVersion);
    const typeCount = 1 + (hash(seed, 24, i) % 5);
    let minPrice = Number.POSITIVE_INFINITY;
    for (let t = 0; t < typeCount; t++) {
      const productType = seededProductType(seed, productTypes.length, t, product, options, uuidVersion);
      minPrice = Math.min(minPrice, productType.adultPrice);
      product.productTypes.push(productType);
      productTypes.push(productType);
      productTypesByUuid.set(productType.uuid, productType);
    }
    product.basePrice = minPrice;
    products.push(product);
    productsByUuid.set(product.uuid, product);
  }
  return {
    seed,
    baseDay,
    products,
    productTypes,
    productsByUuid,
    productTypesByUuid,
    kindUuids,
    categoryUuids,
    unavailableProducts: 0,
  };
}

/** Product `i` of the seeded catalogue, without its product types (and base price) yet. */
function seededProduct(seed: number, i: number, baseDay: number, uuidVersion: 4 | 7): Product {
  const h = hash(seed, 11, i);
  const city = pick(CITIES, hash(seed, 12, i));
  const kind = h % PRODUCT_KINDS.length;
  const cat1 = hash(seed, 13, i) % CATEGORIES.length;
  const cat2 = hash(seed, 14, i) % CATEGORIES.length;
  const title = `${pick(ADJECTIVES, hash(seed, 15, i))} ${pick(NOUNS, hash(seed, 16, i))} in ${city.name}`;
  return {
    index: i,
    uuid: uuidFrom(seed, UUID_KIND.product, i, uuidVersion),
    title,
    description: `${title}: a seeded product of the reference catalogue (#${i + 1}).`,
    kind,
    city,
    categories: cat1 === cat2 ? [cat1] : [cat1, cat2],
    available: true,
    updatedAt: (baseDay - 1 - (hash(seed, 17, i) % 300)) * 86_400_000 + (hash(seed, 18, i) % 86_400) * 1000,
    validFrom: baseDay - (hash(seed, 19, i) % 60),
    validThrough: baseDay + 365,
    basePrice: 0,
    reviewCount: hash(seed, 20, i) % 5000,
    reviewAverageScore: 30 + (hash(seed, 21, i) % 21),
    hotelPickup: hash(seed, 22, i) % 3 === 0,
    airportPickup: hash(seed, 23, i) % 7 === 0,
    productTypes: [],
  };
}

/**
 * Product type `index` (the `t`-th of its product), its options numbered on from `options.next` (a catalogue-wide
 * count, so every option has its own seeded uuid).
 */
function seededProductType(
  seed: number,
  index: number,
  t: number,
  product: Product,
  options: { next: number },
  uuidVersion: 4 | 7,
): ProductType {
  const title = product.title;
  const g = (salt: number) => hash(seed, 100 + salt, index);
  const timeslotted = g(1) % 10 < 4;
  const timeslots = timeslotted ? ALL_TIMESLOTS.filter((_, s) => hash(seed, 200 + s, index) % 3 !== 0) : [];
  if (timeslotted && timeslots.length === 0) timeslots.push("10:00");
  const adultPrice = 1500 + (g(2) % 200) * 100;
  const allowChildren = g(3) % 10 < 7;
  const allowSeniors = g(4) % 2 === 0;
  const maxPax = 8 + (g(5) % 13);
  const optionCount = g(6) % 3;
  const typeOptions: BookingOption[] = [];
  for (let k = 0; k < optionCount; k++) typeOptions.push(seededOption(seed, options.next++, uuidVersion));
  return {
    index,
    uuid: uuidFrom(seed, UUID_KIND.productType, index, uuidVersion),
    product,
    title: pick(TYPE_TITLES, g(7)),
    description: `Product type ${t + 1} of "${title}".`,
    available: true,
    updatedAt: product.updatedAt,
    timeslots,
    instantConfirmation: g(8) % 10 < 7,
    isNonRefundable: g(9) % 5 === 0,
    durationHours: 1 + (g(10) % 8),
    daysInAdvance: g(11) % 3,
    minPax: 1,
    maxPax,
    allowChildren,
    maxChildren: allowChildren ? 2 + (g(12) % 7) : 0,
    allowSeniors,
    maxSeniors: allowSeniors ? 2 + (g(13) % 5) : 0,
    allowInfant: g(14) % 2 === 0,
    maxGroup: maxPax + 10,
    adultPrice,
    childPrice: Math.round((adultPrice * 0.6) / 50) * 50,
    seniorPrice: Math.round((adultPrice * 0.8) / 50) * 50,
    capacity: 10 + (g(15) % 31),
    options: typeOptions,
  };
}

/** Option `o` of the seeded catalogue: a select of three values (the first free) or a text. */
function seededOption(seed: number, o: number, uuidVersion: 4 | 7): BookingOption {
  const isSelect = hash(seed, 300, o) % 3 !== 0;
  return {
    uuid: uuidFrom(seed, UUID_KIND.option, o, uuidVersion),
    name: isSelect ? pick(["Pickup point", "Meal choice", "Language"], hash(seed, 301, o)) : "Passport name",
    type: isSelect ? "select" : "text",
    required: hash(seed, 302, o) % 2 === 0,
    values: isSelect
      ? [0, 1, 2].map((v) => ({
          uuid: uuidFrom(seed, UUID_KIND.optionValue, o * 3 + v, uuidVersion),
          label: `Choice ${v + 1}`,
          price: v === 0 ? 0 : (hash(seed, 303 + v, o) % 20) * 50,
        }))
      : [],
  };
}

/** Content in a language: the seeded content is English; other languages get a marked rendering. */
export function translate(text: string, language: Language): string {
  return language === "en" ? text : `${translationMarker(language)}${text}`;
}

/** What translate() puts before a text in another language than English. */
export function translationMarker(language: Language): string {
  return `[${language}] `;
}

/**
 * Content in a language with nothing that names it (the variation translations-unmarked): Latin letters shifted by the
 * language's place in LANGUAGES, so every language reads differently and none by its script; English as it is.
 */
export function translateUnmarked(text: string, language: Language): string {
  const shift = (LANGUAGES as readonly string[]).indexOf(language);
  if (shift <= 0) return text;
  return text.replace(/[a-zA-Z]/g, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + shift) % 26) + base);
  });
}

export function money(minor: number): string {
  return (minor / 100).toFixed(2);
}
