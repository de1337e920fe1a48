import { describe, expect, it } from "vitest";
import { RATE_LIMITED_ENDPOINTS, type EndpointName } from "../../lib/contract/index.ts";
import {
  PROFILES,
  average,
  smoke,
  soak,
  stress,
  capacityPlan,
  capacityScenario,
  expectedIterations,
  type Scenario,
} from "../../lib/contract/profiles.ts";
import { DEFAULT_TRAFFIC_MODEL, PERSONAS, expectedCallsPerJourney } from "../../lib/contract/traffic-model.ts";
import { requestEstimateLines } from "../../lib/harness/plan/plan-text.ts";
import {
  ASSUMED_CATALOGUE,
  arrivalFigures,
  callsPerIteration,
  callsPerJourney,
  estimateRequests,
  type CatalogueFacts,
} from "../../lib/harness/plan/request-estimate.ts";

/** Every date open, every booking approved at once: the model's own assumption. */
const everythingFound: CatalogueFacts = {
  source: "test",
  products: 200,
  sampleProductTypes: 36,
  bookableDateShare: 1,
  seedDateOpenShare: 1,
  instantConfirmationShare: 1,
};

const ramp = (startRate: number | undefined, stages: [number, string][], timeUnit = "1s"): Scenario => ({
  executor: "ramping-arrival-rate",
  startRate,
  timeUnit,
  preAllocatedVUs: 1,
  maxVUs: 1,
  stages: stages.map(([target, duration]) => ({ target, duration })),
});

describe("arrivalFigures", () => {
  it("should start one iteration per period of a constant rate from t = 0 to the end, both included", () => {
    expect(arrivalFigures(smoke.scenario("20s"))).toEqual({ seconds: 20, iterations: 101, peakPerSecond: 5 });
    expect(arrivalFigures(soak.scenario("90s"))).toEqual({
      seconds: 90,
      iterations: 1351,
      peakPerSecond: 15,
    });
    // 5/s for 1.1 s: at 0, 0.2, ..., 1.0 s.
    expect(arrivalFigures(smoke.scenario("1100ms")).iterations).toBe(6);
  });

  it("should integrate ramps linearly from the start rate, as k6's ramping-arrival-rate does", () => {
    // average: 1 -> 20 over 60 s (630), 20 for 300 s (6,000), 20 -> 0 over 30 s (300).
    expect(arrivalFigures(average.scenario(undefined))).toEqual({
      seconds: 390,
      iterations: 6930,
      peakPerSecond: 20,
    });
    // stress: 5 -> 80 over 120 s (5,100), 80 for 60 s (4,800), 80 -> 0 over 60 s (2,400).
    expect(arrivalFigures(stress.scenario("1m")).iterations).toBe(12_300);
  });

  it("should start from 0 without a start rate and count only whole iterations under the curve", () => {
    // 0 -> 3 over 1 s: an area of 1.5, and k6 starts the i-th iteration when the area reaches i.
    expect(arrivalFigures(ramp(undefined, [[3, "1s"]])).iterations).toBe(1);
    expect(
      arrivalFigures(
        ramp(0, [
          [3, "1s"],
          [3, "2s"],
        ]),
      ).iterations,
    ).toBe(7);
  });

  it("should read rates per time unit", () => {
    // 60 per minute is one per second: 1 -> 1 for 2 min.
    expect(arrivalFigures(ramp(60, [[60, "2m"]], "1m"))).toEqual({ seconds: 120, iterations: 120, peakPerSecond: 1 });
  });

  it("should agree with the profiles' planned iterations for every built-in profile", () => {
    for (const [name, profile] of Object.entries(PROFILES)) {
      const s = profile.scenario("30s");
      const whole = Math.floor(expectedIterations(s) + 1e-9);
      expect(arrivalFigures(s).iterations, name).toBe(s.executor === "constant-arrival-rate" ? whole + 1 : whole);
    }
  });

  it("should add up the capacity steps: warm-up, each ramp and each hold", () => {
    // 100/s warm-up 5 s (500), hold 10 s (1,000); ramp 100 -> 200 over 2 s (300), hold 10 s (2,000).
    const figures = arrivalFigures(capacityScenario("10s", [100, 200]));
    expect(figures).toEqual({ seconds: 27, iterations: 3800, peakPerSecond: 200 });
    const plan = capacityPlan("10s", [100, 200]);
    const held = plan.reduce((sum, step) => sum + step.rate * (step.holdTo - step.holdFrom), 0);
    expect(figures.iterations - held).toBe(500 + 300);
  });
});

