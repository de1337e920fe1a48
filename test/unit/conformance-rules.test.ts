/**
 * The rule inventory (lib/contract/conformance-rules.ts) against the documents it cites: every section of the spec
 * and every heading and bullet topic of decisions.md has a rule or a written reason, every source names a place that
 * exists, ids are unique and well formed, every check another scenario judges exists under that name, the generated
 * docs/conformance.md is current, and docs/spec/ is a verbatim copy of ../shared/spec/.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ALTERNATIVES_CHECKS } from "../../lib/contract/alternatives-rules.ts";
import {
  CONFORMANCE_RULES,
  SECTIONS_WITHOUT_RULES,
  STATEMENTS_NOT_CHECKED,
  type ConformanceRule,
} from "../../lib/contract/conformance-rules.ts";
import { ACCURACY_CHECKS } from "../../lib/harness/alternatives/accuracy.ts";
import { CHEAP_RULES, KEY_SET_RULES } from "../../lib/k6/cheap-rules.ts";
import { INVARIANT_CHECKS } from "../../lib/harness/invariants/history.ts";
import { PUBLIC_API_WEBHOOK_CHECKS, WEBHOOK_CHECKS, WEBHOOK_METRICS } from "../../lib/harness/webhooks/verdict.ts";
import { CONFORMANCE_DOC, REPO_ROOT, partOf, renderConformanceDoc } from "../../scripts/conformance-doc.ts";

const read = (file: string) => readFileSync(`${REPO_ROOT}${file}`, "utf8");
const SPEC = read("docs/spec/interface-spec.md");
const DECISIONS = read("docs/spec/decisions.md");
const CONTRACT_GAPS = read("docs/contract-gaps.md");

/** The places a source names, one per "; "-separated part. */
const sourceParts = (source: string) => source.split("; ");
/** What the rules cite: a section is covered by a rule, not by a statement no rule judges. */
const ruleSourceParts = CONFORMANCE_RULES.flatMap((r) => sourceParts(r.source));
const allSourceParts = [...ruleSourceParts, ...STATEMENTS_NOT_CHECKED.flatMap((s) => sourceParts(s.source))];
const withoutRules = Object.keys(SECTIONS_WITHOUT_RULES);

/** The ## and ### headings of interface-spec.md: section number and title. */
function specSections(): { num: string; title: string }[] {
  return SPEC.split("\n").flatMap((line) => {
    const m = /^#{2,3} (\d+(?:\.\d+)?)\.? (.+)$/.exec(line);
    return m?.[1] !== undefined && m[2] !== undefined ? [{ num: m[1], title: m[2] }] : [];
  });
}

/**
 * A bullet's topic: its first `code` span when it starts with one, else its text up to the first colon, else up to
 * the first comma; backticks dropped. "- Errors: ..." -> "Errors"; "- Dates `YYYY-MM-DD`, ..." -> "Dates YYYY-MM-DD".
 */
function bulletTopic(text: string): string {
  const code = /^`([^`]+)`/.exec(text);
  const topic = code?.[1] ?? text.split(":")[0] ?? text;
  return (code ? topic : (topic.split(",")[0] ?? topic)).replace(/`/g, "").trim();
}

/** The ## headings of decisions.md with the topics of their top-level bullets. */
function decisionSections(): { heading: string; topics: string[] }[] {
  const out: { heading: string; topics: string[] }[] = [];
  for (const line of DECISIONS.split("\n")) {
    const heading = /^## (.+)$/.exec(line)?.[1];
    if (heading !== undefined) out.push({ heading, topics: [] });
    else if (line.startsWith("- ")) out.at(-1)?.topics.push(bulletTopic(line.slice(2)));
  }
  return out;
}

