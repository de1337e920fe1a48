/** `harness init`: a commented starter run file, never written over one that exists unless asked. */
import { writeFile } from "node:fs/promises";
import { EXIT, HarnessError } from "../lib/harness/exit-codes.ts";
import { starterRunFile } from "../lib/harness/run-file/starter-run-file.ts";

export async function writeStarterRunFile(file: string, force: boolean): Promise<void> {
  try {
    await writeFile(file, starterRunFile(), { flag: force ? "w" : "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      throw new HarnessError(
        `Failed to write the run file ${file}: it exists. Please choose another path, or add --force to replace it.`,
        EXIT.usage,
      );
    }
    throw new HarnessError(
      `Failed to write the run file ${file}: ${(error as Error).message}. Please choose a writable path.`,
      EXIT.usage,
    );
  }
}
