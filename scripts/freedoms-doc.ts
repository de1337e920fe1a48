/**
 * `npm run freedoms-doc`: writes docs/contract-freedoms.md from the inventory of the contract's freedoms
 * (lib/contract/contract-freedoms.ts) and the reference service's variations (service/variations/), formatted by the
 * project's prettier settings. test/unit/contract-freedoms.test.ts regenerates it and fails when the committed file
 * differs.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { CONTRACT_FREEDOMS, FREEDOM_AREAS, type ContractFreedom } from "../lib/contract/contract-freedoms.ts";
import { VARIATIONS } from "../service/variations/index.ts";

export const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));
export const FREEDOMS_DOC = "docs/contract-freedoms.md";

/** Tables stay one line per row: prettier would pad every cell to the widest of its column. */
const IGNORE = "<!-- prettier-ignore -->";
const cell = (text: string) => text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

function variationCell(freedom: ContractFreedom): string {
  if ("none" in freedom.variation) return `none: ${freedom.variation.none}`;
  const { name } = freedom.variation;
  const variation = VARIATIONS.find((v) => v.name === name);
  return `\`${name}\`: ${variation?.description ?? "(no such variation)"}`;
}

function freedomsTable(freedoms: readonly ContractFreedom[]): string[] {
  return [
    IGNORE,
    "| id | what is open | choices that pass | source | variation | decision |",
    "| --- | --- | --- | --- | --- | --- |",
    ...freedoms.map(
      (f) =>
        `| \`${f.id}\` | ${cell(f.question)} | ${cell(f.choices.map((c, i) => `${i + 1}. ${c}`).join(" "))} | ${cell(f.source)} | ${cell(variationCell(f))} | ${cell(f.decision ?? "")} |`,
    ),
  ];
}

/** The Markdown of docs/contract-freedoms.md before formatting. */
export function freedomsMarkdown(): string {
  const lines = [
    "<!-- Generated from lib/contract/contract-freedoms.ts by scripts/freedoms-doc.ts (npm run freedoms-doc). Do not edit by hand. -->",
    "",
    "# The contract's freedoms",
    "",
    "Where interface-spec.md, docs/contract-gaps.md or the published hooks document (docs/test-hooks.openapi.yaml)",
    "leave a choice to the implementation, a correct service may choose any of the choices listed, and the harness lets",
    "it pass: no check fails a service for a choice listed here. The first choice is the reference service's default;",
    "its variation (`--variations <name>`, or `--variations all`) takes another, and the tests prove every scenario",
    "passes with it, while every defect of the reference service is still caught. Where the documents were ambiguous,",
    "the project decided: either a rule (stated in docs/contract-gaps.md, judged, and listed in docs/conformance.md) or a",
    "freedom below (then the decision column says why).",
    "",
    "A check that fails your service for a choice the documents allow is a false alarm: please report it with the check's",
    "name, the answer it quotes and the sentence of the documents that allows your choice.",
    "",
    `${CONTRACT_FREEDOMS.length} freedoms, ${CONTRACT_FREEDOMS.filter((f) => "name" in f.variation).length} with a variation of the reference service.`,
  ];
  for (const [area, title] of Object.entries(FREEDOM_AREAS)) {
    const inArea = CONTRACT_FREEDOMS.filter((f) => f.area === area);
    lines.push("", `## ${title}`, "");
    lines.push(...(inArea.length === 0 ? ["None."] : freedomsTable(inArea)));
  }
  lines.push("");
  return lines.join("\n");
}

/** docs/contract-freedoms.md as it is committed. */
export async function renderFreedomsDoc(): Promise<string> {
  const options = (await prettier.resolveConfig(`${REPO_ROOT}${FREEDOMS_DOC}`)) ?? {};
  return prettier.format(freedomsMarkdown(), { ...options, filepath: FREEDOMS_DOC });
}

if (import.meta.main) {
  await writeFile(`${REPO_ROOT}${FREEDOMS_DOC}`, await renderFreedomsDoc());
  process.stdout.write(`wrote ${FREEDOMS_DOC}\n`);
}
