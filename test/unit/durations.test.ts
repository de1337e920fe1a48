import { describe, expect, it } from "vitest";
import { parseDuration, scenarioSeconds } from "../../lib/contract/durations.ts";
import { PROFILES } from "../../lib/contract/profiles.ts";

describe("parseDuration", () => {
  it("should read k6 durations", () => {
    expect(parseDuration("1m30s")).toBe(90);
    expect(parseDuration("250ms")).toBe(0.25);
    expect(parseDuration("2h")).toBe(7200);
  });

  it("should refuse what is not a duration", () => {
    expect(() => parseDuration("10")).toThrow(/not a duration/);
    expect(() => parseDuration("10s extra")).toThrow(/not a duration/);
  });
});

describe("scenarioSeconds", () => {
  it("should add up stages and honour a duration override", () => {
    expect(scenarioSeconds(PROFILES.smoke?.scenario("20s") ?? {})).toBe(20);
    expect(scenarioSeconds(PROFILES.average?.scenario(undefined) ?? {})).toBe(60 + 300 + 30);
  });
});
