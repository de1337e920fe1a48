/**
 * The run file (harness.yaml, YAML or JSON): any text is read into a file of version 1 with at least one environment,
 * or refused with exit 2 and one line naming the place; a file read is resolved for each of its environments into
 * settings, or refused the same way.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { HarnessError } from "../../../lib/harness/exit-codes.ts";
import { readRunFile } from "../../../lib/harness/run-file/read-run-file.ts";
import { resolveRunFile } from "../../../lib/harness/run-file/resolve-run-file.ts";
import type { RunFile } from "../../../lib/harness/run-file/run-file.ts";
import { starterRunFile } from "../../../lib/harness/run-file/starter-run-file.ts";
import { yamlFileText } from "./input-arbitraries.ts";
import { runs, timeoutFor } from "./property-runs.ts";
import { expectUsageRefusal, settledOf } from "./refusals.ts";
import { tempFiles } from "./temp-files.ts";

/** The starter file with every kind of setting added: inline objects, lists, a scenario's own settings. */
const VALID_RUN_FILE = (() => {
  const starter = parseYaml(starterRunFile()) as Record<string, Record<string, unknown>>;
  return {
    ...starter,
    defaults: {
      ...starter.defaults,
      containerEnv: ["LOG_LEVEL=debug"],
      webhookRefusals: "500,429",
      capacityRates: "2000-3000/8",
      slo: { errorRate: 0.02 },
    },
  };
})();

/**
 * Failures found and fixed, as their file texts. A secret read from the variable `__proto__` read Object.prototype
 * (the matrix tier's longer run found it: a TypeError, exit 4).
 */
const FIXED_TEXTS: [string][] = [[stringifyYaml(VALID_RUN_FILE).replace("env: ATD_DEMO_KEYS", "env: __proto__")]];

/** Environment variables the starter's secrets read. */
const ENV = { ATD_DEMO_KEYS: "k1,k2", ATD_PRODUCTION_KEYS: "k3" };

function expectReadable(runFile: RunFile): void {
  expect(runFile.content.version).toBe(1);
  expect(Object.keys(runFile.content.environments).length).toBeGreaterThan(0);
}

export function runFileProperties(scale: number): void {
  describe("run file", () => {
    const files = tempFiles("run-file-properties");

    it(
      "should read any run file text and resolve each of its environments, or refuse it with exit 2",
      async () => {
        await fc.assert(
          // Bad aliases included: an unresolved one, or an alias bomb, was a ReferenceError of the YAML library's toJS
          // (exit 4) until lib/harness/parse-file-text.ts made it a refusal at the alias's line.
          fc.asyncProperty(yamlFileText(VALID_RUN_FILE), async (text) => {
            const file = await files.write(text, "harness.yaml");
            const read = await settledOf(() => readRunFile(file), HarnessError);
            if (!read.ok) {
              expectUsageRefusal(read.error);
              return;
            }
            expectReadable(read.value);
            for (const environment of Object.keys(read.value.content.environments)) {
              const resolved = await settledOf(
                () => resolveRunFile(read.value, { environment, scenarios: ["smoke"] }, ENV),
                HarnessError,
              );
              if (resolved.ok) expect(resolved.value.environment.name).toBe(environment);
              else expectUsageRefusal(resolved.error);
            }
          }),
          runs(60, scale, FIXED_TEXTS),
        );
      },
      timeoutFor(60, scale, 200),
    );
  });
}
