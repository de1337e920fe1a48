/**
 * The `harness` command: `harness run [scenario...]` (scripts/run-command.ts), `harness init`, `harness list`,
 * `harness --version`, and the report, comparison, k8s and hooks commands. Flags have environment
 * mirrors (HARNESS_*). Exit codes (lib/harness/exit-codes.ts): 0 pass, 1 a check or threshold failed (or a requested
 * scenario or extension was skipped without --allow-skips), 2 bad usage or settings (checked before anything starts),
 * 3 target not started or reached, 4 the harness itself failed (reports still written, the error in `errors`), 130 and
 * 143 a run ended by SIGINT or SIGTERM (lib/harness/interrupt.ts).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Command, CommanderError, Option } from "commander";
import { PROFILES } from "../lib/contract/profiles.ts";
import { listScenarios } from "../lib/harness/bundle.ts";
import { EXIT, HarnessError } from "../lib/harness/exit-codes.ts";
import { REPO_ROOT, REPORTS_DIR } from "../lib/harness/paths.ts";
import { DEFAULT_RUNNER_IMAGE } from "../lib/harness/k8s/k8s-images.ts";
import { findBuiltK6, resolveK6 } from "../lib/harness/k6-binary.ts";
import { httpUrl, integer, nonNegativeNumber } from "../lib/harness/settings/value-parsers.ts";
import { settingOption } from "./setting-options.ts";
import { runCommand } from "./run-command.ts";
import { writeStarterRunFile } from "./init-command.ts";
import { addModelCommand } from "./model-command.ts";

/** The comparison code, loaded only by the commands that compare (as the hooks check is). */
// Each command loads what only it needs when it runs: `harness run` starts without the k8s, judge and report code.
const comparing = () => import("../lib/harness/compare/compare-command.ts");

const program = new Command("harness")
  .description("Load, resilience and chaos testing harness for the partner API")
  .showHelpAfterError()
  .exitOverride();

/** harness --version: what a bug report needs. k6 is looked up, never built (a first build takes minutes). */
async function printVersions(): Promise<void> {
  const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  console.log(`${pkg.name} ${pkg.version}`);
  const k6 = await findBuiltK6();
  console.log("missing" in k6 ? `k6: ${k6.missing}` : `${k6.version} (${k6.path})`);
  console.log(`node ${process.version}`);
}

program
  .option("-V, --version", "print the harness, k6 and Node versions")
  // The root takes no arguments: an unknown command is reported as one, not as an excess argument.
  .allowExcessArguments()
  .action(async (options: { version?: boolean }, command: Command) => {
    if (command.args.length > 0) command.error(`error: unknown command '${String(command.args[0])}'`);
    if (!options.version) command.help({ error: true });
    await printVersions();
  });

// Added, not declared here: it keeps the program's exit override (a usage error is exit 2, not 1).
program.addCommand(runCommand().copyInheritedSettings(program));

program
  .command("init")
  .description("write a commented starter run file (environments local, demo, production; a partner-mix scenario)")
  .argument("[file]", "where to write it", "harness.yaml")
  .option("--force", "replace the file when it exists")
  .action(async (file: string, flags: { force?: boolean }) => {
    await writeStarterRunFile(path.resolve(file), flags.force ?? false);
    console.log(`wrote ${file}: edit its environments, then \`harness run --dry-run\` shows what a run would do`);
  });

