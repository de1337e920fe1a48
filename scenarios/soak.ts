/**
 * Soak: the partner mix at a constant open-model rate for a long time (the soak profile, whatever --profile says;
 * --duration compresses it for CI). The scenario itself is plain partner-mix traffic: what makes it a soak is the
 * harness's soak extension (lib/harness/soak), which scrapes the service during the run and judges drift afterwards.
 */
import type { CatalogueSample } from "../lib/k6/traffic/catalogue-sample.ts";
import { loadConfig } from "../lib/k6/config.ts";
import { loadTrafficModel } from "../lib/k6/traffic/load.ts";
import { trafficScenario } from "../lib/k6/traffic/scenario.ts";

const config = { ...loadConfig(__ENV), profile: "soak" };
const scenario = trafficScenario("soak", config, loadTrafficModel(config));

export const options = scenario.options;
export const setup = scenario.setup;
export default function soak(sample: CatalogueSample): void {
  scenario.iteration(sample);
}

export { handleSummary } from "../lib/k6/summary.ts";
