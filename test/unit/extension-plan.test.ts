import { describe, expect, it } from "vitest";
import { extensionsFor } from "../../lib/harness/extensions.ts";
import type { ExtensionPlan } from "../../lib/harness/extension-plan.ts";
import { withSwitches } from "../../lib/harness/run-file/run-file-schema.ts";

const names = (plan: ExtensionPlan) =>
  extensionsFor(plan)
    .map((e) => e.name)
    .filter((name) => name !== "reservation cleanup");

describe("the extensions' plan", () => {
  it("should read each switch from its HARNESS_* mirror when no flag or run file set it", () => {
    const env = { HARNESS_WEBHOOKS: "0", HARNESS_CHURN: "yes" };
    expect(withSwitches({}, env)).toMatchObject({ webhooks: false, churn: true });
    expect(withSwitches({ webhooks: true }, env)).toMatchObject({ webhooks: true, churn: true });
    expect(withSwitches({ segments: 2 }, {})).toEqual({ segments: 2 });
  });

  it("should let each extension decide from the run's settings whether the run gets it", () => {
    expect(names({ scenarios: ["partner-mix"], values: withSwitches({}, { HARNESS_WEBHOOKS: "1" }) })).toEqual([
      "webhook sink",
    ]);
    expect(names({ scenarios: ["partner-mix"], values: { churn: true } })).toEqual(["churn"]);
    // A soak split over k6 processes gets no sink unless asked for (webhooks/definition.ts).
    expect(names({ scenarios: ["soak"], values: { segments: 3 } })).toEqual(["soak", "churn"]);
    expect(names({ scenarios: ["soak"], values: { segments: 3, webhooks: true } })).toEqual([
      "soak",
      "webhook sink",
      "churn",
    ]);
  });

  it("should make the capacity and alternatives judges only for a scenario that needs them", () => {
    expect(names({ scenarios: ["capacity"], values: { capacitySafeShare: 0.5 } })).toEqual(["capacity"]);
    expect(names({ scenarios: ["alternatives"], values: { churn: false } })).toEqual(["alternatives accuracy"]);
  });
});
