/**
 * Smoke: the walking skeleton's scenario. Lists products and reads one product's detail, checking status,
 * envelopes, the exact key sets of spec 2.1 and 2.2 and the rate-limit headers.
 */
import { PRODUCT_DETAIL_FORBIDDEN_KEYS, PRODUCT_DETAIL_KEYS, PRODUCT_LIST_ITEM_KEYS } from "../lib/contract/index.ts";
import { checkDetail, checkList, checkRateLimitHeaders, checkStatus } from "../lib/k6/checks.ts";
import { loadConfig } from "../lib/k6/config.ts";
import { scenarioOptions } from "../lib/k6/options.ts";
import { partnerClient } from "../lib/k6/partner.ts";

const config = loadConfig(__ENV);

export const options = scenarioOptions(config, { name: "smoke", endpoints: ["products", "product"] });

export default function smoke(): void {
  const client = partnerClient(config);
  const list = client.listProducts({ page: 1, per_page: 10 });
  checkRateLimitHeaders(list);
  if (!checkStatus(list, 200) || !checkList(list, PRODUCT_LIST_ITEM_KEYS)) return;

  const items = list.data ?? [];
  const pick = items[Math.floor(Math.random() * items.length)];
  if (!pick || typeof pick.uuid !== "string") return;
  const detail = client.getProduct(pick.uuid);
  checkRateLimitHeaders(detail);
  if (checkStatus(detail, 200)) checkDetail(detail, PRODUCT_DETAIL_KEYS, PRODUCT_DETAIL_FORBIDDEN_KEYS);
}

export { handleSummary } from "../lib/k6/summary.ts";
