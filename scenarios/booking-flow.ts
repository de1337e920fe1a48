/**
 * The booking funnel alone: single-date check, create, confirm, and the share cancelled or left to expire, with the
 * traffic model's conversion ratios.
 */
import type { CatalogueSample } from "../lib/k6/traffic/catalogue-sample.ts";
import { loadConfig } from "../lib/k6/config.ts";
import { loadTrafficModel } from "../lib/k6/traffic/load.ts";
import { trafficScenario } from "../lib/k6/traffic/scenario.ts";

const config = loadConfig(__ENV);
const scenario = trafficScenario("booking_flow", config, loadTrafficModel(config, "booker"));

export const options = scenario.options;
export const setup = scenario.setup;
export default function bookingFlow(sample: CatalogueSample): void {
  scenario.iteration(sample);
}

export { handleSummary } from "../lib/k6/summary.ts";
