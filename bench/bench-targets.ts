/** What the benches' k6 scripts request (bench/k6/requests.ts): found once through the service's own API. */
import { addDays, todayUtc } from "../lib/contract/index.ts";
import type { BenchTargets } from "./k6/requests.ts";

/** The first product the service lists, its first product type, a date ahead. */
export async function benchTargets(apiUrl: string, key: string): Promise<BenchTargets> {
  const products = (await (
    await fetch(`${apiUrl}/v2/products?per_page=1`, { headers: { "X-Authorization": key } })
  ).json()) as { data: { uuid: string }[] };
  const product = products.data[0]?.uuid ?? "";
  const types = (await (
    await fetch(`${apiUrl}/v2/products/${product}/product-types`, {
      headers: { "X-Authorization": key },
    })
  ).json()) as { data: { uuid: string }[] };
  const date = addDays(todayUtc(), 10);
  return { product, productType: types.data[0]?.uuid ?? "", date, dateEnd: addDays(date, 13) };
}
