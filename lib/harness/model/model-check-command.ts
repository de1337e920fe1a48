/**
 * `harness model check <run dir> --model traffic.json`: reads the run's raw results and the model, judges them
 * (model-check.ts), prints a table and the verdict, and writes model-check.json into the run directory. Exit 0 when the
 * run matches the model, 1 when it does not, 2 for bad input (no such run, no model, a run without the series).
 */
import { access, writeFile } from "node:fs/promises";
import path from "node:path";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { rawResultsFile } from "../reports/raw-samples.ts";
import { readTrafficFile } from "../run-settings.ts";
import { checkModel, expectationOf, type ModelCheck, type ShareCheck, type ThinkCheck } from "./model-check.ts";
import { readRunObservations } from "./run-observations.ts";

export const MODEL_CHECK_FILE = "model-check.json";

export interface ModelCheckFlags {
  model: string;
  /** The scenario whose raw results are read. */
  scenario: string;
  /** Products in the catalogue, for a built-in model's full syncs (its expected products calls). */
  products: number;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const word = (v: string) => v.toUpperCase();

function shareLines(title: string, unit: string, c: ShareCheck): string[] {
  const chi = Number.isFinite(c.chiSquare) ? c.chiSquare.toFixed(1) : "infinite (observed what the model never makes)";
  return [
    `${title}: ${word(c.verdict)} (${String(c.n)} ${unit}; chi-square ${chi}, df ${String(c.df)}, critical ${String(c.critical)} at 1%: ${c.significant ? "significant" : "not significant"}; largest difference ${c.maxDifferencePoints.toFixed(1)} points${c.worst ? ` (${c.worst})` : ""}, tolerance ${String(c.tolerancePoints)}; Cramér's V ${Number.isFinite(c.cramersV) ? c.cramersV.toFixed(3) : "-"})`,
    ...c.rows.map(
      (r) => `  ${r.key.padEnd(20)} expected ${pct(r.expected).padStart(6)}  observed ${pct(r.observed).padStart(6)}`,
    ),
  ];
}

function thinkLine(t: ThinkCheck): string {
  return `  ${t.persona.padEnd(20)} ${word(t.verdict)} (${String(t.n)} samples; KS distance ${t.ksDistance.toFixed(3)}, critical ${Number.isFinite(t.critical) ? t.critical.toFixed(3) : "-"} at 1%, tolerance ${String(t.tolerance)})`;
}

export function modelCheckLines(check: ModelCheck): string[] {
  const skips = Object.entries(check.skips);
  return [
    `model: ${check.model}`,
    ...shareLines("endpoint mix", "requests", check.endpointMix),
    ...shareLines("persona shares", "sessions", check.personaShares),
    `think times:${check.thinkTimes.length ? "" : " not judged (the model has none)"}`,
    ...check.thinkTimes.map(thinkLine),
    ...(skips.length
      ? [`skipped steps (prerequisite missing): ${skips.map(([e, n]) => `${e} ${String(n)}`).join(", ")}`]
      : []),
    `verdict: ${word(check.verdict)}`,
  ];
}

async function rawFileOf(runDir: string, scenario: string): Promise<string> {
  const file = path.join(runDir, rawResultsFile(scenario));
  try {
    await access(file);
  } catch {
    throw new HarnessError(
      `Failed to check the run against the model: ${file} does not exist. Please give the directory of a ${scenario} run (reports/<run-id>), or --scenario.`,
      EXIT.usage,
    );
  }
  return file;
}

/** The check; its exit code. */
export async function runModelCheck(
  runDir: string,
  flags: ModelCheckFlags,
  say: (line: string) => void,
): Promise<number> {
  const raw = await rawFileOf(runDir, flags.scenario);
  const { traffic } = await readTrafficFile(path.resolve(flags.model));
  const observations = await readRunObservations(raw);
  if (Object.keys(observations.personaSessions).length === 0) {
    throw new HarnessError(
      `Failed to check the run against the model: ${raw} has no atd_sessions series (no traffic sessions, or a run of an older harness). Please check a partner-mix run made by this harness.`,
      EXIT.usage,
    );
  }
  const check = checkModel(observations, expectationOf(traffic, flags.products));
  say(`model check of ${runDir} against ${flags.model}${observations.truncated ? " (raw results truncated)" : ""}`);
  for (const line of modelCheckLines(check)) say(line);
  await writeFile(path.join(runDir, MODEL_CHECK_FILE), `${JSON.stringify(check, null, 2)}\n`);
  if (check.verdict === "not judged") return EXIT.usage;
  return check.verdict === "pass" ? EXIT.pass : EXIT.failed;
}
