/**
 * Every flag of `harness run` has its place in the run file, by the same name (camelCase), except the few that only
 * make sense on a command line: which run file and environment, a dry run, and the production booking allowance
 * (which must name the environment each time, so it is never left in a file).
 */
import { describe, expect, it } from "vitest";
import { RUN_FILE_SETTINGS } from "../../lib/harness/run-file/run-file-schema.ts";
import { runCommand } from "../../scripts/run-command.ts";

const COMMAND_LINE_ONLY = ["runFile", "env", "dryRun", "allowProductionBookings"];

describe("the run file's settings", () => {
  it("should hold every flag of harness run, and nothing that is not one", () => {
    const flags = [...new Set(runCommand().options.map((o) => o.attributeName()))];
    expect(flags.filter((f) => !COMMAND_LINE_ONLY.includes(f)).sort()).toEqual([...RUN_FILE_SETTINGS].sort());
  });

  it("should keep the command-line-only flags out of the run file", () => {
    for (const flag of COMMAND_LINE_ONLY) expect(RUN_FILE_SETTINGS).not.toContain(flag);
  });
});
