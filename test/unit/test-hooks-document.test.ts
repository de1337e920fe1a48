/**
 * docs/test-hooks.openapi.yaml is what a team outside the project implements the hooks from, with
 * docs/contract-gaps.md and docs/partner-api.openapi.yaml beside it and nothing else: every word of it must stand on
 * its own. It names no code identifier, no file of the repository, no other document, no flag of the harness and no
 * part of the reference service's insides; these checks keep it so.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import * as contract from "../../lib/contract/index.ts";
import {
  ADVANCE_SECONDS_MAX,
  INVENTORY_RANGE_MAX_DAYS,
  TEST_HOOKS,
  TIME_SCALE_MAX,
  TIME_SCALE_MIN,
} from "../../lib/contract/index.ts";
import * as openapi from "../../lib/contract/openapi.ts";
import * as alternativesRules from "../../lib/contract/alternatives-rules.ts";
import * as hookFailure from "../../lib/contract/hook-failure.ts";
import * as productTypeDiscovery from "../../lib/contract/product-type-discovery.ts";
import * as referenceValues from "../../lib/contract/reference-values.ts";
import { REPO_ROOT } from "../../scripts/openapi.ts";

/** The documents a team gets with this one; it may name them. */
const PUBLISHED = ["docs/contract-gaps.md", "docs/partner-api.openapi.yaml", "docs/test-hooks.openapi.yaml"];

/** Every key and string value of the document, with where it sits. */
function texts(value: unknown, where = ""): { where: string; text: string }[] {
  if (typeof value === "string") return [{ where, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => texts(v, `${where}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [{ where, text: k }, ...texts(v, `${where}/${k}`)]);
}

/**
 * Names exported by lib/contract's modules that read as code (TEST_HOOKS, REQUIRED_TEST_HOOKS, expectedAlternatives,
 * ENDPOINTS...): not a plain lower-case word such as `shown`, which prose may use.
 */
const CODE_IDENTIFIERS = [
  ...new Set(
    [contract, openapi, alternativesRules, hookFailure, productTypeDiscovery, referenceValues]
      .flatMap((m) => Object.keys(m))
      .filter((name) => /[A-Z_]/.test(name)),
  ),
];

/** What a text names that a team does not get; empty when it stands alone. */
export function outsideNames(text: string): string[] {
  const found: string[] = [];
  for (const name of CODE_IDENTIFIERS) {
    if (new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(text)) found.push(name);
  }
  const withoutPublished = PUBLISHED.reduce((t, file) => t.replaceAll(file, ""), text);
  const patterns: [RegExp, string][] = [
    [/(?:\.\.\/|\b(?:lib|service|scripts|test|scenarios|docs|shared)\/)[\w./-]*/g, "a path of the repository"],
    // Not the hooks' own paths (GET /__control/openapi.json).
    [/(?<![\w/.-])[\w-]+\.(?:ts|js|md|json|ya?ml)\b/g, "a file"],
    [/\binterface-spec\b|\bspec \d|\(spec\b/g, "the interface spec"],
    [/(?<![\w-])--[a-z][\w-]*/g, "a command-line flag"],
    [/\b(?:oracle|storage|scheduler|timers?|switchboard|snapshot)\b/gi, "the reference service's insides"],
  ];
  for (const [pattern, what] of patterns) {
    for (const match of withoutPublished.matchAll(pattern)) found.push(`${what}: ${match[0]}`);
  }
  return found;
}

describe("docs/test-hooks.openapi.yaml", () => {
  it("should name nothing outside itself, docs/contract-gaps.md and docs/partner-api.openapi.yaml", () => {
    const committed = parse(readFileSync(`${REPO_ROOT}docs/test-hooks.openapi.yaml`, "utf8")) as unknown;
    const problems = texts(committed).flatMap(({ where, text }) =>
      outsideNames(text).map((name) => `${where || "/"}: ${name}`),
    );
    expect(problems).toEqual([]);
  });

  it("should see a code identifier, a repository file, the spec, a flag and the reference's insides", () => {
    expect(outsideNames("By endpoint name of ENDPOINTS (REQUIRED_TEST_HOOKS).")).toEqual([
      "ENDPOINTS",
      "REQUIRED_TEST_HOOKS",
    ]);
    expect(outsideNames("as expectedAlternatives computes it")).toEqual(["expectedAlternatives"]);
    expect(outsideNames("see docs/service.md and ../shared/spec")).toEqual([
      "a path of the repository: docs/service.md",
      "a path of the repository: ../shared/spec",
    ]);
    expect(outsideNames("see service.md")).toEqual(["a file: service.md"]);
    expect(outsideNames("alternatives (spec 7.2)")).toEqual(["the interface spec: (spec"]);
    expect(outsideNames("the keys given with --keys")).toEqual(["a command-line flag: --keys"]);
    expect(outsideNames("Timers on the virtual clock; the oracle's snapshot")).toEqual([
      "the reference service's insides: Timers",
      "the reference service's insides: oracle",
      "the reference service's insides: snapshot",
    ]);
    // The published documents may be named; plain prose and the document's own field names pass.
    expect(
      outsideNames(
        "The error envelope of docs/partner-api.openapi.yaml; docs/contract-gaps.md (Control API). remaining, advanceSeconds, X-Control-Token, date_start, 2026-01-01, whsec_",
      ),
    ).toEqual([]);
  });

  it("should state in words the bounds no schema keyword holds, as the constants have them, and so should contract-gaps", () => {
    expect(TEST_HOOKS.inventory.query.date_end.description).toContain(`${INVENTORY_RANGE_MAX_DAYS} days after it`);
    const gaps = readFileSync(`${REPO_ROOT}docs/contract-gaps.md`, "utf8").replace(/\s+/g, " ");
    const n = (x: number) => x.toLocaleString("en-US");
    for (const stated of [
      `up to ${INVENTORY_RANGE_MAX_DAYS} days after`,
      `from 0 to ${n(ADVANCE_SECONDS_MAX)}`,
      `from ${TIME_SCALE_MIN} to ${n(TIME_SCALE_MAX)}`,
    ]) {
      expect(gaps).toContain(stated);
    }
  });
});
