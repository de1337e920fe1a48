/** The README's check x level table is the table the dry-run prints from (lib/harness/plan/coverage-table.ts). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { COVERAGE_TABLE, coverageRowsFor } from "../../lib/harness/plan/coverage-table.ts";

/** The rows of the README's markdown table whose header starts with "check", cells trimmed. */
function readmeRows(): string[][] {
  const lines = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8").split("\n");
  const start = lines.findIndex((l) => /^\| check\s+\| public API only/.test(l));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

describe("the coverage table", () => {
  it("should be the README's check x level table, row for row", () => {
    expect(readmeRows()).toEqual(
      COVERAGE_TABLE.map((r) => [r.check, r.level["public-api"], r.level["required-hooks"], r.level.reference]),
    );
  });

  it("should give a run only the rows of its scenarios and extensions", () => {
    const rows = coverageRowsFor(["partner-mix"]).map((r) => r.check);
    expect(rows).toContain("cleanup of the run's reservations");
    expect(rows.some((r) => r.startsWith("invariant"))).toBe(false);
    expect(coverageRowsFor(["invariants", "churn"]).map((r) => r.check)).toEqual(
      expect.arrayContaining(["churn", "invariant: expiry"]),
    );
  });
});