program
  .command("k8s")
  .description("write k6-operator manifests (ConfigMap with the bundled script, TestRun with parallelism n)")
  .argument("<scenario>", "scenario name (harness list)")
  .requiredOption("--base-url <url>", "the partner API as the runner pods reach it", httpUrl)
  .addOption(new Option("--parallelism <n>", "runner pods (execution segments)").argParser(integer).default(3))
  .addOption(
    new Option("--keys-secret <name/key>", "the Secret and key holding the comma-separated API keys").default(
      "atd-api-keys/keys",
    ),
  )
  .addOption(new Option("--namespace <ns>", "namespace of the manifests"))
  // The settings `harness run` has too: the same option (default, HARNESS_* mirror, choices) from the settings table.
  .addOption(settingOption("profile"))
  .addOption(settingOption("duration"))
  .addOption(
    new Option("--prometheus-rw <url>", "remote-write URL the runners stream their samples to").argParser(httpUrl),
  )
  .addOption(new Option("--image <image>", "runner image (also the initializer's)").default(DEFAULT_RUNNER_IMAGE))
  .addOption(
    new Option(
      "--starter-image <image>",
      "image of the job that starts the runners (sh and curl); default: the operator's own, from its registry",
    ).env("HARNESS_STARTER_IMAGE"),
  )
  .addOption(new Option("--name <name>", "name of the ConfigMap and TestRun (and the samples' testid)"))
  .addOption(settingOption("slo"))
  .addOption(settingOption("traffic"))
  .addOption(new Option("--out <dir>", "where the manifests go").default(path.join(REPORTS_DIR, "k8s")))
  .action(
    async (
      scenario: string,
      flags: {
        baseUrl: string;
        parallelism: number;
        keysSecret: string;
        namespace?: string;
        profile: string;
        duration?: string;
        prometheusRw?: string;
        image: string;
        starterImage?: string;
        name?: string;
        slo?: string;
        traffic?: string;
        out: string;
      },
    ) => {
      const [secret, key] = flags.keysSecret.split("/");
      if (!secret || !key) {
        throw new HarnessError(
          `Failed to write the manifests: --keys-secret "${flags.keysSecret}" is not <secret>/<key>. Please give e.g. atd-api-keys/keys.`,
          EXIT.usage,
        );
      }
      // Checked as `harness run` checks them, with the same words (exit 2), and derived as its plan, before anything is written.
      const { k8sPlanOf } = await import("../lib/harness/k8s/k8s-plan.ts");
      const { applyCommand, writeK8sManifests } = await import("../lib/harness/k8s/write-k8s.ts");
      const plan = await k8sPlanOf(scenario, flags, (file) => path.resolve(file));
      const file = await writeK8sManifests(
        {
          scenario,
          parallelism: flags.parallelism,
          namespace: flags.namespace,
          baseUrl: plan.target.baseUrl ?? flags.baseUrl,
          keysSecret: { name: secret, key },
          profile: plan.profile,
          duration: plan.duration,
          prometheusRw: flags.prometheusRw,
          image: flags.image,
          starterImage: flags.starterImage,
          name: flags.name,
          // slo.json only with --slo, as before: without it k6 uses the default table it knows.
          ...(flags.slo === undefined ? {} : { slo: plan.slo }),
          ...(flags.traffic === undefined ? {} : { traffic: plan.traffic }),
        },
        path.resolve(flags.out),
      );
      const shown = path.relative(process.cwd(), file) || file;
      console.log(`manifests: ${shown} (${applyCommand(shown)})`);
    },
  );

program
  .command("judge")
  .description("judge a k6-operator run from its manifests and the Prometheus its runners wrote to")
  .argument("<manifests>", "the YAML file `harness k8s` wrote (reports/k8s/<name>.yaml)")
  .requiredOption("--prometheus <url>", "Prometheus's base URL (its HTTP API), e.g. http://127.0.0.1:9090", httpUrl)
  .addOption(
    new Option("--window <duration>", "how far back the run's samples may lie (Prometheus duration)").default("24h"),
  )
  .addOption(new Option("--out <dir>", "where the run directory goes").default(REPORTS_DIR))
  .action(async (manifests: string, flags: { prometheus: string; window: string; out: string }) => {
    const say = (line: string) => {
      console.log(line);
    };
    const { judgeK8sRun } = await import("../lib/harness/k8s/judge-k8s-run.ts");
    const outcome = await judgeK8sRun({
      manifests: path.resolve(manifests),
      prometheus: flags.prometheus,
      window: flags.window,
      outDir: path.resolve(flags.out),
      k6: await resolveK6(say),
      say,
    });
    process.exitCode = outcome.exitCode;
  });

program
  .command("report")
  .description("re-render junit.xml, metrics.prom and report.html of a run directory from its saved results")
  .argument("<run-dir>", "a directory the harness wrote, e.g. reports/<run-id>")
  .addOption(
    new Option("--pushgateway <url>", "also push the run's metrics to this Pushgateway (replaces the group of its job)")
      .argParser(httpUrl)
      .env("HARNESS_PUSHGATEWAY"),
  )
  .addOption(settingOption("pushGroup"))
  .action(async (dir: string, flags: { pushgateway?: string; pushGroup?: string }) => {
    const { readRunSummary, writeReports } = await import("../lib/harness/reports/write-reports.ts");
    const { exportMetrics } = await import("../lib/harness/reports/push-to-gateway.ts");
    const runDir = path.resolve(dir);
    const summary = await readRunSummary(runDir);
    const say = (line: string) => {
      console.log(line);
    };
    const reports = await writeReports(runDir, summary, say);
    for (const file of reports.files) say(`wrote ${path.relative(process.cwd(), file) || file}`);
    const pushed = await exportMetrics(
      flags.pushgateway,
      reports.metrics.registry,
      summary.run.id,
      say,
      flags.pushGroup,
    );
    process.exitCode = pushed ? EXIT.pass : EXIT.failed;
  });

