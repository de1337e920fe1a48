import { describe, expect, it } from "vitest";
import { EXIT, HarnessError } from "../../lib/harness/exit-codes.ts";
import type { EnvironmentRails } from "../../lib/harness/plan/environment-rails.ts";
import {
  checkBudget,
  checkRails,
  environmentLine,
  environmentReport,
  type RailsRequest,
} from "../../lib/harness/plan/rails.ts";
import { traitsOf } from "../../lib/harness/scenario-traits.ts";

const PRODUCTION: EnvironmentRails = { name: "production", production: true, shared: false };
const DEMO: EnvironmentRails = { name: "demo", production: false, shared: true };
const LOCAL: EnvironmentRails = { name: "local", production: false, shared: false };

function request(rails: EnvironmentRails, scenarios: string[], more: Partial<RailsRequest> = {}): RailsRequest {
  return { rails, scenarios, churn: false, chaos: false, ...more };
}

/** The refusal's message, checked to be a usage error (exit 2). */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).exitCode).toBe(EXIT.usage);
    return (error as HarnessError).message;
  }
  throw new Error("expected a refusal, the rails let it through");
}

describe("scenario traits the rails read", () => {
  it("should count only the scenarios that send reads and create no booking as read-only", () => {
    const all = [
      "smoke",
      "catalogue",
      "capacity",
      "rate-limit",
      "partner-mix",
      "booking-flow",
      "soak",
      "alternatives",
      "invariants",
      "webhooks",
    ];
    expect(all.filter((s) => traitsOf(s).readOnly === true)).toEqual(["smoke", "catalogue", "capacity", "rate-limit"]);
    expect(all.filter((s) => traitsOf(s).aboutThrottling === true)).toEqual(["rate-limit"]);
  });
});

describe("allowed scenarios", () => {
  it("should refuse a scenario the environment does not list, naming the environment and its list", () => {
    const rails = { ...DEMO, allowedScenarios: ["smoke", "catalogue"] };
    expect(refusal(() => checkRails(request(rails, ["smoke", "partner-mix"])))).toBe(
      "Failed to plan the run: environment demo allows only smoke, catalogue, not partner-mix. Please choose among them, or add the scenario to allowedScenarios of environment demo in the run file.",
    );
  });

  it("should let every listed scenario through", () => {
    const rails = { ...LOCAL, allowedScenarios: ["smoke", "catalogue"] };
    expect(checkRails(request(rails, ["catalogue", "smoke"])).ceilingPerKeyPerMinute).toBeUndefined();
  });
});

describe("production", () => {
  it("should refuse a booking scenario without the flag, naming the flag with the environment's name", () => {
    expect(refusal(() => checkRails(request(PRODUCTION, ["smoke", "partner-mix"])))).toBe(
      "Failed to plan the run: partner-mix makes real bookings, and environment production is production. Please run read-only scenarios only, or allow the bookings with --allow-production-bookings production (they are cancelled and listed at the end).",
    );
  });

  it("should refuse the flag when it names another environment", () => {
    const message = refusal(() =>
      checkRails(request(PRODUCTION, ["booking-flow"], { allowProductionBookings: "demo" })),
    );
    expect(message).toContain("--allow-production-bookings production");
  });

  it("should allow booking scenarios with the flag naming the environment, and say their bookings are cancelled", () => {
    const planned = checkRails(request(PRODUCTION, ["booking-flow"], { allowProductionBookings: "production" }));
    expect(planned.productionBookings).toBe(true);
    expect(planned.notes.join("\n")).toContain("booking-flow will make real bookings in environment production");
  });

  it("should run read-only scenarios without the flag under half the allowance by default, and say so", () => {
    const planned = checkRails(request(PRODUCTION, ["smoke", "catalogue", "capacity"]));
    expect(planned.productionBookings).toBe(false);
    expect(planned.ceilingPerKeyPerMinute).toBe(200);
    expect(planned.ceilingSource).toBe("production default");
    expect(planned.notes).toContain(
      "environment production sets no ceiling: production's default holds, half the allowance, 200 requests/min per key",
    );
  });

  it("should refuse churn, saying why", () => {
    expect(refusal(() => checkRails(request(PRODUCTION, ["smoke"], { churn: true })))).toBe(
      "Failed to plan the run: churn takes real seats from production's inventory (reservations held and cancelled on the hot set), so it never runs in environment production. Please turn it off (--no-churn) or run in another environment.",
    );
  });

  it("should refuse chaos, saying why, even with the bookings flag", () => {
    const message = refusal(() =>
      checkRails(request(PRODUCTION, ["smoke"], { chaos: true, allowProductionBookings: "production" })),
    );
    expect(message).toMatch(
      /^Failed to plan the run: network chaos breaks the connections .* never runs in environment production\. Please drop --chaos/,
    );
  });

  it("should refuse the rate-limit scenario, whose 429s are its point, even though it books nothing", () => {
    expect(
      refusal(() => checkRails(request(PRODUCTION, ["rate-limit"], { allowProductionBookings: "production" }))),
    ).toBe(
      "Failed to plan the run: rate-limit spends keys' allowances until the service answers 429 on purpose, which production's partners would feel, so it never runs in environment production. Please run it in a test or shared environment.",
    );
  });

  it("should refuse a ceiling at or above the allowance and take one below it", () => {
    expect(refusal(() => checkRails(request({ ...PRODUCTION, ceilingPerKeyPerMinute: 400 }, ["smoke"])))).toBe(
      "Failed to plan the run: the ceiling of 400 requests/min per key of environment production is not below the allowance of 400, and production's partners share nothing else. Please set a ceiling below 400 (the default is 200).",
    );
    const planned = checkRails(request({ ...PRODUCTION, ceilingPerKeyPerMinute: 399 }, ["smoke"]));
    expect([planned.ceilingPerKeyPerMinute, planned.ceilingSource]).toEqual([399, "environment"]);
  });

  it("should note a target other than url as odd but allow it", () => {
    const planned = checkRails(request(PRODUCTION, ["smoke"], { target: "embedded" }));
    expect(planned.notes).toContain(
      "environment production is production but the target is embedded, not url: the rails hold all the same",
    );
    expect(checkRails(request(PRODUCTION, ["smoke"], { target: "url" })).notes.join()).not.toContain("target");
  });
});