describe("the per-endpoint mix", () => {
  it("should equal the model's expected calls when every lookup finds what it looks for", () => {
    const model = expectedCallsPerJourney(DEFAULT_TRAFFIC_MODEL, everythingFound.products);
    const ours = callsPerJourney(DEFAULT_TRAFFIC_MODEL, everythingFound);
    for (const persona of PERSONAS) {
      for (const [endpoint, n] of Object.entries(model[persona])) {
        expect(ours[persona][endpoint as EndpointName], `${persona} ${endpoint}`).toBeCloseTo(n, 10);
      }
    }
  });

  it("should stop bookers at unavailable dates and cancel only bookings approved at once", () => {
    const facts = { ...everythingFound, bookableDateShare: 0.5, instantConfirmationShare: 0.6 };
    const booker = callsPerJourney(DEFAULT_TRAFFIC_MODEL, facts).booker;
    // Half go on: create 0.8 / 2, confirm 0.75 of those; cancels: 0.2 of the rest, 0.1 of the approved confirmed.
    expect(booker.priceListDate).toBe(1);
    expect(booker.bookingCreate).toBeCloseTo(0.4, 10);
    expect(booker.bookingConfirm).toBeCloseTo(0.3, 10);
    expect(booker.booking).toBeCloseTo(0.3, 10);
    expect(booker.bookingCancel).toBeCloseTo(0.1 * 0.2 + 0.3 * 0.6 * 0.1, 10);
  });

  it("should weight the personas' calls by the model's weights", () => {
    const perIteration = callsPerIteration(DEFAULT_TRAFFIC_MODEL, everythingFound);
    // catalogueSync 8 calls and a full sync's 3 more pages (200 products, 50 a page) in one sync of ten, shopper 3,
    // booker 3.1, back office 4.
    const total = Object.values(perIteration).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(0.15 * (8 + 0.1 * 3) + 0.6 * 3 + 0.15 * 3.1 + 0.1 * 4, 10);
    expect(perIteration.priceListDate).toBeCloseTo(0.6 * 2 + 0.15 * 1, 10);
    expect(perIteration.bookings).toBeCloseTo(0.1, 10);
  });

  it("should give single-persona scenarios only their persona's endpoints", () => {
    const estimate = estimateRequests({
      scenarios: ["booking-flow", "catalogue"],
      profile: "smoke",
      keys: 4,
      catalogue: everythingFound,
    });
    const [booking, catalogue] = estimate.scenarios;
    expect(Object.keys(booking?.load ?? {}).sort()).toEqual(
      ["booking", "bookingCancel", "bookingConfirm", "bookingCreate", "priceListDate"].sort(),
    );
    expect(booking?.load.priceListDate).toBe(76);
    expect(Object.keys(catalogue?.load ?? {}).sort()).toEqual(
      ["priceList", "product", "productType", "productTypes", "products"].sort(),
    );
    // One sync in ten is full: it walks the 4 pages of 200 products, 50 a page.
    expect(catalogue?.load.products).toBeCloseTo(76 * (1 + 0.1 * 3), 10);
    // Neither has a back office: setup seeds no booking, it only walks the catalogue.
    expect(booking?.setup).toEqual({ products: 1, productTypes: 12, productType: 36 });
  });

  it("should count setup's catalogue walk and one seed booking per key for the partner mix", () => {
    const [mix] = estimateRequests({
      scenarios: ["partner-mix"],
      profile: "smoke",
      duration: "20s",
      keys: 40,
      catalogue: { ...everythingFound, seedDateOpenShare: 0.5 },
    }).scenarios;
    // Each key tries up to three dates: 1 + 0.5 + 0.25 checks, and books unless all three were closed.
    expect(mix?.setup).toEqual({
      products: 1,
      productTypes: 12,
      productType: 36,
      priceListDate: 40 * 1.75,
      bookingCreate: 40 * 0.875,
    });
    expect(mix?.iterations).toBe(101);
    expect(mix?.total).toBeCloseTo(1 + 12 + 36 + 70 + 35 + 101 * (3.865 + 0.15 * 0.1 * 3), 6);
    expect(mix?.ratePerSecond.priceListDate).toBeCloseTo((101 * 1.35) / 20, 10);
    // Bookers (0.15 of the iterations) create 0.8, confirm 0.6, cancel 0.2 of the 0.2 unconfirmed and 0.1 of the 0.6.
    expect(mix?.bookings?.created).toBeCloseTo(35 + 101 * 0.15 * 0.8, 10);
    expect(mix?.bookings?.confirmed).toBeCloseTo(101 * 0.15 * 0.6, 10);
    expect(mix?.bookings?.cancelled).toBeCloseTo(101 * 0.15 * (0.04 + 0.06), 10);
    expect(mix?.bookings?.leftReserved).toBeCloseTo(35 + 101 * 0.15 * 0.16, 10);
  });
});

