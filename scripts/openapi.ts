/**
 * `npm run openapi`: writes the two published OpenAPI 3.1 documents from lib/contract (lib/contract/openapi.ts),
 * as YAML formatted by the project's prettier settings, so `npm run lint` accepts them as they are written.
 * test/unit/openapi-documents.test.ts regenerates them and fails when the committed files differ.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { stringify } from "yaml";
import { partnerApiDocument, testHooksDocument, type OpenApiDocument } from "../lib/contract/openapi.ts";

export interface PublishedDocument {
  /** Relative to the repository root. */
  readonly file: string;
  readonly build: () => OpenApiDocument;
}

export const PUBLISHED_DOCUMENTS: readonly PublishedDocument[] = [
  { file: "docs/partner-api.openapi.yaml", build: partnerApiDocument },
  { file: "docs/test-hooks.openapi.yaml", build: testHooksDocument },
];

export const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));

const HEADER = "# Generated from lib/contract by scripts/openapi.ts (npm run openapi). Do not edit by hand.\n";

/** The YAML text of a document as it is committed. */
export async function renderYaml(document: OpenApiDocument, file: string): Promise<string> {
  // No anchors and aliases: a reader (and some OpenAPI tools) expect every schema written out or $ref'd.
  const text = HEADER + stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
  const options = (await prettier.resolveConfig(`${REPO_ROOT}${file}`)) ?? {};
  return prettier.format(text, { ...options, filepath: file });
}

if (import.meta.main) {
  for (const doc of PUBLISHED_DOCUMENTS) {
    await writeFile(`${REPO_ROOT}${doc.file}`, await renderYaml(doc.build(), doc.file));
    process.stdout.write(`wrote ${doc.file}\n`);
  }
}
