/**
 * --keys-file: the seeded keys written at start, so a test or a user can take them without the partner-listing hook
 * (GET /__control/partners is a reference extension, absent with --hooks required).
 *
 * Format: `{"keys": [...every seeded key...], "alternatives": [...the keys with alternatives on...]}`. It is one of the
 * forms the harness's --keys reader takes (a JSON object with `keys`; it ignores the other field), and JSON so a
 * tool can tell the two kinds of key apart without a second file.
 */
import { rename, writeFile } from "node:fs/promises";
import type { Partner } from "./partners.ts";

export interface KeysFile {
  keys: string[];
  alternatives: string[];
}

/** Raised when the keys file cannot be written (missing directory, no permission, full disk). */
export class KeysFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeysFileError";
  }
}

export function keysFileContent(partners: Iterable<Partner>): KeysFile {
  const all = [...partners];
  return { keys: all.map((p) => p.apiKey), alternatives: all.filter((p) => p.alternatives).map((p) => p.apiKey) };
}

/** Writes through a temporary file and a rename, so whoever waits for the file never reads half of it. */
export async function writeKeysFile(file: string, partners: Iterable<Partner>): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(keysFileContent(partners), null, 2)}\n`, "utf8");
    await rename(temporary, file);
  } catch (error) {
    throw new KeysFileError(
      `the keys file ${file} cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}
