import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXTENSION_REPORTS } from "../../lib/harness/extension-reports.ts";
import { isMillisecondMetric } from "../../lib/harness/reports/threshold-units.ts";

const REPORTS = path.resolve(import.meta.dirname, "../../lib/harness/reports");
/** The folders of the extensions (lib/harness/extensions.ts lists them). */
const EXTENSION_FOLDERS = ["webhooks", "chaos", "churn", "soak", "capacity", "alternatives", "invariants", "cleanup"];

/** Every module specifier a file imports or re-exports. */
const importsOf = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gms)].map((m) => m[1] ?? "");

describe("the reports and the extensions' report pieces", () => {
  it("should keep every extension's code out of lib/harness/reports", () => {
    const named = readdirSync(REPORTS)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) =>
        importsOf(path.join(REPORTS, f))
          .filter((spec) => EXTENSION_FOLDERS.some((folder) => spec.startsWith(`../${folder}/`)))
          .map((spec) => `${f} imports ${spec}`),
      );
    expect(named).toEqual([]);
  });

  it("should see an import of an extension folder (the check can fail)", () => {
    const file = path.resolve(import.meta.dirname, "../../lib/harness/webhooks/latency-report.ts");
    expect(importsOf(file)).toContain("../reports/extension-series.ts");
  });

  it("should take the unit of an extension's threshold metric from its piece", () => {
    const declared = EXTENSION_REPORTS.flatMap((r) => r.millisecondMetrics ?? []);
    expect(declared).toContain("webhook_latency");
    expect(isMillisecondMetric("webhook_latency{type:booking_status_updated}")).toBe(true);
    expect(isMillisecondMetric("webhook_lost")).toBe(false);
  });
});
