/**
 * The default tier's order of files. vitest starts the files of a project longest first by the durations of its last
 * run, and, where it has none (a fresh clone, which is what CI runs), largest first: a long k6 file in a small file
 * then starts last, and the tier waits for it alone at its end (partner-traffic's minute started after everything
 * else did). The files below start first, in this order; the rest keep vitest's own order after them.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The longest files of the default tier, longest first (file times of a whole `npm test`, 2026-11-28). */
export const LONGEST_FIRST = [
  "test/k6/required-hooks-target.test.ts",
  "test/k6/partner-traffic.test.ts",
  "test/k6/run-file.test.ts",
  "test/k6/dry-run-estimate.test.ts",
  "test/k6/capacity.test.ts",
  "test/k6/rate-limit.test.ts",
  "test/k6/reports-export.test.ts",
  "test/k6/soak.test.ts",
] as const;

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification): number => {
      const i = (LONGEST_FIRST as readonly string[]).indexOf(path.relative(root, spec.moduleId));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the unlisted files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/** A renamed or removed file would silently lose its place: refused at once instead. */
export function checkLongestFirst(root: string): void {
  const missing = LONGEST_FIRST.filter((file) => !existsSync(path.join(root, file)));
  if (missing.length > 0) {
    throw new Error(
      `Failed to order the test files: ${missing.join(", ")} listed in test/longest-first-sequencer.ts do not exist. Please update LONGEST_FIRST.`,
    );
  }
}
