/**
 * junit.xml for CI: a test suite per scenario and per extension, a test case per check and per threshold (failures
 * carry what was wrong or the observed value), plus one "completed" case per suite so that a scenario that crashed
 * before any check ran still shows red instead of an empty, green suite. A skipped scenario or extension is a suite
 * with one skipped case carrying the reason (a property and system-out: the builder's <skipped/> takes no message).
 */
import junitModule, { type Builder } from "junit-report-builder";
import type { RunSummary } from "./summary.ts";
import type { Comparison } from "../compare/compare-runs.ts";
import { formatChange, formatInterval, formatTolerance, formatValue } from "../compare/compare-markdown.ts";
import type { CheckVerdict, ThresholdVerdict } from "../verdict.ts";
import { formatObserved } from "./format-observed.ts";

// The package's types declare an ES default export, but its CommonJS build assigns module.exports, which Node hands
// over as the default import: the builder itself.
const junit = junitModule as unknown as Builder;

interface SuiteSource {
  kind: "scenario" | "extension" | "check";
  name: string;
  checks: readonly CheckVerdict[];
  thresholds: readonly ThresholdVerdict[];
  errors: readonly string[];
}

/** What a check saw, when the scenario logged it (CheckVerdict.observed, where the verdict carries it). */
function observedOf(check: CheckVerdict): string | undefined {
  return "observed" in check && typeof check.observed === "string" ? check.observed : undefined;
}

/** A `compare` suite: a case per compared metric, failed when it regressed, skipped when it could not be judged. */
function comparisonSuite(builder: ReturnType<Builder["newBuilder"]>, summary: RunSummary, c: Comparison): void {
  const suite = builder
    .testSuite()
    .name("compare")
    .timestamp(new Date(summary.run.startedAt))
    .property("baseline_run_id", c.baseline.identity.runId)
    .property("verdict", c.verdict);
  for (const m of c.metrics) {
    const testCase = suite
      .testCase()
      .className(`atd.compare.${m.group.replace(/ /g, "-")}`)
      .name(m.id)
      .property("baseline", formatValue(m, m.baseline))
      .property("candidate", formatValue(m, m.candidate))
      .property("change", formatChange(m))
      .property("verdict", m.verdict);
    if (m.verdict === "regressed") {
      testCase.failure(
        `regressed: ${formatValue(m, m.baseline)} -> ${formatValue(m, m.candidate)} (${formatChange(m)}, ${formatInterval(m)}; tolerance ${formatTolerance(m)})`,
        "Regressed",
      );
    } else if (m.verdict === "not judged") {
      testCase.standardOutput(`not judged: ${m.note ?? ""}`).skipped();
    }
  }
}

export function junitReport(summary: RunSummary, comparison?: Comparison): string {
  const builder = junit.newBuilder().name(`atd-harness run ${summary.run.id}`);
  const runSuite = builder
    .testSuite()
    .name("run")
    .timestamp(new Date(summary.run.startedAt))
    .time(summary.run.durationSeconds)
    .property("run_id", summary.run.id)
    .property("profile", summary.run.profile)
    .property("target", summary.run.target.kind)
    .property("scenarios", summary.run.scenarios.join(","));
  const runCase = runSuite.testCase().className("atd.run").name("run completed");
  if (summary.errors.length) runCase.error(summary.errors[0], "RunError", summary.errors.join("\n"));

  const sources: SuiteSource[] = [
    ...summary.scenarios.map((s) => ({ kind: "scenario" as const, name: s.scenario, ...s })),
    ...summary.extensions.map((e) => ({ kind: "extension" as const, ...e })),
  ];
  for (const source of sources) {
    const className = `atd.${source.kind}.${source.name}`;
    const suite = builder.testSuite().name(`${source.kind} ${source.name}`).timestamp(new Date(summary.run.startedAt));
    const completed = suite.testCase().className(className).name(`${source.kind} completed`);
    if (source.errors.length) completed.error(source.errors[0], "ScenarioError", source.errors.join("\n"));
    for (const check of source.checks) {
      const testCase = suite
        .testCase()
        .className(className)
        .name(`check ${check.name}`)
        .property("passes", String(check.passes))
        .property("fails", String(check.fails));
      const observed = observedOf(check);
      if (observed !== undefined) testCase.property("observed", observed);
      if (check.verdict === "fail") {
        const problems = check.problems.length ? check.problems : ["the scenario logged no detail for this check"];
        testCase
          .failure(`${String(check.fails)} of ${String(check.passes + check.fails)} failed: ${problems[0]}`, "CheckFailed")
          .stacktrace(problems.map((p) => `- ${p}`).join("\n"));
      }
    }
    for (const threshold of source.thresholds) {
      const observed = formatObserved(threshold.metric, threshold.observed);
      const testCase = suite
        .testCase()
        .className(className)
        .name(`threshold ${threshold.metric} ${threshold.expression}`)
        .property("observed", observed);
      if (threshold.verdict === "fail") {
        testCase.failure(`observed ${observed}, expected ${threshold.expression}`, "ThresholdCrossed");
      }
    }
  }
  // A scenario or extension asked for but not run is a skipped case, never a missing (or green) one; so is a check
  // not judged, by design or not (the reason says which).
  for (const skip of summary.skipped ?? []) {
    const byDesign = skip.kind === "by-design";
    builder
      .testSuite()
      .name(`${skip.kind} ${skip.name}`)
      .timestamp(new Date(summary.run.startedAt))
      .testCase()
      .className(`atd.${skip.kind}.${skip.name}`)
      .name(byDesign ? "not judged by design" : `${skip.kind} skipped`)
      .property("reason", skip.reason)
      .standardOutput(byDesign ? `not judged by design: ${skip.reason}` : `skipped: ${skip.reason}`)
      .skipped();
  }
  if (comparison) comparisonSuite(builder, summary, comparison);
  return `${builder.build()}\n`;
}
