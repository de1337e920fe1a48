/** Reads the keys file the reference service writes at start (service/keys-file.ts: `{"keys": [...], ...}`). */
import { readFile } from "node:fs/promises";

/** The keys the service wrote; an empty list when it wrote none (then the run needs the hooks or --keys). */
export async function readSeededKeys(file: string): Promise<string[]> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as { keys?: unknown };
    return Array.isArray(parsed.keys) ? parsed.keys.filter((k): k is string => typeof k === "string") : [];
  } catch {
    return [];
  }
}
