/**
 * `harness model`: traffic models from access logs. `fit` is here, `check` in model-check-command.ts; their code is
 * loaded only when they run (the clustering and statistics are not the run command's business).
 */
import type { Command } from "commander";
import { modelCheckCommand } from "./model-check-command.ts";

export function addModelCommand(program: Command): Command {
  const model = program
    .command("model")
    .description("traffic models: fitted from access logs, and a run checked against one");
  model
    .command("fit")
    .description(
      "fit a traffic model (personas, think times, arrival curve) from access logs; writes it and fit-report.html",
    )
    .argument("<log...>", "access log files, oldest first (gzip ones named .gz)")
    .option("--out <file>", "the traffic model file to write (use it with --traffic)", "traffic.json")
    .option("--format <format>", "the logs' layout: combined or json", "combined")
    .option("--field <name=source,...>", "where each field is: time, method, path, request, status, client")
    .option("--session-gap <duration>", "a client idle this long ends its session", "30s")
    .option("--client-id <field>", "the field that names the client (default: combined's user field, JSON's client)")
    .option("--report <file>", "the fit report (default: fit-report.html beside --out)")
    .action(async (logs: string[], flags: import("../lib/harness/model/fit-command.ts").ModelFitFlags) => {
      const { runModelFit } = await import("../lib/harness/model/fit-command.ts");
      process.exitCode = await runModelFit(logs, flags, (line) => {
        console.log(line);
      });
    });
  model.addCommand(modelCheckCommand());
  return model;
}
