/** `harness model check`: a run's traffic judged against a traffic model (lib/harness/model/model-check.ts). */
import path from "node:path";
import { Command, Option } from "commander";
import { integer } from "../lib/harness/settings/value-parsers.ts";

export function modelCheckCommand(): Command {
  return new Command("check")
    .description(
      "judge a run's endpoint mix, persona shares and think times against a traffic model (chi-square, Kolmogorov-Smirnov, with effect-size tolerances; exit 0 match, 1 no match, 2 bad input); writes model-check.json into the run directory",
    )
    .argument("<run-dir>", "a directory the harness wrote, e.g. reports/<run-id>")
    .requiredOption(
      "--model <file>",
      "the traffic model (JSON, as --traffic takes it; a fitted one from `harness model fit`)",
    )
    .addOption(new Option("--scenario <name>", "the scenario whose raw results are judged").default("partner-mix"))
    .addOption(
      new Option("--products <n>", "products in the catalogue, for a built-in model's full syncs")
        .argParser(integer)
        .default(0),
    )
    .action(async (dir: string, flags: { model: string; scenario: string; products: number }) => {
      // Loaded here: only this command needs the statistics.
      const { runModelCheck } = await import("../lib/harness/model/model-check-command.ts");
      process.exitCode = await runModelCheck(path.resolve(dir), flags, (line) => {
        console.log(line);
      });
    });
}
