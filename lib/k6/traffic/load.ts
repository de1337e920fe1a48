/**
 * The run's traffic model: the whole model as the harness merged and wrote it (the run directory's traffic.json,
 * ATD_TRAFFIC_FILE), read as is in the init context; the defaults without one.
 */
import type { EndpointName } from "../../contract/index.ts";
import type { K6Config } from "../config.ts";
import {
  DEFAULT_TRAFFIC_MODEL,
  expectedCallsPerJourney,
  type Persona,
  type TrafficModel,
} from "../../contract/traffic-model.ts";
import { fittedEndpoints } from "../../contract/fitted-traffic-mix.ts";

export function loadTrafficModel(config: K6Config, only?: Persona): TrafficModel {
  const model = config.trafficFile ? readMergedModel(config.trafficFile) : DEFAULT_TRAFFIC_MODEL;
  if (!only) return model;
  // A single-persona scenario: the same journey settings, all the weight on one persona (the built-in journey, not
  // a fitted model's chains).
  const weights = { catalogueSync: 0, shopper: 0, booker: 0, backOffice: 0, [only]: 1 };
  const { fitted: _fitted, ...journeys } = model;
  return { ...journeys, weights };
}

/** The merged model the harness wrote (lib/harness/run/run-state.ts): checked and merged there, not again here. */
function readMergedModel(file: string): TrafficModel {
  try {
    return JSON.parse(open(file)) as TrafficModel;
  } catch (error) {
    throw new Error(`Failed to read the traffic model ${file}: ${String(error)}. Please run k6 through the harness.`);
  }
}

/** The endpoints the model's personas call (weight > 0): the scenario's per-endpoint thresholds. */
export function endpointsOf(model: TrafficModel): EndpointName[] {
  if (model.fitted) return fittedEndpoints(model.fitted);
  // Which endpoints, not how often: any catalogue size names the same ones.
  const calls = expectedCallsPerJourney(model, 0);
  const endpoints = new Set<EndpointName>();
  for (const [persona, weight] of Object.entries(model.weights) as [Persona, number][]) {
    if (weight > 0) for (const endpoint of Object.keys(calls[persona]) as EndpointName[]) endpoints.add(endpoint);
  }
  return [...endpoints];
}
