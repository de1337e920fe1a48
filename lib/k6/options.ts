/** Builds a scenario's k6 options from the config: the profile's executor and the thresholds of the SLO table. */
import type { Options } from "k6/options";
import type { EndpointName } from "../contract/index.ts";
import type { K6Config } from "./config.ts";
import { expectedIterations, profileNamed } from "./profiles.ts";
import { DEFAULT_SLO, mergeSlo, thresholdsFor, type SloTable } from "./slo.ts";

/** The SLO table with the run's override file applied (k6's open() reads files in the init context only). */
export function loadSlo(config: K6Config): SloTable {
  if (!config.sloFile) return DEFAULT_SLO;
  let parsed: unknown;
  try {
    parsed = JSON.parse(open(config.sloFile));
  } catch (error) {
    throw new Error(`Failed to read the SLO file ${config.sloFile}: ${String(error)}. Please give a JSON file.`);
  }
  return mergeSlo(DEFAULT_SLO, parsed, `SLO file ${config.sloFile}`);
}

export function scenarioOptions(
  config: K6Config,
  scenario: { name: string; exec?: string; endpoints: readonly EndpointName[] },
): Options {
  const profile = profileNamed(config.profile).scenario(config.duration);
  return {
    scenarios: { [scenario.name]: { ...profile, exec: scenario.exec ?? "default" } },
    thresholds: thresholdsFor(scenario.endpoints, loadSlo(config), expectedIterations(profile)),
    // count: per-endpoint request counts (the observed mix) come from the per-endpoint duration sub-metrics.
    summaryTrendStats: ["avg", "min", "med", "max", "p(90)", "p(95)", "p(99)", "count"],
  };
}
