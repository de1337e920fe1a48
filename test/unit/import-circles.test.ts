/**
 * Zero import circles (issue 28): every folder the project type-checks, read as one import graph. The check is
 * proven on a fixture circle made of a type-only import one way and a re-export the other.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importCircles, importGraph } from "./import-circles.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["lib", "scenarios", "service", "scripts", "bench", "test", "esbuild.config.ts", "vitest.config.ts"];
const FIXTURE = path.join("test", "data", "import-circle");

describe("import circles", () => {
  it("should find none in the project", () => {
    expect(importCircles(importGraph(ROOT, FOLDERS, [FIXTURE]))).toEqual([]);
  });

  it("should find a circle made of a type-only import and a re-export, and only its files", () => {
    const circles = importCircles(importGraph(ROOT, [FIXTURE]));
    expect(circles).toEqual([[path.join(FIXTURE, "first.ts"), path.join(FIXTURE, "second.ts")]]);
  });
});
