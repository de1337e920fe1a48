/**
 * The page walk of catalogue sync under load (lib/k6/traffic/full-sync.ts, checked as 4.3-pagination-consistent):
 * the catalogue scenario fails by that check alone on a products list whose pages overlap (PAGE_WALK_DEFECTS), naming
 * the item and pages, and passes it on the correct service while products are withdrawn and put back all through the
 * run, so that its walks meet lists that shift between two pages (and the whole run passes: a detail of a product
 * withdrawn since it was listed answers the contract's 404).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { HEADERS } from "../../lib/contract/index.ts";
import { CHEAP_RULES, KEY_SET_RULES } from "../../lib/k6/cheap-rules.ts";
import { PAGE_WALK_CHECK } from "../../lib/k6/page-walk.ts";
import { EmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";
import { EVERY_VARIATION, PAGE_WALK_DEFECTS } from "./defect-catalogue.ts";
import { failedChecks, runHarnessProcess, tempFile } from "./harness-process.ts";

const ruleOf = (check: string): string => check.slice(0, Math.max(0, check.indexOf(":")));
/** The checks named by a rule of the inventory that a load run records. */
const RULE_IDS = new Set([
  ...Object.values(CHEAP_RULES).map(ruleOf),
  ...Object.values(KEY_SET_RULES),
  ruleOf(PAGE_WALK_CHECK),
]);
/** Long enough for several full syncs (one sync in ten) at the smoke profile's rate. */
const DURATION = "10s";

describe("the page walk under load", { timeout: 200_000 }, () => {
  it.each(Object.entries(PAGE_WALK_DEFECTS))(
    "should fail catalogue with %s by its rule's check",
    async (defect, caught) => {
      const result = await runHarnessProcess(
        ["run", "catalogue", "--duration", DURATION, "--service-args", `--defects ${defect} ${EVERY_VARIATION}`],
        { timeoutMs: 90_000 },
      );
      expect(result.exitCode, result.output).toBe(1);
      const failed = [...new Set(failedChecks(result).map(ruleOf))].filter((id) => RULE_IDS.has(id));
      expect(failed.sort()).toEqual([...caught.by].sort());
      const walk = result.summary?.scenarios[0]?.checks.find((c) => c.name === PAGE_WALK_CHECK);
      expect(walk?.problems.join(" ")).toMatch(/GET \/v2\/products: item \S+ is on pages 1 and 2 \(per_page 50\)/);
    },
  );

  it("should pass the page walk on the correct service while products are withdrawn and put back", async () => {
    await using service = await new EmbeddedTarget().start();
    const key = service.apiKeys[0] ?? "";
    const res = await fetch(`${service.apiUrl}/v2/products?per_page=100`, { headers: { [HEADERS.auth]: key } });
    const uuids = ((await res.json()) as { data: { uuid: string }[] }).data.map((p) => p.uuid);
    const keys = tempFile("keys.json", service.apiKeys.slice(0, 4));
    const done = new AbortController();
    let changes = 0;
    // One product out and another back in turn: the list shifts under the walks, its total often unchanged.
    const churn = (async () => {
      const out: string[] = [];
      for (let i = 0; !done.signal.aborted && i < 5000; i++) {
        const uuid = uuids[(i * 37) % uuids.length] ?? "";
        if (!out.includes(uuid)) {
          await service.control.changeProduct(uuid, { available: false });
          out.push(uuid);
        }
        if (out.length > 3) await service.control.changeProduct(out.shift() ?? "", { available: true });
        changes++;
        await sleep(20);
      }
      for (const uuid of out) await service.control.changeProduct(uuid, { available: true });
    })();
    const result = await runHarnessProcess(
      ["run", "catalogue", "--duration", "20s", "--target", "url", "--base-url", service.apiUrl, "--keys", keys],
      { timeoutMs: 120_000 },
    );
    done.abort();
    await churn;
    expect(changes).toBeGreaterThan(100);
    // The details of products withdrawn since they were listed answer 404: the contract's answer, no failure.
    expect(result.exitCode, result.output).toBe(0);
    const walk = result.summary?.scenarios[0]?.checks.find((c) => c.name === PAGE_WALK_CHECK);
    expect(walk?.verdict, JSON.stringify(walk?.problems)).toBe("pass");
    expect(walk?.passes).toBeGreaterThan(3);
  });
});
