import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { junitReport } from "../../lib/harness/reports/junit-report.ts";
import { failingSummary, SECRET_URL } from "./report-fixtures.ts";

interface Case {
  name: string;
  classname: string;
  failure?: { message: string; type: string; "#text"?: string };
  error?: { message: string; "#text"?: string };
}
interface Suite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  testcase: Case | Case[];
}

function parse(xml: string): { tests: string; failures: string; errors: string; testsuite: Suite[] } {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (n) => n === "testsuite" });
  return (parser.parse(xml) as { testsuites: ReturnType<typeof parse> }).testsuites;
}

const cases = (suite: Suite | undefined): Case[] =>
  suite ? (Array.isArray(suite.testcase) ? suite.testcase : [suite.testcase]) : [];

describe("junit.xml", () => {
  const suites = parse(junitReport(failingSummary()));

  it("should have a suite per scenario and extension with a case per check and threshold", () => {
    expect(suites.testsuite.map((s) => s.name)).toEqual(["run", "scenario smoke", "extension webhook-sink"]);
    const smoke = cases(suites.testsuite[1]).map((c) => c.name);
    expect(smoke).toEqual([
      "scenario completed",
      "check products: status 200",
      "check product: keys match the spec <exact>",
      "threshold checks rate>=1",
      "threshold http_req_duration{endpoint:product} p(95)<500",
    ]);
    expect(suites.tests).toBe("8");
    expect(suites.failures).toBe("3");
    expect(suites.errors).toBe("2");
  });

  it("should carry what was wrong in the failures", () => {
    const smoke = cases(suites.testsuite[1]);
    const check = smoke.find((c) => c.name.startsWith("check product:"));
    expect(check?.failure?.message).toBe("3 of 10 failed: missing key: product.title");
    expect(check?.failure?.["#text"]).toBe("- missing key: product.title\n- extra key: product.<script>");
    const threshold = smoke.find((c) => c.name === "threshold checks rate>=1");
    expect(threshold?.failure?.message).toBe("observed 85.00%, expected rate>=1");
    expect(smoke[0]?.error?.message).toBe("k6 exited with 107");
    expect(smoke[0]?.failure).toBeUndefined();
    expect(cases(suites.testsuite[0])[0]?.error?.message).toBe("Interrupted before the end of the run.");
  });

  it("should not name the target's URL (it may hold credentials)", () => {
    const xml = junitReport(failingSummary());
    expect(xml).not.toContain("hunter2");
    expect(xml).not.toContain(new URL(SECRET_URL).host);
  });
});
