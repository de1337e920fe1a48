/**
 * Smoke: does it work at all. Lists products and reads one product's detail, checking status, envelopes, the
 * exact key sets of spec 2.1 and 2.2 and the rate-limit headers.
 */
import exec from "k6/execution";
import { checkResponse } from "../lib/k6/checks.ts";
import { loadConfig } from "../lib/k6/config.ts";
import { scenarioOptions } from "../lib/k6/options.ts";
import { partnerClient } from "../lib/k6/partner.ts";
import { onProductsPage, readListed } from "../lib/k6/traffic/listed-read.ts";

const config = loadConfig(__ENV);

export const options = scenarioOptions(config, { name: "smoke", endpoints: ["products", "product"] });

export default function smoke(): void {
  const n = exec.scenario.iterationInTest;
  const client = partnerClient(config, n);
  const list = client.listProducts({ page: 1, per_page: 10 });
  if (!checkResponse(list)) return;
  const items = list.data ?? [];
  const pick = items[n % Math.max(items.length, 1)];
  if (!pick || typeof pick.uuid !== "string") return;
  // Listed a moment ago, it may be withdrawn since: 404 not_found or 410 gone pass once the list confirms it.
  const uuid = pick.uuid;
  readListed(() => client.getProduct(uuid), onProductsPage(client, 1, 10, uuid));
}

export { handleSummary } from "../lib/k6/summary.ts";
