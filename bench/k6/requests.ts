/** The request mix both sides of bench:harness send: the GET calls of partner-mix's journeys, in turn. */
export const BENCH_REQUESTS = [
  "priceListDate",
  "products",
  "priceList",
  "priceListDate",
  "product",
  "productTypes",
  "priceListDate",
  "productType",
  "bookings",
  "config",
] as const;

export interface BenchTargets {
  product: string;
  productType: string;
  date: string;
  dateEnd: string;
}

/** The URL of each request, for the bare side. */
export function benchUrls(baseUrl: string, t: BenchTargets): string[] {
  const paths: Record<(typeof BENCH_REQUESTS)[number], string> = {
    products: "/v2/products?page=1&per_page=10",
    product: `/v2/products/${t.product}`,
    productTypes: `/v2/products/${t.product}/product-types`,
    productType: `/v2/product-types/${t.productType}`,
    priceList: `/v2/product-types/${t.productType}/price-lists?date_start=${t.date}&date_end=${t.dateEnd}`,
    priceListDate: `/v2/product-types/${t.productType}/price-lists/${t.date}`,
    bookings: "/v2/bookings?per_page=10",
    config: "/v2/config",
  };
  return BENCH_REQUESTS.map((r) => `${baseUrl}${paths[r]}`);
}

/** The marker of the line bench/k6/checks-cost.ts logs for bench/harness.ts: µs per checkResponse, by endpoint. */
export const CHECKS_COST_MARKER = "atd-bench-checks-cost ";
