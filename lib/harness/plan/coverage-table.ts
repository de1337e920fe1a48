/**
 * Which checks each coverage level judges, as data: the dry-run prints the rows of the run's scenarios and
 * extensions at the level the plan expects, and the README's "check x level" table is this table (a unit test keeps
 * the two the same). The run itself states what it could not judge (coverage.ts, NotJudged) after asking the target.
 */
import type { CoverageLevel } from "../coverage.ts";

export interface CoverageRow {
  check: string;
  /** The row applies when the run has one of these scenarios or extensions ("*": every run). */
  partOf: readonly string[];
  level: Record<CoverageLevel, string>;
}

const everywhere = (what: string): Record<CoverageLevel, string> => ({
  "public-api": what,
  "required-hooks": what,
  reference: what,
});

export const COVERAGE_TABLE: readonly CoverageRow[] = [
  {
    check: "status, envelope, keys, 429 headers, shared allowance, rate-limit #1-#9",
    partOf: ["*"],
    level: everywhere("judged"),
  },
  {
    check: "churn",
    partOf: ["churn"],
    level: {
      "public-api": "competing reservations (seats only)",
      "required-hooks": "supplier-side",
      reference: "supplier-side",
    },
  },
  {
    check: "alternatives rules 1, 3, 4, 9",
    partOf: ["alternatives"],
    level: {
      "public-api": "judged with --alternatives-keys, --reservation-hold",
      "required-hooks": "judged",
      reference: "judged",
    },
  },
  {
    check: "alternatives precision, recall",
    partOf: ["alternatives"],
    level: {
      "public-api": "single-date and calendar reads",
      "required-hooks": "ground truth (hook)",
      reference: "ground truth (hook)",
    },
  },
  {
    check: "alternatives rule 8 qty exact",
    partOf: ["alternatives"],
    level: {
      "public-api": "where the answer shows a seat count",
      "required-hooks": "ground truth (hook)",
      reference: "ground truth (hook)",
    },
  },
  {
    check: "invariant: lost booking, double confirm, confirm vs cancel, illegal",
    partOf: ["invariants"],
    level: everywhere("judged"),
  },
  {
    check: "invariant: no oversell, one winner",
    partOf: ["invariants"],
    level: {
      "public-api": "judged with --reservation-hold",
      "required-hooks": "judged",
      reference: "judged (+ supply)",
    },
  },
  {
    check: "invariant: expiry",
    partOf: ["invariants"],
    level: { "public-api": "not judged (no clock hook)", "required-hooks": "judged", reference: "judged" },
  },
  {
    check: "webhooks: the run's own booking events",
    partOf: ["webhooks"],
    level: {
      "public-api": "judged (sink registered by hand or command)",
      "required-hooks": "judged",
      reference: "judged",
    },
  },
  {
    check: "webhooks: all eight kinds, expiry, decisions after delays",
    partOf: ["webhooks"],
    level: { "public-api": "not judged / observed only", "required-hooks": "judged", reference: "judged" },
  },
  {
    check: "cleanup of the run's reservations",
    partOf: ["*"],
    level: { "public-api": "judged", "required-hooks": "not needed (reset)", reference: "not needed (reset)" },
  },
  {
    check: "soak memory drift",
    partOf: ["soak"],
    level: { "public-api": "not judged (needs /metrics)", "required-hooks": "not judged", reference: "judged" },
  },
  {
    check: "conformance: rules of level required-hooks",
    partOf: ["conformance"],
    level: { "public-api": "not judged (by design)", "required-hooks": "judged", reference: "judged" },
  },
  {
    check: "conformance: gaps-error-500 (a failure made by the fault hook)",
    partOf: ["conformance"],
    level: { "public-api": "not judged (by design)", "required-hooks": "not judged (by design)", reference: "judged" },
  },
  {
    check: "conformance: the reference service's own choices (gaps-error-413)",
    partOf: ["conformance"],
    level: { "public-api": "not in the verdict", "required-hooks": "not in the verdict", reference: "judged" },
  },
];

/** The rows of a run with these scenarios and extensions ("churn", "webhooks", ...). */
export function coverageRowsFor(parts: readonly string[]): CoverageRow[] {
  return COVERAGE_TABLE.filter((row) => row.partOf.some((p) => p === "*" || parts.includes(p)));
}
