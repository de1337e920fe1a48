/**
 * The realistic partner mix: catalogue-sync partners, shoppers, bookers and back offices in the traffic model's
 * proportions, across the six rate-limited GET endpoints and the booking flow. The main load test.
 */
import type { CatalogueSample } from "../lib/k6/traffic/catalogue-sample.ts";
import { loadConfig } from "../lib/k6/config.ts";
import { loadTrafficModel } from "../lib/k6/traffic/load.ts";
import { trafficScenario } from "../lib/k6/traffic/scenario.ts";

const config = loadConfig(__ENV);
// The one scenario that follows a fitted arrival curve (--arrival-curve).
const scenario = trafficScenario("partner_mix", config, loadTrafficModel(config), true);

export const options = scenario.options;
export const setup = scenario.setup;
export default function partnerMix(sample: CatalogueSample): void {
  scenario.iteration(sample);
}

export { handleSummary } from "../lib/k6/summary.ts";
