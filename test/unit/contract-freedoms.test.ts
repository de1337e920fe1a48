import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONTRACT_FREEDOMS, FREEDOM_AREAS } from "../../lib/contract/contract-freedoms.ts";
import { FREEDOMS_DOC, REPO_ROOT, renderFreedomsDoc } from "../../scripts/freedoms-doc.ts";
import { VARIATIONS } from "../../service/variations/index.ts";

describe("the contract's freedoms and the reference service's variations", () => {
  it("should give every freedom a unique id of its area, a question, two choices or more and a source", () => {
    const ids = CONTRACT_FREEDOMS.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of CONTRACT_FREEDOMS) {
      expect(Object.keys(FREEDOM_AREAS), f.id).toContain(f.area);
      expect(f.id.startsWith(`${f.area}-`), f.id).toBe(true);
      expect(f.question.length, f.id).toBeGreaterThan(10);
      expect(f.choices.length, f.id).toBeGreaterThanOrEqual(2);
      expect(f.source, f.id).toMatch(/interface-spec\.md|contract-gaps\.md|openapi\.yaml|RFC \d+/);
    }
  });

  it("should link every variation to one freedom and every freedom's variation to a variation that exists", () => {
    const freedoms = new Map(CONTRACT_FREEDOMS.map((f) => [f.id, f]));
    for (const v of VARIATIONS) {
      const freedom = freedoms.get(v.freedom);
      expect(freedom, `${v.name} varies ${v.freedom}, which the inventory lacks`).toBeDefined();
    }
    const names = new Set<string>(VARIATIONS.map((v) => v.name));
    for (const f of CONTRACT_FREEDOMS) {
      if ("name" in f.variation) expect(names.has(f.variation.name), `${f.id}: ${f.variation.name}`).toBe(true);
    }
    // A variation named by no freedom's row would be listed nowhere in the document.
    const named = new Set(CONTRACT_FREEDOMS.flatMap((f) => ("name" in f.variation ? [f.variation.name] : [])));
    expect(VARIATIONS.filter((v) => !named.has(v.name)).map((v) => v.name)).toEqual([]);
  });

  it("docs/contract-freedoms.md is what the generator writes (npm run freedoms-doc)", async () => {
    expect(readFileSync(`${REPO_ROOT}${FREEDOMS_DOC}`, "utf8")).toBe(await renderFreedomsDoc());
  });
});
