/**
 * The lint rules that keep the layers one way (eslint.config.js): each fails on a deliberately wrong import and
 * passes the right one. Linted as text under the layer's path, without type information (the rule needs none).
 */
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../lib/harness/paths.ts";

const eslint = new ESLint({
  cwd: REPO_ROOT,
  overrideConfig: [{ files: ["**/*.ts"], ...tseslint.configs.disableTypeChecked }],
});

async function importErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${REPO_ROOT}/${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("layer imports", () => {
  it.each([
    [
      "lib/contract/wrong.ts",
      'import { readFile } from "node:fs/promises";\nexport const r = readFile;\n',
      /runtime-neutral/,
    ],
    ["lib/contract/wrong.ts", 'import http from "k6/http";\nexport const h = http;\n', /runtime-neutral/],
    [
      "lib/contract/wrong.ts",
      'import { EXIT } from "../harness/exit-codes.ts";\nexport const e = EXIT;\n',
      /nothing of ours/,
    ],
    [
      "lib/k6/wrong.ts",
      'import { EXIT } from "../harness/exit-codes.ts";\nexport const e = EXIT;\n',
      /nothing of the harness/,
    ],
    ["lib/k6/wrong.ts", 'import { readFile } from "node:fs/promises";\nexport const r = readFile;\n', /inside k6/],
    [
      "lib/harness/wrong.ts",
      'import { ApiClient } from "../k6/client.ts";\nexport const c = ApiClient;\n',
      /nothing of lib\/k6/,
    ],
    [
      "lib/harness/wrong.ts",
      'import { DEFAULT_OPTIONS } from "../../service/options.ts";\nexport const o = DEFAULT_OPTIONS;\n',
      /nothing of service/,
    ],
    [
      "lib/k6/wrong.ts",
      'import { generateCatalogue } from "../reference/catalogue.ts";\nexport const g = generateCatalogue;\n',
      /reference/,
    ],
    [
      "lib/reference/wrong.ts",
      'import { parseServiceArgs } from "../../service/options.ts";\nexport const p = parseServiceArgs;\n',
      /imports only lib\/contract/,
    ],
    ["lib/reference/wrong.ts", 'import { randomUUID } from "node:crypto";\nexport const r = randomUUID;\n', /pure/],
  ])("should refuse in %s: %s", async (file, code, message) => {
    const errors = await importErrors(file, code);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join("\n")).toMatch(message);
  });

  it.each([
    ["lib/k6/right.ts", 'import { ENDPOINT_NAMES } from "../contract/index.ts";\nexport const n = ENDPOINT_NAMES;\n'],
    ["lib/harness/right.ts", 'import { PROFILES } from "../contract/profiles.ts";\nexport const p = PROFILES;\n'],
    ["lib/harness/right.ts", 'import { runK6 } from "./k6-runner.ts";\nexport const r = runK6;\n'],
    ["lib/harness/right.ts", 'import { Inventory } from "../reference/inventory.ts";\nexport const i = Inventory;\n'],
    ["lib/reference/right.ts", 'import { utcMs } from "../contract/dates.ts";\nexport const u = utcMs;\n'],
  ])("should accept in %s: %s", async (file, code) => {
    expect(await importErrors(file, code)).toEqual([]);
  });
});
