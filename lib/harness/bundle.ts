/** Bundles scenarios with esbuild (options in esbuild.config.ts) and lists the scenarios there are. */
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { K6_BUNDLE_DIR, k6BuildOptions } from "../../esbuild.config.ts";
import { EXIT, HarnessError } from "./exit-codes.ts";
import { REPO_ROOT, SCENARIOS_DIR } from "./paths.ts";

export interface ScenarioInfo {
  name: string;
  /** First sentence of the scenario file's doc comment. */
  description: string;
  source: string;
}

export async function listScenarios(): Promise<ScenarioInfo[]> {
  const files = (await readdir(SCENARIOS_DIR)).filter((f) => f.endsWith(".ts")).sort();
  return Promise.all(
    files.map(async (file) => {
      const source = path.join(SCENARIOS_DIR, file);
      const text = await readFile(source, "utf8");
      const doc = /\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? "";
      const prose = doc
        .split("\n")
        .map((l) => l.replace(/^\s*\*\s?/, "").trim())
        .join(" ")
        .trim();
      // The first sentence: up to a full stop followed by a space (not "7.2" or "history.ts"), kept to one line.
      const sentence = /^.*?[.](?=\s|$)/.exec(prose)?.[0] ?? prose;
      const description = sentence.length > 110 ? `${sentence.slice(0, 107).trimEnd()}...` : sentence;
      return { name: file.replace(/\.ts$/, ""), description, source };
    }),
  );
}

export async function scenarioNamed(name: string): Promise<ScenarioInfo> {
  const all = await listScenarios();
  const found = all.find((s) => s.name === name);
  if (!found) {
    throw new HarnessError(
      `Failed to find scenario "${name}". Please use one of: ${all.map((s) => s.name).join(", ")} (harness list).`,
      EXIT.usage,
    );
  }
  return found;
}

/** Bundles the given scenarios (all when none given); returns the path of each bundle by scenario name. */
export async function bundleScenarios(names?: readonly string[]): Promise<Map<string, string>> {
  const scenarios = names ? await Promise.all(names.map(scenarioNamed)) : await listScenarios();
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
