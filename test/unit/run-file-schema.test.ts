import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  RUN_FILE_INLINE_SETTINGS,
  RUN_FILE_PATH_SETTINGS,
  RUN_FILE_RAILS,
  RUN_FILE_SECRET_SETTINGS,
  RUN_FILE_SETTINGS,
  RUN_FILE_TARGET_SETTINGS,
  runFileSchema,
} from "../../lib/harness/run-file/run-file-schema.ts";
import { starterRunFile } from "../../lib/harness/run-file/starter-run-file.ts";
import { RUN_FILE_SCHEMA_FILE, renderRunFileSchema } from "../../scripts/run-file-schema.ts";

const committed = () => readFileSync(new URL(`../../${RUN_FILE_SCHEMA_FILE}`, import.meta.url), "utf8");

/** The published document compiled on its own, as an editor or another tool would. */
function publishedValidator() {
  return new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
    JSON.parse(committed()) as Record<string, unknown>,
  );
}

describe("the run file's schema", () => {
  it("should be committed exactly as scripts/run-file-schema.ts generates it", async () => {
    expect(committed(), `${RUN_FILE_SCHEMA_FILE} differs: run npm run run-file-schema`).toBe(
      await renderRunFileSchema(),
    );
  });

  it("should see a drift when the table of settings changes and the file is not regenerated", async () => {
    const schema = runFileSchema();
    const changed = { ...schema, required: ["version"] };
    expect(await renderRunFileSchema(changed)).not.toBe(committed());
  });

  it("should hold every long flag of harness run, in camelCase, and nothing else", () => {
    expect([...RUN_FILE_SETTINGS].sort()).toEqual(
      [
        "target",
        "baseUrl",
        "controlUrl",
        "controlToken",
        "keys",
        "image",
        "port",
        "controlPort",
        "containerEnv",
        "containerEnvFile",
        "waitHttp",
        "waitLog",
        "startupTimeout",
        "cpus",
        "memory",
        "composeFile",
        "service",
        "controlService",
        "profile",
        "duration",
        "slo",
        "out",
        "seed",
        "serviceArgs",
        "serviceCpus",
        "traffic",
        "webhooks",
        "webhookListen",
        "webhookUrl",
        "webhookMisbehave",
        "webhookRefusals",
        "webhookRegisterCmd",
        "webhookRegistrationWait",
        "alternativesKeys",
        "reservationHold",
        "timeScale",
        "churn",
        "churnConfig",
        "churnRate",
        "pushgateway",
        "pushGroup",
        "prometheusRw",
        "rateWindow",
        "expectAlgorithm",
        "rateOutsideList",
        "chaos",
        "soakConfig",
        "capacitySafeShare",
        "capacityRates",
        "arrivalCurve",
        "timeCompression",
        "rateMultiplier",
        "segments",
        "allowSkips",
        "baseline",
        "tolerances",
        "baselinesDir",
      ].sort(),
    );
  });

  it("should class the target's settings, the secrets, the paths and the inline files", () => {
    expect(RUN_FILE_TARGET_SETTINGS).toEqual([
      "target",
      "baseUrl",
      "controlUrl",
      "controlToken",
      "keys",
      "image",
      "port",
      "controlPort",
      "containerEnv",
      "containerEnvFile",
      "waitHttp",
      "waitLog",
      "startupTimeout",
      "cpus",
      "memory",
      "composeFile",
      "service",
      "controlService",
    ]);
    expect(RUN_FILE_SECRET_SETTINGS).toEqual(["controlToken", "keys", "alternativesKeys"]);
    expect([...RUN_FILE_INLINE_SETTINGS].sort()).toEqual(
      ["chaos", "churnConfig", "slo", "soakConfig", "tolerances", "traffic"].sort(),
    );
    expect([...RUN_FILE_PATH_SETTINGS].sort()).toEqual(
      [...RUN_FILE_INLINE_SETTINGS, "containerEnvFile", "composeFile", "out", "baselinesDir"].sort(),
    );
    expect(RUN_FILE_RAILS).toEqual(["production", "shared", "allowedScenarios", "ceiling"]);
  });

  it("should accept the example it gives for every setting and rail, where each belongs", () => {
    const validate = publishedValidator();
    const schema = runFileSchema() as {
      definitions: { environment: { properties: Record<string, { examples: unknown[] }> } };
    };
    const properties = schema.definitions.environment.properties;
    expect(Object.keys(properties)).toEqual([...RUN_FILE_SETTINGS, ...RUN_FILE_RAILS]);
    for (const [name, property] of Object.entries(properties)) {
      const [example] = property.examples;
      const file = { version: 1, environments: { demo: { [name]: example } } };
      expect(validate(file), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it("should let a scenario hold every setting but the target's, and defaults every setting but the rails", () => {
    const validate = publishedValidator();
    const base = { version: 1, environments: { local: {} } };
    for (const name of RUN_FILE_SETTINGS) {
      const value = name === "target" ? "url" : RUN_FILE_SECRET_SETTINGS.includes(name) ? { env: "X" } : "x";
      // A value of the wrong type is fine here: only whether the key itself is allowed is asked.
      validate({ ...base, scenarios: { s: { [name]: value } } });
      const unknownInScenario = validate.errors?.some((e) => e.keyword === "additionalProperties") ?? false;
      expect(unknownInScenario, name).toBe(RUN_FILE_TARGET_SETTINGS.includes(name));
      validate({ ...base, defaults: { [name]: value } });
      expect(validate.errors?.some((e) => e.keyword === "additionalProperties") ?? false, name).toBe(false);
    }
    for (const rail of RUN_FILE_RAILS) {
      expect(validate({ ...base, defaults: { [rail]: true } }), rail).toBe(false);
      expect(validate.errors?.[0]?.keyword).toBe("additionalProperties");
    }
  });

  it("should accept the starter run file as published, so an editor does not flag it", () => {
    const validate = publishedValidator();
    expect(validate(parse(starterRunFile())), JSON.stringify(validate.errors)).toBe(true);
  });

  it("should refuse literal secrets and unknown keys as published, so an editor flags them", () => {
    const validate = publishedValidator();
    expect(validate({ version: 1, environments: { demo: { keys: ["abc"] } } })).toBe(false);
    expect(validate({ version: 1, environments: { demo: { ceilng: 300 } } })).toBe(false);
    expect(validate({ version: 2, environments: { demo: {} } })).toBe(false);
  });
});
