import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../lib/k6/config.ts";

const base = { ATD_BASE_URL: "http://127.0.0.1:8080/", ATD_API_KEYS: "a, b,,c" };

describe("loadConfig", () => {
  it("should parse the base URL without its trailing slash and split the keys", () => {
    const config = loadConfig(base);
    expect(config.baseUrl).toBe("http://127.0.0.1:8080");
    expect(config.apiKeys).toEqual(["a", "b", "c"]);
    expect(config.profile).toBe("smoke");
    expect(config.requestTimeout).toBe("10s");
  });

  it("should refuse a missing base URL with a message that names the variable", () => {
    expect(() => loadConfig({ ATD_API_KEYS: "a" })).toThrow(/ATD_BASE_URL is not set\. Please/);
  });

  it("should refuse a base URL that is not http(s)", () => {
    expect(() => loadConfig({ ...base, ATD_BASE_URL: "ftp://x" })).toThrow(ConfigError);
  });

  it("should refuse a key list with no key", () => {
    expect(() => loadConfig({ ...base, ATD_API_KEYS: " , ," })).toThrow(/holds no key/);
  });

  it("should refuse a duration that k6 would not understand", () => {
    expect(() => loadConfig({ ...base, ATD_DURATION: "ten seconds" })).toThrow(
      /ATD_DURATION="ten seconds" is not a duration/,
    );
    expect(loadConfig({ ...base, ATD_DURATION: "1m30s" }).duration).toBe("1m30s");
  });

  it("should read the capacity rates, and refuse ones that do not increase naming the variable", () => {
    expect(loadConfig(base).capacityRates).toBeUndefined();
    expect(loadConfig({ ...base, ATD_CAPACITY_RATES: "100-400/3" }).capacityRates).toEqual([100, 200, 400]);
    expect(() => loadConfig({ ...base, ATD_CAPACITY_RATES: "400,100" })).toThrow(
      /^Failed to configure the run: ATD_CAPACITY_RATES="400,100": the rates must increase step by step\. Please give/,
    );
  });
});
