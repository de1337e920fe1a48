import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkDirectoryWritable,
  DirectoryError,
  makeDirectory,
  makeWritableDirectory,
} from "../../lib/harness/make-directory.ts";

async function refusal(make: Promise<void>): Promise<DirectoryError> {
  try {
    await make;
  } catch (error) {
    if (error instanceof DirectoryError) return error;
    throw error;
  }
  throw new Error("the folder was made");
}

describe("makeDirectory", () => {
  it("should make a folder and its missing parents, and accept one that exists", async () => {
    const base = mkdtempSync(path.join(tmpdir(), "atd-mkdir-"));
    const dir = path.join(base, "a", "b", "c");
    await makeDirectory(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    await makeDirectory(dir);
    await makeWritableDirectory(dir);
    // The write check leaves nothing behind.
    expect(readdirSync(dir)).toEqual([]);
  });

  it("should refuse a path below a file, naming the file", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "atd-mkdir-")), "plain");
    writeFileSync(file, "");
    expect((await refusal(makeDirectory(path.join(file, "x", "y")))).reason).toBe(
      `${path.join(file, "x", "y")} is below a file, not a folder`,
    );
    expect((await refusal(makeDirectory(file))).reason).toBe(`${file} is a file, not a folder`);
    expect((await refusal(makeDirectory("/dev/null/x"))).reason).toBe("/dev/null/x is below a file, not a folder");
  });

  it("should refuse a folder /proc cannot hold at once, where Node's recursive mkdir never returns", async () => {
    const startedAt = Date.now();
    const error = await refusal(makeDirectory("/proc/forbidden/x"));
    expect(error.reason).toBe("/proc/forbidden cannot be made there (ENOENT)");
    expect(Date.now() - startedAt).toBeLessThan(1000);
  });

  it("should check a folder could be made and written to, leaving nothing behind (a dry run)", async () => {
    const base = mkdtempSync(path.join(tmpdir(), "atd-mkdir-"));
    await checkDirectoryWritable(path.join(base, "not", "yet"));
    await checkDirectoryWritable(base);
    expect(readdirSync(base)).toEqual([]);
    expect(existsSync(path.join(base, "not"))).toBe(false);
    expect((await refusal(checkDirectoryWritable("/dev/null/x"))).reason).toMatch(/below a file/);
    expect((await refusal(checkDirectoryWritable("/proc/forbidden/x"))).reason).toBe(
      "/proc/forbidden cannot be made there (ENOENT)",
    );
  });
});