describe("shared environments", () => {
  it("should hold the run to 80% of the allowance by default and exempt the rate-limit scenario", () => {
    const planned = checkRails(request(DEMO, ["partner-mix", "rate-limit"], { churn: true, chaos: true }));
    expect(planned.ceilingPerKeyPerMinute).toBe(320);
    expect(planned.ceilingSource).toBe("shared default");
    expect(planned.exempt).toEqual(["rate-limit"]);
    expect(planned.notes.join("\n")).toContain("80% of the allowance, 320 requests/min per key");
  });

  it("should refuse a ceiling above the allowance, which would let the run's own traffic meet 429s", () => {
    const message = refusal(() => checkRails(request({ ...DEMO, ceilingPerKeyPerMinute: 450 }, ["catalogue"])));
    expect(message).toBe(
      "Failed to plan the run: the ceiling of 450 requests/min per key of environment demo is above the allowance of 400, so the run's own traffic could meet 429s, which a shared environment must not see. Please set a ceiling of at most 400 (the default is 320).",
    );
  });

  it("should leave an environment that is neither shared nor production without a ceiling unless it sets one", () => {
    expect(checkRails(request(LOCAL, ["partner-mix"], { churn: true })).ceilingPerKeyPerMinute).toBeUndefined();
    expect(
      checkRails(request({ ...LOCAL, ceilingPerKeyPerMinute: 1000 }, ["partner-mix"])).ceilingPerKeyPerMinute,
    ).toBe(1000);
  });
});

describe("the budget check", () => {
  const demo = () => checkRails(request({ ...DEMO, ceilingPerKeyPerMinute: 300 }, ["partner-mix", "rate-limit"]));

  it("should refuse a plan whose peak per key is above the ceiling, naming the scenario, figure and environment", () => {
    expect(
      refusal(() => {
        checkBudget(demo(), [{ scenarios: ["partner-mix"], peakPerMinute: 540.4 }]);
      }),
    ).toBe(
      "Failed to plan the run: partner-mix would send about 540.4 requests/min per key to the rate-limited endpoints at its peak, above the ceiling of 300 of environment demo. Please lower the rate (--profile, a shorter ramp, a --traffic model with fewer calls), add keys (--keys), or raise the ceiling.",
    );
  });

  it("should let a plan at the ceiling through, and not hold a pool of exempt scenarios to it", () => {
    expect(() => {
      checkBudget(demo(), [
        { scenarios: ["partner-mix"], peakPerMinute: 300 },
        { scenarios: ["rate-limit"], peakPerMinute: 5000 },
      ]);
    }).not.toThrow();
  });

  it("should name every held scenario of a shared pool", () => {
    const planned = checkRails(request(DEMO, ["smoke", "catalogue"]));
    expect(
      refusal(() => {
        checkBudget(planned, [{ scenarios: ["smoke", "catalogue"], peakPerMinute: 330 }]);
      }),
    ).toContain("smoke + catalogue would send about 330 requests/min per key");
  });

  it("should refuse a ceiling below one request per second per k6 process, which k6's rps cannot hold", () => {
    // 30/min on one key is half a request per second: k6 would allow one, twice the ceiling.
    const low = checkRails(request({ ...DEMO, ceilingPerKeyPerMinute: 30 }, ["smoke"]));
    expect(
      refusal(() => {
        checkBudget(low, [{ scenarios: ["smoke"], peakPerMinute: 10, keys: 1 }]);
      }),
    ).toBe(
      "Failed to plan the run: a ceiling of 30 requests/min per key over 1 key shared by smoke is below one request per second per k6 process, the least k6 can hold a run to. Please add keys (--keys), run fewer scenarios at once, or raise the ceiling of environment demo.",
    );
    expect(() => {
      checkBudget(low, [{ scenarios: ["smoke"], peakPerMinute: 10, keys: 2 }]);
    }).not.toThrow();
  });

  it("should check nothing without a ceiling", () => {
    const planned = checkRails(request(LOCAL, ["partner-mix"]));
    expect(() => {
      checkBudget(planned, [{ scenarios: ["partner-mix"], peakPerMinute: 1e6 }]);
    }).not.toThrow();
  });
});

describe("the environment in the report", () => {
  it("should say the environment, its kind, the ceiling's origin and k6's caps in one line", () => {
    const report = environmentReport(DEMO, ["smoke", "rate-limit"], { smoke: 10 });
    expect(report).toEqual({
      name: "demo",
      production: false,
      shared: true,
      ceilingPerKeyPerMinute: 320,
      ceilingSource: "shared default",
      k6Rps: { smoke: 10 },
      exempt: ["rate-limit"],
    });
    expect(environmentLine(report)).toBe(
      "environment demo (shared): ceiling 320 requests/min per key (shared default), k6 rps smoke 10/s",
    );
    expect(environmentLine(environmentReport(LOCAL, ["smoke"], {}))).toBe("environment local: no ceiling");
  });
});
