/**
 * `harness k8s --slo <file>`: the override is checked here against the SLO table, with the same merge k6 applies at
 * init, so a typo is refused now (exit 2) instead of aborting every runner pod on the cluster later.
 */
import { readFile } from "node:fs/promises";
import { DEFAULT_SLO, mergeSlo } from "../../contract/slo.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";

export async function readSloOverride(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new HarnessError(
      `Failed to read the SLO file ${file}: ${(error as Error).message}. Please give a JSON file.`,
      EXIT.usage,
    );
  }
  try {
    mergeSlo(DEFAULT_SLO, JSON.parse(text) as unknown, `SLO file ${file}`);
  } catch (error) {
    // mergeSlo's own message already names the file, the key and what to change.
    const message = (error as Error).message;
    throw new HarnessError(
      error instanceof SyntaxError
        ? `Failed to read the SLO file ${file}: it is not JSON (${message}). Please fix the file.`
        : message,
      EXIT.usage,
    );
  }
  return text;
}