describe("the per-key figures", () => {
  // Rate-limited calls per partner-mix iteration: catalogue sync 8 (and a full sync's 3 more pages in one of ten),
  // shopper 3, booker 1, back office 0.
  const limitedPerIteration = 0.15 * (8 + 0.1 * 3) + 0.6 * 3 + 0.15 * 1;

  it("should give each key its share of the rate-limited requests, mean and at the peak", () => {
    const [mix] = estimateRequests({
      scenarios: ["partner-mix"],
      profile: "average",
      keys: 40,
      catalogue: everythingFound,
    }).scenarios;
    expect(mix?.perKey?.peakPerMinute).toBeCloseTo((limitedPerIteration * 20 * 60) / 40, 10);
    expect(mix?.perKey?.meanPerMinute).toBeCloseTo(((limitedPerIteration * 6930) / 390 / 40) * 60, 10);
    expect(mix?.perKey?.limitPerMinute).toBe(400);
    expect(mix?.perKey?.setupPerKey).toBeCloseTo((1 + 12 + 36 + 40) / 40, 10);
  });

  it("should leave the rate-limit scenario's eight keys out of the others' and add up scenarios sharing keys", () => {
    const estimate = estimateRequests({
      scenarios: ["partner-mix", "smoke", "rate-limit"],
      profile: "steady",
      keys: 40,
      catalogue: everythingFound,
    });
    const [mix, smoke, rateLimit] = estimate.scenarios;
    expect(mix?.keys).toBe(32);
    expect(smoke?.perKey?.peakPerMinute).toBeCloseTo((2 * 20 * 60) / 32, 10);
    expect(rateLimit?.total).toBeUndefined();
    expect(rateLimit?.iterations).toBeUndefined();
    expect(rateLimit?.notEstimated).toMatch(/limit and window/);
    expect(estimate.keyPools).toHaveLength(1);
    expect(estimate.keyPools[0]?.scenarios).toEqual(["partner-mix", "smoke"]);
    expect(estimate.keyPools[0]?.peakPerMinute).toBeCloseTo(
      (limitedPerIteration * 20 * 60) / 32 + (2 * 20 * 60) / 32,
      10,
    );
    expect(estimate.total).toBeCloseTo((mix?.total ?? 0) + (smoke?.total ?? 0), 6);
  });

  it("should give no per-key figures to a scenario without keys", () => {
    const [smoke] = estimateRequests({ scenarios: ["smoke"], profile: "smoke", keys: 0 }).scenarios;
    expect(smoke?.total).toBe(2 * 76);
    expect(smoke?.perKey).toBeUndefined();
  });

  it("should apply --capacity-rates to the capacity scenario only", () => {
    const estimate = estimateRequests({
      scenarios: ["capacity", "smoke"],
      profile: "capacity",
      duration: "10s",
      keys: 4,
      capacityRates: [100, 200],
    });
    const [capacity, smoke] = estimate.scenarios;
    expect(capacity?.iterations).toBe(3800);
    // smoke under --profile capacity: the profile's own twelve steps, 100 to 8,000 requests/s.
    expect(smoke?.peakIterationsPerSecond).toBe(8000);
  });

  it("should follow the soak and capacity profiles whatever --profile says", () => {
    const estimate = estimateRequests({
      scenarios: ["soak", "capacity"],
      profile: "smoke",
      duration: "10s",
      keys: 10,
      catalogue: everythingFound,
      capacityRates: [100, 200],
    });
    const [soak, capacity] = estimate.scenarios;
    expect(soak?.profile).toBe("soak");
    expect(soak?.iterations).toBe(151);
    expect(capacity?.profile).toBe("capacity");
    expect(capacity?.load).toEqual({ priceListDate: 3800 });
    expect(capacity?.perKey?.peakPerMinute).toBeCloseTo((200 * 60) / 10, 10);
    expect(capacity?.notes.join(" ")).toMatch(/each 429 is sent as well as its retry/);
  });
});