const gapsHeadings = CONTRACT_GAPS.split("\n").flatMap((line) => /^## (.+)$/.exec(line)?.[1] ?? []);

describe("every section has a rule or a reason", () => {
  it("finds the documents' sections (the parsers still read them)", () => {
    expect(specSections().map((s) => s.num)).toEqual(
      expect.arrayContaining(["1", "2", "2.1", "2.12", "3", "4", "4.0", "4.4", "5", "6", "7", "7.3", "8", "9"]),
    );
    const decisions = decisionSections();
    expect(decisions.map((d) => d.heading)).toContain("Wire format");
    expect(decisions.find((d) => d.heading === "Wire format")?.topics).toEqual([
      "Errors",
      "Lists",
      "links",
      "Dates YYYY-MM-DD",
      "OPTIONS on every path",
    ]);
  });

  it("interface-spec.md: every ## and ### section", () => {
    const missing = specSections()
      .filter(
        ({ num }) =>
          !ruleSourceParts.includes(`interface-spec.md ${num}`) &&
          !withoutRules.some(
            (k) => k.startsWith(`interface-spec.md ${num} `) || k.startsWith(`interface-spec.md ${num}. `),
          ),
      )
      .map(({ num, title }) => `${num} ${title}`);
    expect(missing, "sections with neither a rule nor an entry in SECTIONS_WITHOUT_RULES").toEqual([]);
  });

  it("decisions.md: every heading and every bullet topic of its sections", () => {
    const missing: string[] = [];
    for (const { heading, topics } of decisionSections()) {
      if (withoutRules.includes(`decisions.md ${heading}`)) continue;
      const named = (part: string) =>
        part === `decisions.md ${heading}` || part.startsWith(`decisions.md ${heading}: `);
      if (!ruleSourceParts.some(named)) missing.push(heading);
      for (const topic of topics) {
        if (!ruleSourceParts.includes(`decisions.md ${heading}: ${topic}`)) missing.push(`${heading}: ${topic}`);
      }
    }
    expect(missing, "headings and bullet topics with neither a rule nor an entry in SECTIONS_WITHOUT_RULES").toEqual(
      [],
    );
  });

  it("every source and every section without rules names a place that exists", () => {
    const sections = new Set(specSections().map((s) => s.num));
    const decisionPlaces = new Set(
      decisionSections().flatMap(({ heading, topics }) => [heading, ...topics.map((t) => `${heading}: ${t}`)]),
    );
    const exists = (part: string): boolean => {
      const [doc, ...rest] = part.split(" ");
      const place = rest.join(" ");
      if (doc === "interface-spec.md") return sections.has(place) || sections.has(place.split(/\.? /)[0] ?? "");
      if (doc === "decisions.md") return decisionPlaces.has(place);
      if (doc === "contract-gaps.md") return gapsHeadings.includes(place);
      return false;
    };
    const unknown = [...allSourceParts, ...withoutRules].filter((p) => !exists(p));
    expect(unknown, "sources naming no section of docs/spec/ or docs/contract-gaps.md").toEqual([]);
    // A section without rules must really have none.
    const ruled = withoutRules.filter((k) => {
      const num = /^interface-spec\.md (\d+(?:\.\d+)?)/.exec(k)?.[1];
      return num !== undefined
        ? ruleSourceParts.includes(`interface-spec.md ${num}`)
        : ruleSourceParts.some((p) => p === k || p.startsWith(`${k}: `));
    });
    expect(ruled, "sections listed without rules that have rules").toEqual([]);
  });
});

describe("ids", () => {
  const ids = CONFORMANCE_RULES.map((r) => r.id);

  it("are unique", () => {
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('follow "<section>-<slug>" or "gaps-<topic>", and a section id cites its section', () => {
    const malformed = ids.filter((id) => !/^(\d+(\.\d+)?|gaps)(-[a-z0-9]+)+$/.test(id));
    expect(malformed).toEqual([]);
    const uncited = CONFORMANCE_RULES.filter((r) => {
      const section = /^(\d+(?:\.\d+)?)-/.exec(r.id)?.[1];
      return section !== undefined && !sourceParts(r.source).includes(`interface-spec.md ${section}`);
    }).map((r) => r.id);
    expect(uncited, "section rules whose source does not name their section").toEqual([]);
  });

  it("hold every id other work references", () => {
    const referenced = [
      "1-links-self",
      "1-options",
      "2.1-product-list-keys",
      "2.2-product-detail-keys",
      "2.3-product-type-summary-keys",
      "2.4-product-type-detail-keys",
      "2.5-price-list-entry-keys",
      "2.6-single-date-keys",
      "2.7-booking-list-keys",
      "2.8-booking-detail-keys",
      "2.9-voucher-keys",
      "gaps-formats-dates",
      "gaps-formats-timestamps",
      "gaps-formats-money",
      "gaps-formats-uuids",
      "2.5-weekday-matches-date",
      "2.5-available-consistent",
      "2.6-no-cache",
      "4.0-fields-honoured",
      "4.0-language-honoured",
      "4.0-unknown-values-refused",
      "4.2-date-range-required",
      "4.2-date-format",
      "4.2-six-months",
      "4.3-bookings-filters",
      "4.3-pagination-consistent",
      "3-initial-reserved",
      "3-illegal-transition-409",
      "3-expiry-5-days",
      "5-auth-required",
      "5-voucher-links-need-key",
      "gaps-error-envelope",
      "gaps-error-400-validation",
      "gaps-error-404",
      "gaps-error-405",
      "gaps-error-413",
      "gaps-error-400-malformed-json",
      "gaps-error-410-gone",
    ];
    expect(referenced.filter((id) => !ids.includes(id))).toEqual([]);
    expect(CONFORMANCE_RULES.find((r) => r.id === "3-expiry-5-days")).toMatchObject({
      level: "required-hooks",
      judgedBy: { scenario: "invariants", check: INVARIANT_CHECKS.expiry },
    });
  });

  it("every rule is placed in a spec part of docs/conformance.md", () => {
    expect(CONFORMANCE_RULES.map((r) => partOf(r)).filter((p) => !/^[1-9]$/.test(p))).toEqual([]);
  });

  it("rules have their words: statement and check written, no placeholders", () => {
    const thin = CONFORMANCE_RULES.filter(
      (r: ConformanceRule) => r.statement.length < 20 || r.check.length < 20 || /\bTBD\b/.test(r.check + r.statement),
    ).map((r) => r.id);
    expect(thin).toEqual([]);
  });
});

describe("judged by another scenario: the named check exists", () => {
  /** rate-limit's check names are `rule(n, "text")` calls in its rules (lib/k6/rate-limit/rules.ts). */
  const rateLimitChecks = [...read("lib/k6/rate-limit/rules.ts").matchAll(/\brule\((\d+),\s*"([^"]+)"\)/g)].map(
    (m) => `rate-limit #${m[1]} ${m[2]}`,
  );
  const CHECKS_OF: Readonly<Record<string, readonly string[]>> = {
    "rate-limit": rateLimitChecks,
    alternatives: [...Object.values(ALTERNATIVES_CHECKS), ...Object.values(ACCURACY_CHECKS)],
    webhooks: [
      ...Object.values(WEBHOOK_CHECKS),
      ...Object.values(PUBLIC_API_WEBHOOK_CHECKS),
      ...Object.values(WEBHOOK_METRICS),
    ],
    invariants: Object.values(INVARIANT_CHECKS),
  };

  it("reads the rate-limit probe's names", () => {
    expect(rateLimitChecks).toContain("rate-limit #2 the allowance runs out with a 429");
  });

  it("every scenario named exists and records the check", () => {
    const wrong = CONFORMANCE_RULES.flatMap((r) => {
      if (!("check" in r.judgedBy)) return [];
      const { scenario, check } = r.judgedBy;
      if (!existsSync(`${REPO_ROOT}scenarios/${scenario}.ts`)) return [`${r.id}: no scenario ${scenario}`];
      return CHECKS_OF[scenario]?.includes(check) ? [] : [`${r.id}: ${scenario} has no check "${check}"`];
    });
    expect(wrong).toEqual([]);
  });
});

describe("cheap rules under load", () => {
  const underLoad = new Set([
    ...Object.values(CHEAP_RULES).map((name) => name.slice(0, name.indexOf(":"))),
    ...Object.values(KEY_SET_RULES),
  ]);

  it("should check every cheap rule of the conformance scenario under load, by a check named by its id", () => {
    const cheap = CONFORMANCE_RULES.filter((r) => r.cheap && r.judgedBy.scenario === "conformance").map((r) => r.id);
    expect(cheap.filter((id) => !underLoad.has(id))).toEqual([]);
  });

  it("should check under load only rules the inventory marks cheap", () => {
    const byId = new Map(CONFORMANCE_RULES.map((r) => [r.id, r]));
    expect([...underLoad].filter((id) => byId.get(id)?.cheap !== true)).toEqual([]);
  });
});

describe("generated and copied files", () => {
  it("docs/conformance.md is what the generator writes (npm run conformance-doc)", async () => {
    expect(read(CONFORMANCE_DOC)).toBe(await renderConformanceDoc());
  });

  const shared = `${REPO_ROOT}../shared/spec/`;
  // Where a clone has no shared/ beside it, the copies are at least the two documents (their titles).
  const titles: Record<string, string> = {
    "interface-spec.md": "# Attractions, Tours and Activities Distribution Service: Interface Specification",
    "decisions.md": "# How this project fills the gaps of interface-spec.md",
  };
  it("docs/spec/ is a verbatim copy of ../shared/spec/", () => {
    for (const [file, title] of Object.entries(titles)) {
      const copy = read(`docs/spec/${file}`);
      if (existsSync(`${shared}${file}`)) {
        expect(copy, `docs/spec/${file} differs from ../shared/spec/${file}`).toBe(
          readFileSync(`${shared}${file}`, "utf8"),
        );
      } else {
        expect(copy.split("\n")[0]).toBe(title);
      }
    }
  });
});
