import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readRunFile } from "../../lib/harness/run-file/read-run-file.ts";
import { resolveRunFile } from "../../lib/harness/run-file/resolve-run-file.ts";
import type { RunFile } from "../../lib/harness/run-file/run-file.ts";
import { starterRunFile } from "../../lib/harness/run-file/starter-run-file.ts";

let dir: string;
let runFile: RunFile;
const ENV = { ATD_DEMO_KEYS: "demo-1,demo-2", ATD_PRODUCTION_KEYS: "prod-1" };

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "run-file-starter-"));
  await writeFile(path.join(dir, "harness.yaml"), starterRunFile());
  runFile = await readRunFile(path.join(dir, "harness.yaml"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the starter run file of harness init", () => {
  it("should read as a valid run file with local, demo and production and a partner-mix scenario", () => {
    expect(Object.keys(runFile.content.environments)).toEqual(["local", "demo", "production"]);
    expect(Object.keys(runFile.content.scenarios ?? {})).toEqual(["partner-mix"]);
  });

  it("should run the reference service locally when nothing is named", async () => {
    const resolved = await resolveRunFile(runFile, { scenarios: [] }, {});
    expect(resolved.environment).toEqual({ name: "local", production: false, shared: false });
    expect(resolved.scenarios).toEqual(["smoke"]);
    expect(resolved.values).toMatchObject({ target: "embedded", profile: "smoke", out: path.join(dir, "reports") });
  });

  it("should resolve demo as a shared deployment whose keys come from a variable", async () => {
    const resolved = await resolveRunFile(runFile, { environment: "demo", scenarios: ["partner-mix"] }, ENV);
    expect(resolved.environment).toEqual({
      name: "demo",
      production: false,
      shared: true,
      allowedScenarios: ["smoke", "catalogue", "partner-mix"],
      ceilingPerKeyPerMinute: 300,
    });
    expect(resolved.apiKeys).toEqual(["demo-1", "demo-2"]);
    expect(resolved.values).toMatchObject({
      target: "url",
      baseUrl: "https://demo.example.com",
      profile: "average",
      duration: "5m",
    });
  });

  it("should resolve production as read-only smoke and catalogue under a ceiling of 200", async () => {
    const resolved = await resolveRunFile(runFile, { environment: "production", scenarios: ["smoke"] }, ENV);
    expect(resolved.environment).toEqual({
      name: "production",
      production: true,
      shared: false,
      allowedScenarios: ["smoke", "catalogue"],
      ceilingPerKeyPerMinute: 200,
    });
    expect(resolved.apiKeys).toEqual(["prod-1"]);
  });

  it("should state the precedence and keep every secret out of the file", () => {
    const text = starterRunFile();
    expect(text).toContain(
      "command-line flags > HARNESS_* environment variables > the chosen scenarios' settings\n# > the environment's settings > defaults > the harness's built-in defaults.",
    );
    const environments = (parse(text) as { environments: Record<string, { keys?: unknown }> }).environments;
    expect(environments.demo?.keys).toEqual({ env: "ATD_DEMO_KEYS" });
    expect(environments.production?.keys).toEqual({ env: "ATD_PRODUCTION_KEYS" });
  });
});
