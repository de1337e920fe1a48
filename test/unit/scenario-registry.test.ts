import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { PROFILES } from "../../lib/contract/profiles.ts";
import {
  SCENARIO_NAMES,
  SCENARIOS,
  scenarioSpec,
  scenariosNeeding,
  UnknownScenarioError,
} from "../../lib/contract/scenarios.ts";
import { EXIT, HarnessError } from "../../lib/harness/exit-codes.ts";
import { SCENARIOS_DIR } from "../../lib/harness/paths.ts";
import { traitsOf } from "../../lib/harness/scenario-traits.ts";

describe("the scenario registry", () => {
  it("should hold exactly the scenarios of scenarios/*.ts", async () => {
    const files = (await readdir(SCENARIOS_DIR)).filter((f) => f.endsWith(".ts")).map((f) => f.replace(/\.ts$/, ""));
    expect([...SCENARIO_NAMES].sort()).toEqual(files.sort());
    expect(Object.keys(SCENARIOS).sort()).toEqual(files.sort());
  });

  it("should refuse an unknown scenario with a typed error instead of defaults", () => {
    expect(() => scenarioSpec("smok")).toThrow(UnknownScenarioError);
    expect(() => traitsOf("smok")).toThrow(HarnessError);
    expect(() => traitsOf("smok")).toThrow(/^Failed to plan the run: unknown scenario "smok" \(known: alternatives,/);
    expect(() => traitsOf("smok")).toThrow(expect.objectContaining({ exitCode: EXIT.usage }));
  });

  it("should describe each scenario in one line for harness list", () => {
    for (const name of SCENARIO_NAMES) {
      const { description } = SCENARIOS[name];
      expect(description, name).toMatch(/^\S.*\.$/);
      expect(description.length, name).toBeLessThanOrEqual(110);
    }
  });

  it("should name only load profiles that exist as a scenario's own profile", () => {
    for (const name of SCENARIO_NAMES) {
      const own = scenarioSpec(name).traits.profile;
      if (own !== undefined) expect(Object.keys(PROFILES), name).toContain(own);
    }
  });

  it("should name the scenario each judging extension serves", () => {
    expect(scenariosNeeding(SCENARIO_NAMES, "soak")).toEqual(["soak"]);
    expect(scenariosNeeding(SCENARIO_NAMES, "capacity")).toEqual(["capacity"]);
    expect(scenariosNeeding(SCENARIO_NAMES, "webhooks")).toEqual(["webhooks"]);
    expect(scenariosNeeding(SCENARIO_NAMES, "alternatives")).toEqual(["alternatives"]);
    expect(scenariosNeeding(SCENARIO_NAMES, "invariants")).toEqual(["invariants"]);
  });
});
