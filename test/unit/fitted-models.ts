/** Small fitted models for the replay's and the model check's tests (the format: lib/contract/fitted-traffic.ts). */
import type { FittedPersona, FittedTraffic } from "../../lib/contract/fitted-traffic.ts";

const think = (medianSeconds: number, sigma = 0.5): FittedPersona["thinkTime"] => ({
  distribution: "lognormal",
  mu: Math.log(medianSeconds),
  sigma,
  medianSeconds,
  observedMedianSeconds: medianSeconds,
  samples: 100,
  ksStatistic: 0.02,
});

/** A shopper (calendar, then single dates), a booker and a partner that only polls booking details. */
export function fittedModel(overrides: Partial<FittedTraffic> = {}): FittedTraffic {
  return {
    personas: [
      {
        name: "shopper",
        share: 0.5,
        sessions: 500,
        meanCalls: 3,
        start: { priceList: 1 },
        transitions: {
          priceList: { priceListDate: 0.9, end: 0.1 },
          priceListDate: { priceListDate: 0.5, end: 0.5 },
        },
        thinkTime: think(0.02),
      },
      {
        name: "booker",
        share: 0.3,
        sessions: 300,
        meanCalls: 4,
        start: { priceListDate: 1 },
        transitions: {
          priceListDate: { bookingCreate: 0.8, end: 0.2 },
          bookingCreate: { bookingConfirm: 0.75, end: 0.25 },
          bookingConfirm: { booking: 1 },
          booking: { end: 1 },
        },
        thinkTime: think(0.01),
      },
      {
        name: "cluster-3",
        share: 0.2,
        sessions: 200,
        meanCalls: 3,
        start: { booking: 1 },
        transitions: { booking: { booking: 0.6, end: 0.4 } },
        thinkTime: think(0.05, 0.3),
      },
    ],
    arrival: { start: "2026-11-26T00:00:00Z", bucketSeconds: 60, sessionsPerSecond: [1, 2, 4, 2] },
    endpointMix: {},
    keySkew: { keys: 10, topDecileShare: 0.2, gini: 0.1 },
    conversion: { createdPerSession: 0.2, confirmedPerCreated: 0.75, cancelledPerCreated: 0 },
    throttledShare: 0,
    source: { files: ["access.log"], lines: 1000, malformed: 0, kept: 1000, sessions: 1000 },
    ...overrides,
  };
}