describe("requestEstimateLines", () => {
  it("should print each scenario's duration, iterations, requests, endpoint table and per-key figures", () => {
    const lines = requestEstimateLines(
      estimateRequests({
        scenarios: ["smoke", "webhooks"],
        profile: "smoke",
        duration: "20s",
        keys: 40,
        catalogue: ASSUMED_CATALOGUE,
      }),
    );
    expect(lines[0]).toBe("scenario smoke: profile smoke, 20 s, 101 iterations (peak 5.00/s)");
    expect(lines[1]).toMatch(/^ {2}requests: about 202 \(setup 0, iterations 202\), 10\.1\/s/);
    expect(lines).toContain("    products *      0         101    5.05");
    // 2 rate-limited requests per iteration, 5 iterations/s over 40 keys: 15/min at the peak.
    expect(lines.find((l) => l.includes("per key"))).toMatch(/mean 15\.0\/min, peak 15\.0\/min/);
    expect(lines.some((l) => l.includes("bookings:"))).toBe(false);
    // 2/s for 20 s, whatever the profile: the schedule is known, what each iteration sends is not.
    expect(lines.find((l) => l.startsWith("scenario webhooks"))).toMatch(
      /^scenario webhooks: 20 s, 41 iterations scheduled \(2\.00\/s\); requests not estimated: .*service's answers/,
    );
    expect(lines).toContain("requests in all: about 202 (not counting webhooks)");
    expect(lines.find((l) => l.startsWith("catalogue:"))).toMatch(/assumed/);
  });

  it("should print the bookings a scenario with bookers creates and leaves reserved", () => {
    const lines = requestEstimateLines(
      estimateRequests({
        scenarios: ["partner-mix"],
        profile: "smoke",
        duration: "20s",
        keys: 40,
        catalogue: { ...everythingFound, seedDateOpenShare: 0.5 },
      }),
    );
    // 35 seed bookings and 101 * 0.15 bookers: 47 created, 9 confirmed, 2 cancelled, 37 left reserved.
    expect(lines).toContain(
      "  bookings: about 47 created, 9 confirmed, 2 cancelled, 37 left reserved (they expire after five days)",
    );
  });

  it("should mark the rate-limited endpoints and flag a peak above the allowance", () => {
    const lines = requestEstimateLines(
      estimateRequests({ scenarios: ["capacity"], profile: "smoke", keys: 2, catalogue: everythingFound }),
    );
    const starred = lines.filter((l) => /^ {4}\w+ \*/.test(l)).map((l) => l.trim().split(" ")[0]);
    expect(starred.every((e) => RATE_LIMITED_ENDPOINTS.includes(e as EndpointName))).toBe(true);
    expect(lines.find((l) => l.includes("per key"))).toMatch(/ABOVE the allowance/);
  });
});
