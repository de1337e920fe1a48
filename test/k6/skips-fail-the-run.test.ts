import { readFile } from "node:fs/promises";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { EmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";
import { runHarnessProcess, runLimiter, tempFile } from "./harness-process.ts";

/**
 * Skips are never a silent pass: a url-target run without a control API asked for checks it could not judge. What the
 * level cannot judge by design (the invariants' expiry needs five days and a clock hook) is listed as such and does
 * not fail the run; what the run could have judged and did not (a last-seat race needs a stated reservation hold, which
 * the user can give) fails it (exit 1, with the reason) unless the user accepted the skips up front with --allow-skips.
 */
const limit = runLimiter(2);

interface Case {
  name: string;
  classname: string;
  skipped?: unknown;
  "system-out"?: string;
}

async function skippedCases(runDir: string | undefined): Promise<Case[]> {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (n) => n === "testsuite" || n === "testcase",
  });
  const xml = await readFile(path.join(runDir ?? "", "junit.xml"), "utf8");
  const suites = (parser.parse(xml) as { testsuites: { testsuite: { testcase: Case[] }[] } }).testsuites.testsuite;
  return suites.flatMap((s) => s.testcase).filter((c) => c.skipped !== undefined);
}

describe("a url-target run that skipped what it was asked for", () => {
  it("should exit 1 with the reason without --allow-skips and 0 with it, junit.xml holding the skipped cases", async () => {
    // A deployment the harness did not start: it knows only its URL and some keys, no control API.
    await using deployment = await new EmbeddedTarget().start();
    const keys = (await deployment.control.partners()).slice(0, 4).map((p) => p.apiKey);
    const args = [
      "run",
      "smoke",
      "invariants",
      "--target",
      "url",
      "--base-url",
      deployment.apiUrl,
      "--keys",
      tempFile("keys.json", keys),
      "--duration",
      "3s",
    ];
    const [strict, allowed] = await Promise.all([
      limit(() => runHarnessProcess(args)),
      limit(() => runHarnessProcess([...args, "--allow-skips"])),
    ]);

    expect(strict.exitCode, strict.output).toBe(1);
    expect(strict.summary?.scenarios.map((s) => `${s.scenario} ${s.verdict}`)).toEqual([
      "smoke pass",
      "invariants pass",
    ]);
    const skips = [
      "check invariant: no oversell per slot",
      "check invariant: exactly one winner in a confirm race on the last seat",
    ];
    const byDesign = "by-design invariant: a reservation left alone for 5 days expires and releases its capacity";
    const notJudged = [...skips, byDesign];
    expect(strict.summary?.errors).toHaveLength(1);
    expect(strict.summary?.errors[0]).toMatch(/^Failed to run everything asked for: skipped check invariant: /);
    // The skip names what the run could have judged, never what the level cannot.
    expect(strict.summary?.errors[0]).not.toMatch(/expires/);
    expect(strict.output).toMatch(
      /N\/A {3}invariant: a reservation left alone .*not judged by design at the public-api level/,
    );
    expect(strict.summary?.errors[0]).toMatch(
      /Please give what is missing, or accept the skips up front with --allow-skips/,
    );
    expect(strict.output).toMatch(/FAIL {2}Failed to run everything asked for: skipped check invariant/);

    expect(allowed.exitCode, allowed.output).toBe(0);
    expect(allowed.summary?.errors).toEqual([]);
    expect(allowed.summary?.skipped?.map((s) => `${s.kind} ${s.name}`).sort()).toEqual([...notJudged].sort());

    for (const result of [strict, allowed]) {
      const cases = await skippedCases(result.runDir);
      expect(cases.map((c) => c.name).sort()).toEqual(["check skipped", "check skipped", "not judged by design"]);
      expect(cases.map((c) => c.classname)).toContain(
        "atd.by-design.invariant: a reservation left alone for 5 days expires and releases its capacity",
      );
      expect(cases.find((c) => c.name === "check skipped")?.["system-out"]).toMatch(/^skipped: /);
      expect(cases.find((c) => c.name === "not judged by design")?.["system-out"]).toMatch(/^not judged by design: /);
    }
  });
});
