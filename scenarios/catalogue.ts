/**
 * Catalogue sync alone: a partner mirroring the catalogue pages through products and reads details, product types
 * and price calendars.
 */
import type { CatalogueSample } from "../lib/k6/traffic/catalogue-sample.ts";
import { loadConfig } from "../lib/k6/config.ts";
import { loadTrafficModel } from "../lib/k6/traffic/load.ts";
import { trafficScenario } from "../lib/k6/traffic/scenario.ts";

const config = loadConfig(__ENV);
const scenario = trafficScenario("catalogue", config, loadTrafficModel(config, "catalogueSync"));

export const options = scenario.options;
export const setup = scenario.setup;
export default function catalogue(sample: CatalogueSample): void {
  scenario.iteration(sample);
}

export { handleSummary } from "../lib/k6/summary.ts";
