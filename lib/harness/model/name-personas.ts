/**
 * Names a cluster after the built-in persona whose journey it is: the cluster's sessions mostly start with that
 * journey's first call, and its calls stay within the endpoints the journey makes (expectedCallsPerJourney of the
 * default model; any endpoint above NAMING_OUTSIDE_SHARE of the cluster's calls outside them rules it out). Clusters
 * named alike are one persona (a journey's short and long variants). Of the rest, clusters with the same first call
 * and the same endpoints (each above NAMING_OUTSIDE_SHARE of its calls) are one persona too: they differ in depth
 * alone, which the persona's Markov chain holds (its end probabilities); they are cluster-1, cluster-2, ...
 */
import type { EndpointName } from "../../contract/endpoints.ts";
import {
  DEFAULT_TRAFFIC_MODEL,
  expectedCallsPerJourney,
  PERSONAS,
  type Persona,
} from "../../contract/traffic-model.ts";

/** Each built-in journey's first call (lib/k6/traffic/journeys.ts), which tells journeys with shared endpoints apart. */
export const JOURNEY_FIRST_CALL: Readonly<Record<Persona, EndpointName>> = {
  catalogueSync: "products",
  shopper: "priceList",
  booker: "priceListDate",
  backOffice: "bookings",
};

/** Share of a cluster's calls outside a journey's endpoints that still counts as noise (retries, a stray read). */
export const NAMING_OUTSIDE_SHARE = 0.02;
/** Share of a cluster's sessions that must start with the journey's first call. */
export const NAMING_FIRST_CALL_SHARE = 0.5;

export interface ClusterProfile {
  /** Calls per endpoint over the cluster's sessions. */
  calls: Partial<Record<EndpointName, number>>;
  /** Sessions per first call. */
  firsts: Partial<Record<EndpointName, number>>;
}

/** The built-in persona this cluster is, or undefined. */
export function personaOf(cluster: ClusterProfile): Persona | undefined {
  // The catalogue's size only changes how many products pages a full sync reads, not which endpoints it calls.
  const journeys = expectedCallsPerJourney(DEFAULT_TRAFFIC_MODEL, 1);
  const calls = Object.values(cluster.calls).reduce((a, b) => a + b, 0);
  const sessions = Object.values(cluster.firsts).reduce((a, b) => a + b, 0);
  if (calls === 0 || sessions === 0) return undefined;
  return PERSONAS.find((persona) => {
    const made = journeys[persona];
    const outside = Object.entries(cluster.calls)
      .filter(([endpoint]) => (made[endpoint as EndpointName] ?? 0) <= 0)
      .reduce((a, [, n]) => a + n, 0);
    const starts = cluster.firsts[JOURNEY_FIRST_CALL[persona]] ?? 0;
    return outside / calls <= NAMING_OUTSIDE_SHARE && starts / sessions >= NAMING_FIRST_CALL_SHARE;
  });
}

/** What an unnamed cluster is by: its usual first call and the endpoints it calls (noise left out). */
export function shapeOf(cluster: ClusterProfile): string {
  const calls = Object.values(cluster.calls).reduce((a, b) => a + b, 0);
  const first = Object.entries(cluster.firsts).sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
  const endpoints = Object.entries(cluster.calls)
    .filter(([, n]) => n / calls > NAMING_OUTSIDE_SHARE)
    .map(([e]) => e)
    .sort();
  return `${first}:${endpoints.join(",")}`;
}
