import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALTERNATIVES_PLAN_EXHAUSTED_MARKER } from "../../lib/contract/index.ts";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";
import { AlternativesJudgeExtension, planExhaustedFrom } from "../../lib/harness/alternatives/extension.ts";
import { runContext } from "../run-context.ts";

/** A k6 log line (its JSON log format) carrying one marker payload. */
const k6Line = (payload: unknown) =>
  JSON.stringify({ level: "warning", msg: `${ALTERNATIVES_PLAN_EXHAUSTED_MARKER}${JSON.stringify(payload)}` });

function context() {
  return runContext({
    runDir: mkdtempSync(path.join(tmpdir(), "atd-alt-ext-")),
    keys: ["k1", "k2"],
    scenarios: ["alternatives"],
    level: "required-hooks",
  });
}

async function finish(log: string) {
  const extension = new AlternativesJudgeExtension(DEFAULT_SLO, "alternatives");
  return extension.finish(context(), { logs: new Map([["alternatives", log]]), startedAt: 0, finishedAt: 1 });
}

describe("the alternatives extension", () => {
  it("should report from which iteration the plan's inventory blocks ran out, the earliest of the VUs' reports", async () => {
    const log = [k6Line({ iteration: 214 }), '{"level":"info","msg":"other"}', k6Line({ iteration: 201 })].join("\n");
    expect(planExhaustedFrom(log)).toBe(201);
    const verdict = await finish(log);
    expect(verdict.figures.planExhaustedFromIteration).toBe(201);
    expect(verdict.findings.join("\n")).toMatch(/ran out of inventory blocks from iteration 201 on/);
  });

  it("should say nothing of the plan when no iteration ran out of blocks", async () => {
    const verdict = await finish('{"level":"info","msg":"other"}');
    expect(planExhaustedFrom("")).toBeUndefined();
    expect(verdict.figures).not.toHaveProperty("planExhaustedFromIteration");
    expect(verdict.findings).toEqual([]);
  });
});
