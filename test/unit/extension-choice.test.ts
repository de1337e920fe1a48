import { describe, expect, it } from "vitest";
import { churnOn, extensionsFor, webhooksOn } from "../../lib/harness/extensions.ts";

const names = (scenarios: string[], webhooks?: boolean, churn?: boolean) =>
  extensionsFor({ scenarios, values: { webhooks, churn } })
    .map((e) => e.name)
    .filter((name) => name !== "reservation cleanup");

describe("which extensions a run gets", () => {
  it("should run the soak with churn and the webhook sink unless --no-churn / --no-webhooks", () => {
    expect(names(["soak"])).toEqual(["soak", "webhook sink", "churn"]);
    expect(names(["soak"], false)).toEqual(["soak", "churn"]);
    expect(names(["soak"], undefined, false)).toEqual(["soak", "webhook sink"]);
    expect(names(["soak"], false, false)).toEqual(["soak"]);
    // Split runners number their keys from their own slice: no sink unless asked for.
    expect(webhooksOn(["soak"], undefined, 3)).toBe(false);
    expect(webhooksOn(["soak"], true, 3)).toBe(true);
  });

  it("should keep the other scenarios' defaults: churn for alternatives, the sink always for webhooks", () => {
    expect(churnOn(["alternatives"], undefined)).toBe(true);
    expect(churnOn(["partner-mix"], undefined)).toBe(false);
    expect(churnOn(["partner-mix"], true)).toBe(true);
    expect(webhooksOn(["partner-mix"], undefined)).toBe(false);
    expect(webhooksOn(["partner-mix"], true)).toBe(true);
    expect(webhooksOn(["webhooks"], false)).toBe(true);
  });

  it("should always offer the reservation cleanup, which runs only on a target without test hooks", () => {
    const all = extensionsFor({ scenarios: ["partner-mix"] });
    expect(all[0]?.name).toBe("reservation cleanup");
    expect(all[0]?.onlyWithoutControl).toBe(true);
  });
});