program
  .command("compare")
  .description(
    "compare a candidate run with a baseline: per endpoint p50/p95/p99 with confidence intervals, throughput, error and throttle rates, extension figures (exit 0 no regression, 1 regressed, 2 not comparable)",
  )
  .argument("<baseline>", "a run directory, a saved baseline's name (harness baseline list) or file")
  .argument("<candidate>", "a run directory (its reports get the comparison), or a saved baseline")
  .addOption(settingOption("tolerances"))
  .addOption(settingOption("baselinesDir"))
  .addOption(
    new Option(
      "--out <dir>",
      "where compare.json and compare.md go (default: the candidate's run directory, else reports/compare-<time>)",
    ),
  )
  .action(
    async (baseline: string, candidate: string, flags: { tolerances?: string; baselinesDir: string; out?: string }) => {
      process.exitCode = await (
        await comparing()
      ).runCompare({
        baseline,
        candidate,
        tolerancesFile: flags.tolerances,
        baselinesDir: path.resolve(flags.baselinesDir),
        out: flags.out,
        say: (line) => {
          console.log(line);
        },
      });
    },
  );

const baselineCommand = program
  .command("baseline")
  .description("named baselines: what a comparison needs of a run, kept compactly");
baselineCommand
  .command("save")
  .description("keep a run's digest (per endpoint histograms, counts, extension figures, identity) under a name")
  .argument("<run-dir>", "a directory the harness wrote, e.g. reports/<run-id>")
  .requiredOption("--name <name>", "the baseline's name, e.g. the release (letters, digits, . _ -)")
  .option("--replace", "replace a baseline of the same name")
  .addOption(settingOption("baselinesDir"))
  .action(async (dir: string, flags: { name: string; replace?: boolean; baselinesDir: string }) => {
    process.exitCode = await (
      await comparing()
    ).runBaselineSave(
      path.resolve(dir),
      flags.name,
      path.resolve(flags.baselinesDir),
      flags.replace ?? false,
      (line) => {
        console.log(line);
      },
    );
  });
baselineCommand
  .command("list")
  .description("list the saved baselines, newest first")
  .addOption(settingOption("baselinesDir"))
  .action(async (flags: { baselinesDir: string }) => {
    process.exitCode = await (
      await comparing()
    ).runBaselineList(path.resolve(flags.baselinesDir), (line) => {
      console.log(line);
    });
  });

program
  .command("hooks")
  .description("the test hooks (control API) of a deployment")
  .command("check")
  .description("verify a deployment's required test hooks by their effects through the public API (table; exit 0/1)")
  .addOption(new Option("--base-url <url>", "the partner API's base URL").env("HARNESS_BASE_URL"))
  .addOption(new Option("--control-url <url>", "the control API's URL").env("HARNESS_CONTROL_URL"))
  .addOption(new Option("--control-token <token>", "the control API's token").env("HARNESS_CONTROL_TOKEN"))
  .addOption(
    new Option("--keys <file>", "API keys the deployment knows (JSON array or one per line)").env("HARNESS_KEYS"),
  )
  .addOption(
    new Option("--webhook-listen <host:port>", "where the check's webhook receiver listens")
      .default("127.0.0.1:0")
      .env("HARNESS_WEBHOOK_LISTEN"),
  )
  .addOption(
    new Option("--webhook-url <url>", "the URL the service must call for the receiver (an ingress in front of it)").env(
      "HARNESS_WEBHOOK_URL",
    ),
  )
  .addOption(
    new Option("--delivery-timeout <seconds>", "how long a webhook delivery may take to arrive")
      .argParser(nonNegativeNumber)
      .default(10),
  )
  .action(async (flags: import("../lib/harness/hooks/hooks-command.ts").HooksCheckFlags) => {
    // Loaded here, not at the top: only this command needs the hooks check (and its validator).
    const { runHooksCheck } = await import("../lib/harness/hooks/hooks-command.ts");
    process.exitCode = await runHooksCheck(flags, (line) => {
      console.log(line);
    });
  });

addModelCommand(program);

program
  .command("list")
  .description("list scenarios and load profiles")
  .action(() => {
    console.log("Scenarios:");
    for (const s of listScenarios()) console.log(`  ${s.name.padEnd(16)} ${s.description}`);
    console.log("Profiles:");
    for (const [name, p] of Object.entries(PROFILES)) console.log(`  ${name.padEnd(16)} ${p.description}`);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : EXIT.usage;
  } else if (error instanceof HarnessError) {
    console.error(error.message);
    process.exitCode = error.exitCode;
  } else {
    // Not a verdict: the harness itself failed, which CI must tell apart from a failed check (1).
    console.error(
      `Failed to run the harness: ${error instanceof Error ? error.message : String(error)}. Please report this with the output above.`,
    );
    if (error instanceof Error && error.stack) console.error(error.stack);
    process.exitCode = EXIT.harness;
  }
}
