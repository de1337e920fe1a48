/**
 * Capacity: one single-date price request per iteration (the call partners make right before booking, and the
 * endpoint `npm run bench:service` measures), no think time, keys spread round-robin over every key of the run, at
 * the capacity profile's stepped arrival rates whatever --profile says. The harness's capacity analysis
 * (lib/harness/capacity) cuts k6's raw samples into the steps and finds the knee.
 *
 * No thresholds and no checks: past the knee the SLO breaks on purpose, and the analysis judges each step against the
 * SLO table itself. Errors still count: k6's http_req_failed marks every unexpected status.
 * The rate limit must not cap the run: against the embedded service pass --service-args "--rate-limit 1000000".
 */
import exec from "k6/execution";
import type { Options } from "k6/options";
import { addDays, todayUtc } from "../lib/contract/index.ts";
import { loadConfig } from "../lib/k6/config.ts";
import { rateCapOption } from "../lib/k6/options.ts";
import { partnerClient, setupClient } from "../lib/k6/partner.ts";
import { arrivalOf } from "../lib/contract/profiles.ts";

const config = { ...loadConfig(__ENV), profile: "capacity" };

export const options: Options = {
  // Its own profile's executor with --capacity-rates, derived as the harness's plan derives it (arrivalOf).
  scenarios: { capacity: { ...arrivalOf("capacity", config).arrival, exec: "default" } },
  summaryTrendStats: ["avg", "min", "med", "max", "p(90)", "p(95)", "p(99)", "count"],
  // Nothing reads a load answer's body: k6 then neither keeps it nor hands it to the script. setup()'s client asks
  // for its bodies per request (lib/k6/client.ts).
  discardResponseBodies: true,
  ...rateCapOption(config),
};

interface Target {
  productTypeUuid: string;
  dates: string[];
}

/** One product type and a week of bookable dates: every request is a comparable unit of work. */
export function setup(): Target {
  const client = setupClient(config, 0);
  const products = client.listProducts({ page: 1, per_page: 10 });
  for (const product of products.data ?? []) {
    const types = client.listProductTypes(String(product.uuid));
    const type = types.data?.[0];
    if (!type) continue;
    const detail = client.getProductType(String(type.uuid));
    const lead = typeof detail.data?.daysInAdvance === "number" ? detail.data.daysInAdvance : 0;
    const start = addDays(todayUtc(), lead + 1);
    return { productTypeUuid: String(type.uuid), dates: Array.from({ length: 7 }, (_, i) => addDays(start, i)) };
  }
  throw new Error("Failed to prepare the capacity run: no product type could be read. Please check the target.");
}

/**
 * The VU's k6/execution scenario object. Each read of exec.scenario builds a new one in k6 (5% of k6's CPU in this
 * scenario); its getters read the VU's state when called, so one object per VU gives every iteration's number.
 */
let scenario: typeof exec.scenario | undefined;

export default function capacity(target: Target): void {
  scenario ??= exec.scenario;
  const n = scenario.iterationInTest;
  partnerClient(config, n).getPriceForDate(target.productTypeUuid, target.dates[n % target.dates.length] as string);
}

export { handleSummary } from "../lib/k6/summary.ts";
