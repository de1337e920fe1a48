import { describe, expect, it } from "vitest";
import { FileTextError, parseJsonText, parseYamlText } from "../../lib/harness/parse-file-text.ts";

/** What a parse refuses, as the FileTextError the harness turns into an exit 2 with file:line:col. */
function refusal(parse: () => unknown): { where: string; reason: string } {
  try {
    parse();
  } catch (error) {
    if (error instanceof FileTextError) return { where: error.where, reason: error.reason };
    throw error;
  }
  throw new Error("the text was accepted");
}

/** Nine nested levels of nine aliases each: 9^9 nodes, which the yaml library refuses to expand. */
function aliasBomb(): string {
  const lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i <= 8; i++)
    lines.push(
      `l${String(i)}: &l${String(i)} [${Array(9)
        .fill(`*l${String(i - 1)}`)
        .join(", ")}]`,
    );
  return `version: 1\n${lines.join("\n")}\n`;
}

describe("file text", () => {
  it("should read YAML and JSON", () => {
    expect(parseYamlText("a: [1, 2]\nb: &x { c: 1 }\nd: *x\n", "f.yaml")).toEqual({
      a: [1, 2],
      b: { c: 1 },
      d: { c: 1 },
    });
    expect(parseJsonText('{"a": [1, 2]}', "f.json")).toEqual({ a: [1, 2] });
  });

  it("should place a YAML syntax error at its line and column", () => {
    expect(refusal(() => parseYamlText("a: 1\nb: [1, 2\n", "f.yaml"))).toMatchObject({ where: "f.yaml:3:1" });
  });

  it("should refuse an alias bomb at the first alias too deep to expand, not crash", () => {
    const { where, reason } = refusal(() => parseYamlText(aliasBomb(), "bomb.yaml"));
    // l4's aliases of l3 are the first whose own expansion is past the bound.
    expect(where).toBe("bomb.yaml:6:10");
    expect(reason).toBe("Excessive alias count indicates a resource exhaustion attack");
  });

  it("should place an alias without its anchor", () => {
    expect(refusal(() => parseYamlText("a: 1\nb: *nowhere\n", "f.yaml"))).toEqual({
      where: "f.yaml:2:4",
      reason: "Unresolved alias (the anchor must be set before the alias): nowhere",
    });
  });

  it("should give JSON.parse's reason at the place the text stops being JSON", () => {
    expect(refusal(() => parseJsonText('{\n  "a": 1,\n  "b": }\n', "f.json")).where).toBe("f.json:3:8");
    expect(refusal(() => parseJsonText("ratePerSecond: 3", "f.json")).where).toBe("f.json:1:1");
    expect(refusal(() => parseJsonText("  \n", "f.json"))).toEqual({
      where: "f.json:1:1",
      reason: "the file is empty",
    });
  });

  it("should name the file alone for a JSON error YAML would let through", () => {
    // A trailing comma is YAML, so the yaml library cannot place it; JSON.parse's reason still says what is wrong.
    const { where, reason } = refusal(() => parseJsonText('{"a": 1,}', "f.json"));
    expect(where).toBe("f.json");
    expect(reason).toMatch(/JSON/);
  });
});
