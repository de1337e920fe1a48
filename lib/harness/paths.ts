/** Where things are in the repository, resolved from this file so the harness works from any working directory. */
import { fileURLToPath } from "node:url";
import path from "node:path";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SCENARIOS_DIR = path.join(REPO_ROOT, "scenarios");
export const REPORTS_DIR = path.join(REPO_ROOT, "reports");
export const SERVICE_MAIN = path.join(REPO_ROOT, "service", "main.ts");
export const ENSURE_K6 = path.join(REPO_ROOT, "scripts", "ensure-k6");

/** The harness's own version (package.json), recorded with every run so a comparison can show what made each. */
export async function harnessVersion(): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}
