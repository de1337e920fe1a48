import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COVERAGE_LEVELS,
  decodeK6Env,
  encodeK6Env,
  K6_ENV,
  K6EnvError,
  RATE_LIMIT_ALGORITHMS,
  RATE_OUTSIDE_LIST,
  type K6Settings,
} from "../../lib/contract/index.ts";
import type { ControlProductType } from "../../lib/contract/product-type-discovery.ts";
import { MAX_CAPACITY_RATE } from "../../lib/contract/profiles.ts";

/** What the wire carries as it is: trimmed, no comma (the list separator), not empty. */
const word = fc.stringMatching(/^[A-Za-z0-9._:/-]{1,12}$/);
const url = fc
  .stringMatching(/^[a-z0-9]{1,10}(\.[a-z0-9]{1,5})?(:[0-9]{2,5})?(\/[a-z0-9]{1,6})?$/)
  .map((h) => `http://${h}`);
const seconds = fc.double({ min: 0.001, max: 86_400, noNaN: true, noDefaultInfinity: true });
const duration = fc.constantFrom("30s", "5m", "1h30m", "250ms", "1.5s");

const productType: fc.Arbitrary<ControlProductType> = fc.record({
  uuid: word,
  productUuid: word,
  available: fc.boolean(),
  timeslots: fc.array(word, { maxLength: 3 }),
  instantConfirmation: fc.boolean(),
  daysInAdvance: fc.nat(30),
  minPax: fc.integer({ min: 1, max: 5 }),
  maxPax: fc.integer({ min: 1, max: 50 }),
  categories: fc.array(word, { minLength: 1, maxLength: 3 }),
  requiredOptions: fc.array(fc.record({ uuid: word, type: word, values: fc.array(word, { maxLength: 2 }) }), {
    maxLength: 2,
  }),
});

/** Capacity rates as the protocol carries them: whole, increasing, within the allowed range. */
const capacityRates = fc
  .uniqueArray(fc.integer({ min: 1, max: MAX_CAPACITY_RATE }), { minLength: 1, maxLength: 12 })
  .map((rates) => rates.sort((a, b) => a - b));

const settings: fc.Arbitrary<K6Settings> = fc.record(
  {
    baseUrl: url,
    apiKeys: fc.array(word, { minLength: 1, maxLength: 5 }),
    keysBySegment: fc.boolean(),
    profile: word,
    duration,
    requestTimeout: duration,
    summaryPath: word,
    sloFile: word,
    trafficFile: word,
    rateWindowSeconds: seconds,
    rateAlgorithm: fc.constantFrom(...RATE_LIMIT_ALGORITHMS),
    rateOutsideList: fc.constantFrom(...RATE_OUTSIDE_LIST),
    capacityRates,
    recordExpectations: fc.boolean(),
    controlUrl: url,
    controlToken: word,
    hotSet: fc.array(productType, { maxLength: 3 }),
    harnessKey: word,
    alternativesKeys: fc.array(fc.nat(20), { maxLength: 4 }),
    reservationHoldSeconds: seconds,
    maxRps: fc.integer({ min: 1, max: 100_000 }),
    coverageLevel: fc.constantFrom(...COVERAGE_LEVELS),
  },
  { requiredKeys: ["baseUrl", "apiKeys"] },
);

describe("the typed k6 protocol", () => {
  it("should decode what it encodes, for any settings", () => {
    fc.assert(
      fc.property(settings, (s) => {
        expect(decodeK6Env(encodeK6Env(s))).toEqual(s);
      }),
      { numRuns: 300 },
    );
  });

  it("should keep the variable names the k8s manifests and docs use", () => {
    const env = encodeK6Env({
      baseUrl: "http://127.0.0.1:8080",
      apiKeys: ["a", "b"],
      keysBySegment: true,
      capacityRates: [500, 1000],
      recordExpectations: true,
      alternativesKeys: [0, 2],
      maxRps: 5,
    });
    expect(env).toEqual({
      ATD_BASE_URL: "http://127.0.0.1:8080",
      ATD_API_KEYS: "a,b",
      ATD_KEYS_BY_SEGMENT: "1",
      ATD_CAPACITY_RATES: "500,1000",
      ATD_RECORD_EXPECTATIONS: "1",
      ATD_ALTERNATIVES_KEYS: "0,2",
      ATD_MAX_RPS: "5",
    });
    expect(Object.keys(env).every((name) => (Object.values(K6_ENV) as string[]).includes(name))).toBe(true);
  });

  it("should refuse a variable k6 cannot use with a typed one-line error naming it", () => {
    const base = { ATD_BASE_URL: "http://x", ATD_API_KEYS: "a" };
    expect(() => decodeK6Env({ ...base, ATD_MAX_RPS: "0.5" })).toThrow(K6EnvError);
    expect(() => decodeK6Env({ ...base, ATD_MAX_RPS: "0.5" })).toThrow(/^Failed to configure the run: ATD_MAX_RPS=/);
    expect(() => decodeK6Env({ ...base, ATD_HOT_SET: "{" })).toThrow(/ATD_HOT_SET is not JSON/);
    expect(() => decodeK6Env({ ATD_API_KEYS: "a" })).toThrow(/ATD_BASE_URL is not set/);
  });
});
