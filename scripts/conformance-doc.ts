/**
 * `npm run conformance-doc`: writes docs/conformance.md from the rule inventory (lib/contract/conformance-rules.ts):
 * the rules grouped by spec part, the sections without rules and the statements no rule judges, formatted by the
 * project's prettier settings so `npm run lint` accepts the file as written. test/unit/conformance-rules.test.ts
 * regenerates it and fails when the committed file differs.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import {
  CONFORMANCE_RULES,
  SECTIONS_WITHOUT_RULES,
  STATEMENTS_NOT_CHECKED,
  type ConformanceRule,
} from "../lib/contract/conformance-rules.ts";

export const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));
export const CONFORMANCE_DOC = "docs/conformance.md";

/** The nine parts of interface-spec.md, in its order. */
export const SPEC_PARTS: readonly { part: string; title: string }[] = [
  { part: "1", title: "What the service does" },
  { part: "2", title: "Resources and their fields" },
  { part: "3", title: "States and transitions" },
  { part: "4", title: "Endpoints" },
  { part: "5", title: "Authentication" },
  { part: "6", title: "Events" },
  { part: "7", title: "Errors" },
  { part: "8", title: "Limits" },
  { part: "9", title: "Versioning" },
];

/** The spec part a gaps rule belongs to, by its topic (the id's second word). */
const GAPS_TOPIC_PART: Readonly<Record<string, string>> = {
  formats: "2",
  states: "3",
  lists: "4",
  pagination: "4",
  booking: "4",
  webhooks: "6",
  error: "7",
  "rate-limit": "8",
};

/** The spec part a rule is listed under: its id's section, or for a gaps rule the part its topic fills. */
export function partOf(rule: ConformanceRule): string {
  const section = /^(\d+)(?:\.\d+)?-/.exec(rule.id);
  if (section?.[1] !== undefined) return section[1];
  const topic = Object.keys(GAPS_TOPIC_PART).find((t) => rule.id.startsWith(`gaps-${t}-`));
  const part = topic === undefined ? undefined : GAPS_TOPIC_PART[topic];
  if (part === undefined)
    throw new Error(`Failed to place rule ${rule.id} in a spec part: no topic of GAPS_TOPIC_PART.`);
  return part;
}

/** Tables stay one line per row: prettier would pad every cell to the widest of its column (the file would triple). */
const IGNORE = "<!-- prettier-ignore -->";

/** A table cell: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

const judgedBy = (rule: ConformanceRule) =>
  "check" in rule.judgedBy ? `${rule.judgedBy.scenario}: \`${rule.judgedBy.check}\`` : rule.judgedBy.scenario;

function rulesTable(rules: readonly ConformanceRule[]): string[] {
  return [
    IGNORE,
    "| id | source | statement | check | level | cheap | judged by |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rules.map(
      (r) =>
        `| \`${r.id}\` | ${cell(r.source)} | ${cell(r.statement)} | ${cell(r.check)} | ${r.referenceOnly ? `${r.level}, reference service only` : r.level} | ${r.cheap ? "yes" : "no"} | ${cell(judgedBy(r))} |`,
    ),
  ];
}

/** The Markdown of docs/conformance.md before formatting. */
export function conformanceMarkdown(): string {
  const rules = CONFORMANCE_RULES;
  const count = (keep: (r: ConformanceRule) => boolean) => rules.filter(keep).length;
  const lines = [
    "<!-- Generated from lib/contract/conformance-rules.ts by scripts/conformance-doc.ts (npm run conformance-doc). Do not edit by hand. -->",
    "",
    "# Conformance rules",
    "",
    "Every normative statement of the contract as a named rule. The contract is `interface-spec.md` and",
    "`decisions.md` in `../shared/spec/`: shared/ is the source. docs/spec/ holds a verbatim copy so that the",
    "repository holds what the rules cite, and test/unit/conformance-rules.test.ts checks that the copy equals shared/",
    "wherever shared/ exists. docs/contract-gaps.md says what decisions.md says, in this project's words.",
    "",
    "Each rule names where it comes from, what the harness checks, the lowest coverage level that can judge it",
    "(`public-api`: through the public API alone; `required-hooks`: with the required test hooks), whether it is cheap",
    "(a header or a key of an answer the traffic gets anyway, no extra request) and who judges it: the conformance",
    "scenario, or the scenario and check that already do (rate limit, alternatives, webhooks, invariants), named as",
    "they appear in the verdict. The test also proves every section of the two documents has a rule or a reason below.",
    "A rule of the reference service's own choice (level `reference service only`) is judged only where the run's",
    "coverage level is `reference` and is in no other service's verdict. A rule a run cannot judge at its level, or on",
    "what a service chose where the contract leaves the choice open, is reported as not judged by design and does not",
    "fail the run; one it could have judged and did not is a skip, which does (unless `--allow-skips`).",
    "",
    `${rules.length} rules: ${count((r) => r.level === "public-api")} public-api, ${count((r) => r.level === "required-hooks")} required-hooks, ${count((r) => r.referenceOnly === true)} of the reference service only; ${count((r) => r.cheap)} cheap; ${count((r) => !("check" in r.judgedBy))} judged by the conformance scenario, ${count((r) => "check" in r.judgedBy)} by other scenarios.`,
  ];
  for (const { part, title } of SPEC_PARTS) {
    const inPart = rules.filter((r) => partOf(r) === part);
    lines.push("", `## Part ${part}. ${title}`, "");
    if (inPart.length === 0) lines.push("No rules.");
    else lines.push(...rulesTable(inPart));
  }
  lines.push(
    "",
    "## Sections without rules",
    "",
    IGNORE,
    "| section | reason |",
    "| --- | --- |",
    ...Object.entries(SECTIONS_WITHOUT_RULES).map(([section, reason]) => `| ${cell(section)} | ${cell(reason)} |`),
    "",
    "## Statements no rule judges",
    "",
    IGNORE,
    "| source | statement | reason |",
    "| --- | --- | --- |",
    ...STATEMENTS_NOT_CHECKED.map((s) => `| ${cell(s.source)} | ${cell(s.statement)} | ${cell(s.reason)} |`),
    "",
  );
  return lines.join("\n");
}

/** docs/conformance.md as it is committed. */
export async function renderConformanceDoc(): Promise<string> {
  const options = (await prettier.resolveConfig(`${REPO_ROOT}${CONFORMANCE_DOC}`)) ?? {};
  return prettier.format(conformanceMarkdown(), { ...options, filepath: CONFORMANCE_DOC });
}

if (import.meta.main) {
  await writeFile(`${REPO_ROOT}${CONFORMANCE_DOC}`, await renderConformanceDoc());
  process.stdout.write(`wrote ${CONFORMANCE_DOC}\n`);
}
