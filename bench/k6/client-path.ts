/**
 * bench:harness, the harness side: the requests partner-mix's journeys make, through the harness's client path
 * (typed client, endpoint tags, the shared checks), as fast as the VUs can go. List answers are read the way the
 * journeys read them (they pick items from the data), so their bodies are parsed every time.
 */
import exec from "k6/execution";
import { checkResponse } from "../../lib/k6/checks.ts";
import type { ApiResponse, Json } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import { partnerClient } from "../../lib/k6/partner.ts";
import { BENCH_REQUESTS, type BenchTargets } from "./requests.ts";

const config = loadConfig(__ENV);
const targets = JSON.parse(__ENV.BENCH_TARGETS ?? "{}") as BenchTargets;

export const options = { summaryTrendStats: ["count"] };

/** What a journey does with a list: check it, then take an item from its data. */
function pick(res: ApiResponse<Json[]>): Json | undefined {
  return checkResponse(res) ? res.data?.[0] : undefined;
}

export default function clientPath(): void {
  const n = exec.scenario.iterationInTest;
  const client = partnerClient(config, n);
  const request = BENCH_REQUESTS[n % BENCH_REQUESTS.length];
  if (!request) return;
  switch (request) {
    case "products":
      pick(client.listProducts({ page: 1, per_page: 10 }));
      break;
    case "product":
      checkResponse(client.getProduct(targets.product));
      break;
    case "productTypes":
      pick(client.listProductTypes(targets.product));
      break;
    case "productType":
      checkResponse(client.getProductType(targets.productType));
      break;
    case "priceList":
      pick(client.getPriceList(targets.productType, targets.date, targets.dateEnd));
      break;
    case "priceListDate":
      checkResponse(client.getPriceForDate(targets.productType, targets.date));
      break;
    case "bookings":
      pick(client.listBookings({ per_page: 10 }));
      break;
    case "config":
      checkResponse(client.getConfig());
      break;
  }
}
