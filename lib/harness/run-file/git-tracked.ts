/**
 * Whether git tracks a file: a secret in a tracked file ends up in the repository's history, so the run file (and
 * `--keys`) refuse to read one.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** True when the file is in git's index (committed or staged); no git, or not in a repository: false. */
export async function isTrackedByGit(file: string): Promise<boolean> {
  const absolute = path.resolve(file);
  try {
    // Run in the file's own folder: the repository that matters is the one holding the file, not the current one.
    await run("git", ["ls-files", "--error-unmatch", "--", path.basename(absolute)], {
      cwd: path.dirname(absolute),
      // A git hook's GIT_DIR would point git at another repository than the one holding the file.
      env: { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined },
      timeout: 10_000,
    });
    return true;
  } catch {
    return false;
  }
}
