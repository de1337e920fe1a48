/**
 * Saved baselines and how a comparison finds its two runs. A baseline is a run's digest (run-digest.ts: per endpoint
 * histograms, counts, extension figures, the run's identity) kept under a name in a baselines folder
 * (baselines/ in the repository, or --baselines-dir / HARNESS_BASELINES), one JSON file per name. A comparison takes
 * a run directory, a baseline file or a baseline's name for either side.
 */
import { access, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { isRecord } from "../../contract/index.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { makeOutputDirectory } from "../make-directory.ts";
import { SUMMARY_FILE } from "../reports/summary.ts";
import { readRunSummary, writeReports } from "../reports/write-reports.ts";
import { DIGEST_FILE, parseDigest, readDigestFile, type RunDigest } from "./run-digest.ts";

export const BASELINE_KIND = "atd-harness baseline";

export interface SavedBaseline {
  kind: typeof BASELINE_KIND;
  name: string;
  savedAt: string;
  /** The run directory it was saved from (for the record; the baseline does not need it any more). */
  savedFrom: string;
  digest: RunDigest;
}

/** A run to compare, wherever it came from. */
export interface ComparableRun {
  /** What the messages call it: a run directory, a baseline's name or file. */
  label: string;
  /** The run directory, when it is one (its reports get the comparison). */
  runDir?: string;
  digest: RunDigest;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** A run directory's digest; a run made before digests were written gets one from its saved raw results. */
export async function digestOfRunDir(runDir: string): Promise<RunDigest> {
  const file = path.join(runDir, DIGEST_FILE);
  if (!(await exists(file))) {
    const summary = await readRunSummary(runDir);
    await writeReports(runDir, summary);
  }
  try {
    return await readDigestFile(file);
  } catch (error) {
    throw new HarnessError(
      `Failed to read ${file}: ${(error as Error).message}. Please re-render it with \`harness report ${runDir}\`.`,
      EXIT.usage,
    );
  }
}

export function checkBaselineName(name: string): string {
  if (!NAME.test(name)) {
    throw new HarnessError(
      `Failed to name the baseline "${name}": a name is letters, digits, dots, dashes and underscores (up to 100), starting with a letter or digit. Please use e.g. release-2026.11.`,
      EXIT.usage,
    );
  }
  return name;
}

export function baselineFile(dir: string, name: string): string {
  return path.join(dir, `${checkBaselineName(name)}.json`);
}

/** Saves a run directory's digest under a name; an existing name is replaced only with `replace`. */
export async function saveBaseline(
  runDir: string,
  name: string,
  dir: string,
  replace = false,
): Promise<{ file: string; baseline: SavedBaseline }> {
  const file = baselineFile(dir, name);
  if (!replace && (await exists(file))) {
    throw new HarnessError(
      `Failed to save the baseline "${name}": ${file} exists. Please choose another name, or pass --replace.`,
      EXIT.usage,
    );
  }
  const digest = await digestOfRunDir(path.resolve(runDir));
  const baseline: SavedBaseline = {
    kind: BASELINE_KIND,
    name,
    savedAt: new Date().toISOString(),
    savedFrom: path.resolve(runDir),
    digest,
  };
  await makeOutputDirectory(dir, "save the baseline", "--baselines-dir (HARNESS_BASELINES)");
  await writeFile(file, `${JSON.stringify(baseline)}\n`);
  return { file, baseline };
}

function parseBaseline(value: unknown, file: string): SavedBaseline {
  const b = isRecord(value) ? value : {};
  if (b.kind !== BASELINE_KIND) throw new Error(`${file} is not a baseline the harness saved`);
  // The list sorts by savedAt and prints each field: a number there would be a TypeError, not a refusal.
  for (const field of ["name", "savedAt", "savedFrom"]) {
    if (typeof b[field] !== "string") throw new Error(`${file} has no ${field} (a string)`);
  }
  return { ...(b as unknown as SavedBaseline), digest: parseDigest(b.digest, file) };
}

async function readBaselineFile(file: string): Promise<SavedBaseline> {
  try {
    return parseBaseline(JSON.parse(await readFile(file, "utf8")) as unknown, file);
  } catch (error) {
    throw new HarnessError(
      `Failed to read the baseline ${file}: ${(error as Error).message}. Please save it again with \`harness baseline save <run dir> --name <name>\`.`,
      EXIT.usage,
    );
  }
}

/** The baselines in a folder, newest first; an unreadable file is listed with why. */
export async function listBaselines(dir: string): Promise<(SavedBaseline | { name: string; problem: string })[]> {
  const files = await readdir(dir).catch(() => [] as string[]);
  const out: (SavedBaseline | { name: string; problem: string })[] = [];
  for (const f of files.filter((f) => f.endsWith(".json")).sort()) {
    try {
      out.push(await readBaselineFile(path.join(dir, f)));
    } catch (error) {
      out.push({ name: f.replace(/\.json$/, ""), problem: (error as Error).message });
    }
  }
  return out.sort((a, b) => ("savedAt" in b ? b.savedAt : "").localeCompare("savedAt" in a ? a.savedAt : ""));
}

/** A run directory, a baseline file, or the name of a baseline in `dir`. */
export async function resolveComparable(ref: string, dir: string): Promise<ComparableRun> {
  const asPath = path.resolve(ref);
  if (await exists(path.join(asPath, SUMMARY_FILE))) {
    return { label: ref, runDir: asPath, digest: await digestOfRunDir(asPath) };
  }
  if (ref.endsWith(".json") && (await exists(asPath))) {
    return { label: ref, digest: (await readBaselineFile(asPath)).digest };
  }
  if (NAME.test(ref) && (await exists(baselineFile(dir, ref)))) {
    return { label: `baseline ${ref}`, digest: (await readBaselineFile(baselineFile(dir, ref))).digest };
  }
  const known = (await listBaselines(dir)).map((b) => b.name);
  throw new HarnessError(
    `Failed to find the run "${ref}": it is not a run directory (no ${SUMMARY_FILE}), not a baseline file, and not a baseline saved in ${dir}${known.length ? ` (saved: ${known.join(", ")})` : " (none saved there)"}. Please give a run directory (reports/<run-id>), a baseline file, or a name from \`harness baseline list\`.`,
    EXIT.usage,
  );
}
