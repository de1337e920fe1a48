/**
 * bench:harness, the harness side: the requests partner-mix's journeys make, through the harness's client path
 * (typed client, endpoint tags, the shared checks), as fast as the VUs can go. List answers are read the way the
 * journeys read them: an item of a product, product-type or booking list (itemAt, one item read in Go), the
 * available dates of a price list (valuesWhere: one gjson query in Go, unless a sampled shape check parsed the body).
 *
 * BENCH_STEP stops the path early, for the breakdown (BENCH_BREAKDOWN=1 in bench/harness.ts): "client" sends through
 * the client and reads nothing, "checks" adds the shared checks, "full" (the default) adds the reading.
 */
import exec from "k6/execution";
import { checkResponse } from "../../lib/k6/checks.ts";
import type { ApiResponse, Json } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import { partnerClient } from "../../lib/k6/partner.ts";
import { BENCH_REQUESTS, type BenchTargets } from "./requests.ts";

const config = loadConfig(__ENV);
const targets = JSON.parse(__ENV.BENCH_TARGETS ?? "{}") as BenchTargets;

const STEP = __ENV.BENCH_STEP ?? "full";
const CHECKS = STEP !== "client";
const READS = STEP === "full";

export const options = { summaryTrendStats: ["count"] };

function check(res: ApiResponse<unknown>): boolean {
  return CHECKS && checkResponse(res);
}

/** What catalogue sync and back office do with a list: check it, then take an item of it. */
function pick(res: ApiResponse<Json[]>, n: number): Json | undefined {
  return check(res) && READS ? res.itemAt(n) : undefined;
}

/** What the shopper does with a price list: check it, then read the dates that are available. */
function availableDates(res: ApiResponse<Json[]>): string[] {
  if (!check(res) || !READS) return [];
  return res.valuesWhere("available", "date").map(String);
}

export default function clientPath(): void {
  const n = exec.scenario.iterationInTest;
  const client = partnerClient(config, n);
  const request = BENCH_REQUESTS[n % BENCH_REQUESTS.length];
  if (!request) return;
  switch (request) {
    case "products":
      pick(client.listProducts({ page: 1, per_page: 10 }), n);
      break;
    case "product":
      check(client.getProduct(targets.product));
      break;
    case "productTypes":
      pick(client.listProductTypes(targets.product), n);
      break;
    case "productType":
      check(client.getProductType(targets.productType));
      break;
    case "priceList":
      availableDates(client.getPriceList(targets.productType, targets.date, targets.dateEnd));
      break;
    case "priceListDate":
      check(client.getPriceForDate(targets.productType, targets.date));
      break;
    case "bookings":
      pick(client.listBookings({ per_page: 10 }), n);
      break;
    case "config":
      check(client.getConfig());
      break;
  }
}
