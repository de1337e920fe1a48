/**
 * The variations of lists, Retry-After and translated text (service/variations/, issue 27) against the scenarios that
 * judge what each varies: a correct service that lists in reverse, pages 25 by default, answers 410 for a withdrawn
 * product, rounds Retry-After down and translates without naming the language passes conformance, the traffic and
 * its invariants, the rate-limit rules, and catalogue sync while products and product types are withdrawn and put
 * back, each variation alone (every variation at once: test/k6/required-hooks-target.test.ts in the default tier). The defects the changed judges exist for: conformance.matrix.test.ts, rate-limit.matrix.test.ts (-t filters).
 */
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { HEADERS } from "../../lib/contract/index.ts";
import type { HooksClient } from "../../lib/harness/hooks/hooks-client.ts";
import { rawResultsFile, readRawSamples } from "../../lib/harness/reports/raw-samples.ts";
import { EmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";
import { failedChecks, runHarnessProcess, runLimiter, tempFile } from "./harness-process.ts";
import { expectEveryRulePassed, runRateLimit } from "./rate-limit-runs.ts";

const limit = runLimiter(2);

/** The variations of lists and translated text, each proven alone (all of them at once: the default tier). */
const LISTS = [
  "lists-reverse-order",
  "lists-default-page-size",
  "lists-withdrawn-product-gone",
  "translations-unmarked",
];

describe("the variations of lists, Retry-After and translations", { timeout: 300_000 }, () => {
  it.concurrent.each(LISTS)(
    "should pass conformance with nothing skipped, and partner-mix, invariants and alternatives, with %s alone",
    async (variation) => {
      const scenarios = ["conformance", "partner-mix", "invariants", "alternatives"];
      const result = await limit(() =>
        runHarnessProcess(["run", ...scenarios, "--duration", "6s", "--service-args", `--variations ${variation}`], {
          timeoutMs: 150_000,
        }),
      );
      expect(result.exitCode, result.output).toBe(0);
      expect(failedChecks(result)).toEqual([]);
      expect(result.summary?.skipped ?? []).toEqual([]);
      const judged = (result.summary?.scenarios.find((s) => s.scenario === "conformance")?.checks ?? []).map(
        (c) => c.name.split(":")[0],
      );
      expect(judged).toEqual(
        expect.arrayContaining(["4.0-language-honoured", "4.1-products-language", "gaps-pagination-params"]),
      );
    },
  );

  it.concurrent("should pass every rate-limit rule with Retry-After rounded down", async () => {
    const result = await limit(() => runRateLimit("--variations rate-limit-retry-after-floor"));
    expectEveryRulePassed(result);
  });

  it.concurrent(
    "should pass catalogue sync while products and product types are withdrawn and put back, gone answering 410",
    async () => {
      await limit(async () => {
        await using service = await new EmbeddedTarget()
          .withServiceArgs(["--variations", "lists-withdrawn-product-gone,lists-reverse-order"])
          .start();
        const key = service.apiKeys[0] ?? "";
        const res = await fetch(`${service.apiUrl}/v2/products?per_page=100`, { headers: { [HEADERS.auth]: key } });
        const products = ((await res.json()) as { data: { uuid: string }[] }).data.map((p) => p.uuid);
        const types = (await service.control.productTypes()).map((t) => t.uuid);
        const done = new AbortController();
        const churn = withdrawAndPutBack(service.control, products, types, done.signal);
        const keys = tempFile("keys.json", service.apiKeys.slice(0, 4));
        const result = await runHarnessProcess(
          ["run", "catalogue", "--duration", "20s", "--target", "url", "--base-url", service.apiUrl, "--keys", keys],
          { timeoutMs: 120_000 },
        );
        done.abort();
        expect(await churn).toBeGreaterThan(100);
        expect(result.exitCode, result.output).toBe(0);
        // The reads of what was withdrawn since it was listed met 410s, and the status checks took them.
        const gone = await answersOf(path.join(result.runDir ?? "", rawResultsFile("catalogue")), "410");
        expect(gone).toBeGreaterThan(0);
        const statuses = (result.summary?.scenarios[0]?.checks ?? []).filter((c) => / status 200$/.test(c.name));
        expect(statuses.map((c) => c.name)).toEqual(
          expect.arrayContaining(["product: status 200", "productTypes: status 200", "productType: status 200"]),
        );
        expect(statuses.every((c) => c.verdict === "pass")).toBe(true);
      });
    },
  );
});

/** How many of a run's requests were answered with `status` (k6's raw results). */
async function answersOf(file: string, status: string): Promise<number> {
  let count = 0;
  await readRawSamples(file, new Set(["http_reqs"]), (sample) => {
    if (sample.tags.status === status) count++;
  });
  return count;
}

/**
 * One product and one product type out and another back in turn, every 20 ms, until `stop`: a partner's list read a
 * moment ago names both. Everything is put back at the end; the number of changes made is the answer.
 */
async function withdrawAndPutBack(
  control: HooksClient,
  products: readonly string[],
  types: readonly string[],
  stop: AbortSignal,
): Promise<number> {
  const out: { product: string; type: string }[] = [];
  let changes = 0;
  for (let i = 0; !stop.aborted && i < 5000; i++) {
    const product = products[(i * 37) % products.length] ?? "";
    const type = types[(i * 53) % types.length] ?? "";
    if (!out.some((o) => o.product === product || o.type === type)) {
      await control.changeProduct(product, { available: false });
      await control.changeProductType(type, { available: false });
      out.push({ product, type });
    }
    const back = out.length > 3 ? out.shift() : undefined;
    if (back !== undefined) {
      await control.changeProduct(back.product, { available: true });
      await control.changeProductType(back.type, { available: true });
    }
    changes++;
    await sleep(20);
  }
  for (const o of out) {
    await control.changeProduct(o.product, { available: true });
    await control.changeProductType(o.type, { available: true });
  }
  return changes;
}
