/** The run's traffic model: the defaults with the ATD_TRAFFIC_FILE override applied (read in the init context). */
import type { EndpointName } from "../../contract/index.ts";
import type { K6Config } from "../config.ts";
import {
  DEFAULT_TRAFFIC_MODEL,
  expectedCallsPerJourney,
  mergeTrafficModel,
  type Persona,
  type TrafficModel,
} from "../../contract/traffic-model.ts";

export function loadTrafficModel(config: K6Config, only?: Persona): TrafficModel {
  let model = DEFAULT_TRAFFIC_MODEL;
  if (config.trafficFile) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(open(config.trafficFile));
    } catch (error) {
      throw new Error(
        `Failed to read the traffic file ${config.trafficFile}: ${String(error)}. Please give a JSON file.`,
      );
    }
    model = mergeTrafficModel(model, parsed, config.trafficFile);
  }
  if (!only) return model;
  // A single-persona scenario: the same journey settings, all the weight on one persona.
  const weights = { catalogueSync: 0, shopper: 0, booker: 0, backOffice: 0, [only]: 1 };
  return { ...model, weights };
}

/** The endpoints the model's personas call (weight > 0): the scenario's per-endpoint thresholds. */
export function endpointsOf(model: TrafficModel): EndpointName[] {
  // Which endpoints, not how often: any catalogue size names the same ones.
  const calls = expectedCallsPerJourney(model, 0);
  const endpoints = new Set<EndpointName>();
  for (const [persona, weight] of Object.entries(model.weights) as [Persona, number][]) {
    if (weight > 0) for (const endpoint of Object.keys(calls[persona]) as EndpointName[]) endpoints.add(endpoint);
  }
  return [...endpoints];
}
