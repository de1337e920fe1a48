/** Bundles scenarios with esbuild (options in esbuild.config.ts) and lists the scenarios there are (the registry). */
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { K6_BUNDLE_DIR, k6BuildOptions } from "../../esbuild.config.ts";
import { SCENARIO_NAMES, SCENARIOS, type ScenarioName } from "../contract/scenarios.ts";
import { EXIT, HarnessError } from "./exit-codes.ts";
import { REPO_ROOT, SCENARIOS_DIR } from "./paths.ts";

export interface ScenarioInfo {
  name: ScenarioName;
  /** One line: the registry's description. */
  description: string;
  source: string;
}

/** The scenarios there are (lib/contract/scenarios.ts, held equal to scenarios/*.ts by a test), in name order. */
export function listScenarios(): ScenarioInfo[] {
  return SCENARIO_NAMES.map((name) => ({
    name,
    description: SCENARIOS[name].description,
    source: path.join(SCENARIOS_DIR, `${name}.ts`),
  }));
}

export function scenarioNamed(name: string): ScenarioInfo {
  const found = listScenarios().find((s) => s.name === name);
  if (!found) {
    throw new HarnessError(
      `Failed to find scenario "${name}". Please use one of: ${SCENARIO_NAMES.join(", ")} (harness list).`,
      EXIT.usage,
    );
  }
  return found;
}

/** Bundles the given scenarios (all when none given); returns the path of each bundle by scenario name. */
export async function bundleScenarios(names?: readonly string[]): Promise<Map<string, string>> {
  const scenarios = names ? names.map(scenarioNamed) : listScenarios();
  const outdir = path.join(REPO_ROOT, K6_BUNDLE_DIR);
  const built = await build({
    ...k6BuildOptions,
    absWorkingDir: REPO_ROOT,
    outdir,
    entryPoints: scenarios.map((s) => s.source),
    write: false,
  });
  // Written whole and renamed into place: another harness run from the same checkout may be starting k6 on the
  // same bundle, and a file rewritten under it reads as an I/O error (k6 exit 255).
  await mkdir(outdir, { recursive: true });
  await Promise.all(
    built.outputFiles.map(async (file) => {
      const partial = `${file.path}.${String(process.pid)}.partial`;
      await writeFile(partial, file.contents);
      await rename(partial, file.path);
    }),
  );
  return new Map(scenarios.map((s) => [s.name, path.join(outdir, `${s.name}.js`)]));
}
