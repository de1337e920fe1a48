import { describe, expect, it } from "vitest";
import { CHECK_FAILURE_MARKER } from "../../lib/contract/index.ts";
import { parseCheckFailures, scenarioVerdict, thresholdStatistic } from "../../lib/harness/verdict.ts";

const summary = {
  metrics: {
    checks: { type: "rate", values: { rate: 0.5, passes: 2, fails: 2 }, thresholds: { "rate>=1": { ok: false } } },
    "http_req_duration{endpoint:products}": {
      type: "trend",
      values: { "p(95)": 12.5, "p(99)": 20 },
      thresholds: { "p(95)<500": { ok: true } },
    },
    http_reqs: { type: "counter", values: { count: 40, rate: 4 } },
    atd_throttles: { type: "counter", values: { count: 3, rate: 0.3 } },
  },
  root_group: {
    checks: [{ name: "products: status 200", passes: 2, fails: 0 }],
    groups: [{ checks: [{ name: "product: keys match the spec", passes: 0, fails: 2 }], groups: [] }],
  },
};

const logLine = (check: string, problem: string) =>
  JSON.stringify({
    level: "warning",
    msg: `${CHECK_FAILURE_MARKER}${JSON.stringify({ check, problem })}`,
    source: "console",
  });

describe("scenarioVerdict", () => {
  it("should fail the scenario on a failed check and carry the logged problem", () => {
    const log = [logLine("product: keys match the spec", "data: missing uuid"), "not json"].join("\n");
    const v = scenarioVerdict("smoke", summary, log, []);
    expect(v.verdict).toBe("fail");
    const failed = v.checks.find((c) => c.name === "product: keys match the spec");
    expect(failed).toMatchObject({ verdict: "fail", fails: 2, problems: ["data: missing uuid"] });
    expect(v.checks.find((c) => c.name === "products: status 200")?.verdict).toBe("pass");
  });

  it("should report each threshold with the statistic it was evaluated on", () => {
    const v = scenarioVerdict("smoke", summary, "", []);
    expect(v.thresholds).toContainEqual({ metric: "checks", expression: "rate>=1", verdict: "fail", observed: 0.5 });
    expect(v.thresholds).toContainEqual({
      metric: "http_req_duration{endpoint:products}",
      expression: "p(95)<500",
      verdict: "pass",
      observed: 12.5,
    });
    expect(v.metrics).toMatchObject({ requests: 40, throttles: 3 });
  });

  it("should fail when k6 left no summary, even with no failed check", () => {
    const v = scenarioVerdict("smoke", undefined, "", []);
    expect(v.verdict).toBe("fail");
    expect(v.errors).toContain("k6 left no end-of-test summary");
  });

  it("should pass when every check and threshold passed", () => {
    const passing = {
      metrics: { checks: { values: { rate: 1 }, thresholds: { "rate>=1": { ok: true } } } },
      root_group: { checks: [{ name: "a", passes: 3, fails: 0 }], groups: [] },
    };
    expect(scenarioVerdict("smoke", passing, "", []).verdict).toBe("pass");
  });
});

describe("parseCheckFailures", () => {
  it("should keep distinct problems per check and ignore other log lines", () => {
    const log = [
      logLine("a", "x"),
      logLine("a", "x"),
      logLine("a", "y"),
      JSON.stringify({ level: "warning", msg: "Request Failed" }),
    ].join("\n");
    expect(parseCheckFailures(log).get("a")).toEqual(["x", "y"]);
  });
});

describe("thresholdStatistic", () => {
  it("should name the statistic of an expression", () => {
    expect(thresholdStatistic("p(99.9)<300")).toBe("p(99.9)");
    expect(thresholdStatistic("rate<=0.01")).toBe("rate");
    expect(thresholdStatistic("count<10")).toBe("count");
  });
});
