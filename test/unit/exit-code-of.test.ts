import { describe, expect, it } from "vitest";
import { EXIT } from "../../lib/harness/exit-codes.ts";
import { exitCodeOf, OUTCOME_PRIORITY, type Outcome } from "../../lib/harness/run/exit-code-of.ts";

/** One outcome of each kind, highest priority first, with the code it gives alone. */
const TABLE: readonly [Outcome, number][] = [
  [{ kind: "interrupted", signal: "SIGTERM" }, 143],
  [{ kind: "reports-crashed" }, 4],
  [{ kind: "target-died" }, 3],
  [{ kind: "ended", exitCode: EXIT.usage }, 2],
  [{ kind: "judge-crashed" }, 4],
  [{ kind: "hook-unusable", exitCode: EXIT.target }, 3],
  [{ kind: "stop-crashed" }, 4],
  [{ kind: "failed" }, 1],
];

describe("exitCodeOf", () => {
  it("should pass a run whose phases found nothing", () => {
    expect(exitCodeOf([])).toBe(EXIT.pass);
  });

  it("should give each outcome's own code when it is alone", () => {
    expect(TABLE.map(([o]) => exitCodeOf([o]))).toEqual(TABLE.map(([, code]) => code));
    expect(exitCodeOf([{ kind: "interrupted", signal: "SIGINT" }])).toBe(EXIT.interrupted);
  });

  it("should list every kind in the priority table in the order of the table above", () => {
    expect(TABLE.map(([o]) => o.kind)).toEqual([...OUTCOME_PRIORITY]);
  });

  it("should let each outcome win over every outcome below it, in whatever order they were found", () => {
    for (let i = 0; i < TABLE.length; i++) {
      const [winner, code] = TABLE[i] as [Outcome, number];
      const below = TABLE.slice(i + 1).map(([o]) => o);
      expect(exitCodeOf([...below, winner]), winner.kind).toBe(code);
      expect(exitCodeOf([winner, ...below.reverse()]), winner.kind).toBe(code);
    }
  });

  it("should keep a hook failure's 2 or 3 over a failed stop, and a judge's crash (4) over a hook failure", () => {
    expect(exitCodeOf([{ kind: "stop-crashed" }, { kind: "hook-unusable", exitCode: EXIT.usage }])).toBe(EXIT.usage);
    expect(exitCodeOf([{ kind: "hook-unusable", exitCode: EXIT.usage }, { kind: "judge-crashed" }])).toBe(EXIT.harness);
  });

  it("should keep the first of the lowest kind: a comparison refused after a failed check stays 1", () => {
    expect(exitCodeOf([{ kind: "failed" }, { kind: "failed", exitCode: EXIT.usage }])).toBe(EXIT.failed);
    expect(exitCodeOf([{ kind: "failed", exitCode: EXIT.usage }, { kind: "failed" }])).toBe(EXIT.usage);
  });

  it("should end with the signal's code even when writing the reports crashed", () => {
    expect(exitCodeOf([{ kind: "reports-crashed" }, { kind: "interrupted", signal: "SIGINT" }])).toBe(EXIT.interrupted);
  });
});
