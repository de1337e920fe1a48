/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import { OptionsError, parseServiceArgs } from "../../service/options.ts";
import { api, control, start } from "./helpers.ts";

/** Milliseconds one request takes, end to end. */
async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

function faultsFlag(value: string) {
  return parseServiceArgs(["--faults", value], {});
}

describe("faults: fixed latency, latencyFactor and --faults at start", () => {
  it("should slow only the route a --faults rule names", async () => {
    const options = faultsFlag('{"routes":{"products":{"latencyMs":60}}}');
    await using svc = await start({ faults: options.faults });
    const slow = await timed(() => api(svc, "/v2/products"));
    const other = await timed(() => api(svc, "/v2/product-types/00000000-0000-4000-8000-000000000000"));
    expect(slow).toBeGreaterThanOrEqual(60);
    expect(other).toBeLessThan(50);
  });

  it("should make a request latencyFactor times as long, its fixed latency included", async () => {
    await using svc = await start();
    const set = await control(svc, "/__control/faults", {
      method: "PUT",
      body: { routes: { products: { latencyMs: 30, latencyFactor: 3 } } },
    });
    expect(set.status).toBe(200);
    expect(set.body.data.routes.products).toEqual({ latencyMs: 30, errorRate: 0, latencyFactor: 3 });
    expect(await timed(() => api(svc, "/v2/products"))).toBeGreaterThanOrEqual(90);
  });

  it("should always state latencyFactor in the faults it answers, 1 when unset", async () => {
    await using svc = await start();
    const read = await control(svc, "/__control/faults");
    expect(read.body.data.default).toEqual({ latencyMs: 0, errorRate: 0, latencyFactor: 1 });
  });

  it("should refuse a rule for an unknown endpoint with 400 naming it", async () => {
    await using svc = await start();
    const refused = await control(svc, "/__control/faults", {
      method: "PUT",
      body: { routes: { priceListDates: { latencyMs: 10 } } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/unknown endpoint "priceListDates"/);
  });

  it("should refuse bad --faults at start with a clear error", () => {
    const cases: [string, RegExp][] = [
      ["{not json", /--faults is not valid JSON/],
      ['{"routes":{"nope":{"latencyMs":1}}}', /unknown endpoint "nope"/],
      ['{"default":{"latencyFactor":11}}', /latencyFactor must be a number from 1 to 10/],
    ];
    for (const [value, message] of cases) {
      let error: unknown;
      try {
        faultsFlag(value);
      } catch (e) {
        error = e;
      }
      expect(error, value).toBeInstanceOf(OptionsError);
      expect((error as Error).message, value).toMatch(message);
    }
  });

  it("should keep faults set at start after a reset, and in the required-hooks mode", async () => {
    const options = faultsFlag('{"routes":{"products":{"latencyMs":60}}}');
    await using svc = await start({ faults: options.faults, hooks: "required" });
    expect((await control(svc, "/__control/reset", { method: "POST", body: {} })).status).toBe(200);
    expect(await timed(() => api(svc, "/v2/products"))).toBeGreaterThanOrEqual(60);
  });
});
