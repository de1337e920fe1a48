/**
 * Makes a folder and its missing parents one at a time, from the deepest one that exists down, so a path that cannot
 * be made fails at its first bad part with why. Node's own mkdir(path, { recursive: true }) never returns on some
 * such paths (/proc/forbidden/x spins at full CPU in Node 20 and 24), so no path a user gives goes through it.
 */
import { mkdir, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { EXIT, HarnessError } from "./exit-codes.ts";

/** Why a folder cannot be made or written to: the part of the path at fault and the reason in words. */
export class DirectoryError extends Error {
  override name = "DirectoryError";
  readonly part: string;
  readonly reason: string;

  constructor(part: string, reason: string) {
    super(`${part}: ${reason}`);
    this.part = part;
    this.reason = reason;
  }
}

function reasonOf(part: string, error: unknown): DirectoryError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "ENOTDIR"
      ? `${part} is below a file, not a folder`
      : code === "EACCES" || code === "EPERM"
        ? `permission denied on ${part}`
        : code === "EROFS"
          ? `${part} is on a read-only file system`
          : `${part} cannot be made there (${code ?? String(error)})`;
  return new DirectoryError(part, why);
}

/** The deepest part of `dir` that exists (a folder), and the parts below it to make, top down. */
async function existingAncestor(dir: string): Promise<{ base: string; missing: string[] }> {
  const missing: string[] = [];
  // Bounded by the path's depth: each step goes one folder up, and the root always exists.
  for (let part = path.resolve(dir); ; part = path.dirname(part)) {
    try {
      const found = await stat(part);
      if (!found.isDirectory()) throw new DirectoryError(part, `${part} is a file, not a folder`);
      return { base: part, missing };
    } catch (error) {
      if (error instanceof DirectoryError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" || path.dirname(part) === part) throw reasonOf(part, error);
      missing.unshift(part);
    }
  }
}

/** Makes `dir` and its missing parents; a DirectoryError says which part failed and why. */
export async function makeDirectory(dir: string): Promise<void> {
  const { missing } = await existingAncestor(dir);
  for (const part of missing) {
    try {
      await mkdir(part);
    } catch (error) {
      // Made meanwhile by someone else: fine when it is a folder.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw reasonOf(part, error);
      if (!(await stat(part)).isDirectory()) throw new DirectoryError(part, `${part} is a file, not a folder`);
    }
  }
}

/** Makes `dir` and proves a file can be written in it (written and removed at once). */
export async function makeWritableDirectory(dir: string): Promise<void> {
  await makeDirectory(dir);
  const probe = path.join(path.resolve(dir), `.atd-write-check-${String(process.pid)}`);
  try {
    await writeFile(probe, "");
  } catch (error) {
    throw reasonOf(path.resolve(dir), error);
  }
  await unlink(probe).catch(() => undefined);
}

/**
 * Whether `dir` could be made and written to, leaving nothing behind (a dry run): its first missing part is made and
 * removed again, or, when it exists, a file is written in it and removed.
 */
export async function checkDirectoryWritable(dir: string): Promise<void> {
  const { missing } = await existingAncestor(dir);
  const first = missing[0];
  if (first === undefined) {
    await makeWritableDirectory(dir);
    return;
  }
  try {
    await mkdir(first);
  } catch (error) {
    throw reasonOf(first, error);
  }
  await rmdir(first).catch(() => undefined);
}

/**
 * Makes an output folder a command was given, or refuses it as bad usage (exit 2): "Failed to <what> in <dir>:
 * <why>. Please give <flag> a folder the harness can create and write to."
 */
export async function makeOutputDirectory(dir: string, what: string, flag: string): Promise<void> {
  await makeWritableDirectory(dir).catch((error: unknown) => {
    throw error instanceof DirectoryError
      ? new HarnessError(
          `Failed to ${what} in ${dir}: ${error.reason}. Please give ${flag} a folder the harness can create and write to.`,
          EXIT.usage,
        )
      : error;
  });
}
