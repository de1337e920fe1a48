import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { junitReport } from "../../lib/harness/reports/junit-report.ts";
import { failingSummary } from "./report-fixtures.ts";

interface Case {
  name: string;
  classname: string;
  skipped?: unknown;
  "system-out"?: string;
  properties?: { property: { name: string; value: string } | { name: string; value: string }[] };
}
interface Suite {
  name: string;
  tests: string;
  skipped: string;
  testcase: Case;
}

describe("junit.xml of a run with skips", () => {
  it("should hold a skipped case with the reason per skipped scenario and extension", () => {
    const reason = "needs the control API, which this target does not offer";
    const summary = {
      ...failingSummary(),
      skipped: [
        { kind: "scenario" as const, name: "invariants", reason },
        { kind: "extension" as const, name: "invariants checker", reason },
      ],
    };
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      isArray: (n) => n === "testsuite",
    });
    const suites = (parser.parse(junitReport(summary)) as { testsuites: { skipped: string; testsuite: Suite[] } })
      .testsuites;
    const skippedSuites = suites.testsuite.filter((s) => s.skipped === "1");
    expect(skippedSuites.map((s) => s.name)).toEqual(["scenario invariants", "extension invariants checker"]);
    const invariants = skippedSuites[0]?.testcase;
    expect(invariants?.classname).toBe("atd.scenario.invariants");
    expect(invariants?.name).toBe("scenario skipped");
    expect(invariants).toHaveProperty("skipped");
    expect(invariants?.["system-out"]).toBe(`skipped: ${reason}`);
    expect(invariants?.properties?.property).toEqual({ name: "reason", value: reason });
    expect(suites.skipped).toBe("2");
  });

  it("should hold a check not judged by design as a skipped case saying so", () => {
    const reason = "needs the test hooks, and this run has none (public API only)";
    const summary = {
      ...failingSummary(),
      skipped: [{ kind: "by-design" as const, name: "gaps-error-410-gone: A product type ...", reason }],
    };
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      isArray: (n) => n === "testsuite",
    });
    const suites = (parser.parse(junitReport(summary)) as { testsuites: { skipped: string; testsuite: Suite[] } })
      .testsuites;
    const testcase = suites.testsuite.find((s) => s.skipped === "1")?.testcase;
    expect(testcase?.name).toBe("not judged by design");
    expect(testcase?.classname).toBe("atd.by-design.gaps-error-410-gone: A product type ...");
    expect(testcase?.["system-out"]).toBe(`not judged by design: ${reason}`);
  });

  it("should hold no skipped case when nothing was skipped", () => {
    expect(junitReport(failingSummary())).not.toContain("<skipped");
  });
});
