/** A temporary folder for the files a property writes, removed after the describe block that asked for it. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

export interface TempFiles {
  /** Writes the text to a new file of that name's extension; returns its path. */
  write(text: string, name?: string): Promise<string>;
}

export function tempFiles(prefix: string): TempFiles {
  let dir: string | undefined;
  let count = 0;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
  });
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  return {
    async write(text, name = "input.json") {
      if (dir === undefined) throw new Error("tempFiles: write() before the describe block started");
      count += 1;
      const file = path.join(dir, `${String(count)}-${name}`);
      await writeFile(file, text);
      return file;
    },
  };
}
