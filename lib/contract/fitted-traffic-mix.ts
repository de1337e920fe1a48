/**
 * What a fitted model (fitted-traffic.ts) predicts of a run that walks it: the calls each persona's chain makes per
 * session (its expected visits, the chain cut at MAX_FITTED_SESSION_CALLS as the walk cuts it), the endpoint mix of the
 * whole traffic, and the endpoints it calls. The dry run shows the mix; `harness model check` judges a run against it.
 */
import type { EndpointName } from "./endpoints.ts";
import { SESSION_END, type FittedPersona, type FittedTraffic } from "./fitted-traffic.ts";

/**
 * The most calls one replayed session makes, whatever its chain says: a chain whose rows rarely end (a partner
 * polling all day) would otherwise make one iteration run for the whole test. Logged sessions longer than this are
 * rare (a full catalogue sync of a large catalogue); the cut is part of the prediction, so the check stays fair.
 */
export const MAX_FITTED_SESSION_CALLS = 100;

export type EndpointCalls = Partial<Record<EndpointName, number>>;

/** Expected calls per endpoint of one session of the persona: the chain's state distribution summed over its steps. */
export function expectedSessionCalls(persona: FittedPersona): EndpointCalls {
  const visits: EndpointCalls = {};
  let state: EndpointCalls = { ...persona.start };
  for (let step = 0; step < MAX_FITTED_SESSION_CALLS; step++) {
    const next: EndpointCalls = {};
    let mass = 0;
    for (const [from, p] of Object.entries(state) as [EndpointName, number][]) {
      visits[from] = (visits[from] ?? 0) + p;
      for (const [to, q] of Object.entries(persona.transitions[from] ?? {})) {
        if (to === SESSION_END) continue;
        next[to as EndpointName] = (next[to as EndpointName] ?? 0) + p * q;
        mass += p * q;
      }
    }
    // What is left is too little to change a share in the fourth decimal.
    if (mass < 1e-9) break;
    state = next;
  }
  return visits;
}

/** Expected calls per endpoint of one session, the personas drawn in their shares. */
export function fittedCallsPerSession(fitted: FittedTraffic): EndpointCalls {
  const calls: EndpointCalls = {};
  for (const persona of fitted.personas) {
    for (const [endpoint, n] of Object.entries(expectedSessionCalls(persona)) as [EndpointName, number][]) {
      calls[endpoint] = (calls[endpoint] ?? 0) + persona.share * n;
    }
  }
  return calls;
}

/** The share of all calls each endpoint should get when the personas are walked in their shares. */
export function fittedEndpointMix(fitted: FittedTraffic): EndpointCalls {
  const calls = fittedCallsPerSession(fitted);
  const total = Object.values(calls).reduce((a, b) => a + b, 0);
  return Object.fromEntries(Object.entries(calls).map(([e, n]) => [e, total > 0 ? n / total : 0]));
}

/** The endpoints the fitted personas with a share call: the scenario's per-endpoint thresholds. */
export function fittedEndpoints(fitted: FittedTraffic): EndpointName[] {
  const endpoints = new Set<EndpointName>();
  for (const persona of fitted.personas) {
    if (persona.share <= 0) continue;
    for (const [endpoint, n] of Object.entries(expectedSessionCalls(persona)) as [EndpointName, number][]) {
      if (n > 0) endpoints.add(endpoint);
    }
  }
  return [...endpoints];
}

/** Mean seconds of one session (calls times the log-normal's mean think time), weighted by share: sizes the VUs. */
export function meanSessionSeconds(fitted: FittedTraffic): number {
  let seconds = 0;
  for (const persona of fitted.personas) {
    const calls = Object.values(expectedSessionCalls(persona)).reduce((a, b) => a + b, 0);
    const { mu, sigma } = persona.thinkTime;
    seconds += persona.share * calls * Math.exp(mu + (sigma * sigma) / 2);
  }
  return seconds;
}
