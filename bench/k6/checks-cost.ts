/**
 * bench:harness, the shared checks alone: one answer of each endpoint the client path asks for, fetched once, then
 * checked with checkResponse CHECKS_COST_ANSWERS times over in one VU with no request in between. What the checks
 * cost per answer (shape and cheap-rule samples included, as a long run takes them), free of the network's and the
 * service's noise that the requests-per-CPU-second ratio carries. Logs one line for bench/harness.ts.
 */
import { checkResponse } from "../../lib/k6/checks.ts";
import type { ApiResponse } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import { partnerClient } from "../../lib/k6/partner.ts";
import { CHECKS_COST_MARKER, type BenchTargets } from "./requests.ts";

const config = loadConfig(__ENV);
const targets = JSON.parse(__ENV.BENCH_TARGETS ?? "{}") as BenchTargets;
const ANSWERS = Number(__ENV.CHECKS_COST_ANSWERS ?? "4000");

export const options = { vus: 1, iterations: 1 };

export default function checksCost(): void {
  const client = partnerClient(config, 0);
  const answers: ApiResponse<unknown>[] = [
    client.listProducts({ page: 1, per_page: 10 }),
    client.getProduct(targets.product),
    client.listProductTypes(targets.product),
    client.getProductType(targets.productType),
    client.getPriceList(targets.productType, targets.date, targets.dateEnd),
    client.getPriceForDate(targets.productType, targets.date),
    client.listBookings({ per_page: 10 }),
    client.getConfig(),
  ];
  // Parsed before the clock starts: the journeys read these answers anyway, so parsing is not the checks' cost.
  const unusable = answers.find((res) => res.body === undefined);
  if (unusable) throw new Error(`Failed to measure the checks' cost: ${unusable.endpoint} answered no JSON body.`);
  const micros: Record<string, number> = {};
  for (const res of answers) {
    const started = Date.now();
    for (let i = 0; i < ANSWERS; i++) checkResponse(res);
    micros[res.endpoint] = ((Date.now() - started) * 1000) / ANSWERS;
  }
  console.log(`${CHECKS_COST_MARKER}${JSON.stringify(micros)}`);
}
