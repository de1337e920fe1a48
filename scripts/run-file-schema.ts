/**
 * `npm run run-file-schema`: writes docs/harness.schema.json, the run file's JSON Schema, from the table of settings
 * in lib/harness/run-file/run-file-schema.ts, formatted by the project's prettier settings so `npm run lint` accepts
 * it as written. test/unit/run-file-schema.test.ts regenerates it and fails when the committed file differs.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { runFileSchema } from "../lib/harness/run-file/run-file-schema.ts";

export const RUN_FILE_SCHEMA_FILE = "docs/harness.schema.json";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The schema's text as it is committed. */
export async function renderRunFileSchema(schema: object = runFileSchema()): Promise<string> {
  const path = `${REPO_ROOT}${RUN_FILE_SCHEMA_FILE}`;
  const options = (await prettier.resolveConfig(path)) ?? {};
  return prettier.format(JSON.stringify(schema), { ...options, filepath: path });
}

if (import.meta.main) {
  await writeFile(`${REPO_ROOT}${RUN_FILE_SCHEMA_FILE}`, await renderRunFileSchema());
  process.stdout.write(`wrote ${RUN_FILE_SCHEMA_FILE}\n`);
}
