/**
 * `harness run`: its flags, and the one place where flags, HARNESS_* variables and the run file (harness.yaml) are
 * merged into the run's plan, checked before anything starts (exit 2), printed by --dry-run, and handed to
 * runHarness. Precedence, highest first: command-line flags, HARNESS_* environment variables, the run file (the
 * chosen scenarios' settings, then the environment's, then `defaults`), the built-in defaults.
 */
import path from "node:path";
import { Command, Option } from "commander";
import { SCENARIO_NAMES } from "../lib/contract/scenarios.ts";
import { readRunSettings } from "../lib/harness/run-settings.ts";
import { serviceArgsProblem } from "../service/options.ts";
import { EXIT, HarnessError } from "../lib/harness/exit-codes.ts";
import { handleStopSignals } from "../lib/harness/interrupt.ts";
import type { RunRequest } from "../lib/harness/run/run-request.ts";
import {
  RUN_FILE_SETTINGS,
  switchValue,
  withSwitches,
  type SettingValues,
} from "../lib/harness/run-file/run-file-schema.ts";
import { settingOptions } from "./setting-options.ts";
import { applyRunFile, type AppliedRunFile } from "./run-file-options.ts";
import type { CoverageLevel } from "../lib/harness/coverage.ts";
import { keyFingerprint as fingerprint } from "../lib/contract/key-fingerprint.ts";
import { dryRunLines, type DryRunPlan } from "../lib/harness/plan/dry-run.ts";
import { checkBudget, checkRails, k6RpsCaps } from "../lib/harness/plan/rails.ts";
import { referenceCatalogueFacts } from "../lib/harness/plan/reference-catalogue.ts";
import { estimateRequests } from "../lib/harness/plan/request-estimate.ts";
import { derivePlan, plannedRunOf, type RunPlan } from "../lib/harness/plan/run-plan.ts";
import { partitionKeys, traitsOf } from "../lib/harness/scenario-traits.ts";
import { SEEDED_PARTNER_COUNT } from "../service/partners.ts";

/** The comparison code, loaded only when a run compares (as the hooks check is). */
const comparing = () => import("../lib/harness/compare/compare-command.ts");
/**
 * What only a run that starts needs (the run, its extensions, chaos), loaded once the settings are read: a refused
 * setting is then said in about a second, without loading the targets, testcontainers and every extension.
 */
const running = async () => ({
  ...(await import("../lib/harness/extensions.ts")),
  ...(await import("../lib/harness/chaos/prepare-chaos.ts")),
  ...(await import("../lib/harness/run/run-harness.ts")),
});

/** The parsed flags: every setting of the table (its type derived from it) and the command line's own. */
export type RunFlags = SettingValues & {
  /** --env: the run file's environment to use. */
  env?: string;
  /** --run-file: the run file (default ./harness.yaml when there is one). */
  runFile?: string;
  /** --dry-run: print the plan, send nothing. */
  dryRun?: boolean;
  /** --allow-production-bookings <environment>: booking scenarios allowed in that production environment. */
  allowProductionBookings?: string;
};

/** The `run` command with every flag (scripts/harness-cli.ts adds it to the program). */
export function runCommand(): Command {
  const command = new Command("run")
    .description(
      "run scenarios against a target and write reports/<run-id>/ (no scenario named: the run file's run.scenarios)",
    )
    .argument("[scenario...]", "scenario names (harness list)")
    .addOption(
      new Option("--run-file <file>", "the run file (YAML or JSON; default ./harness.yaml when there is one)").env(
        "HARNESS_RUN_FILE",
      ),
    )
    .addOption(
      new Option("--env <name>", "the run file's environment (local, demo, production, ...)").env("HARNESS_ENV"),
    )
    .addOption(new Option("--dry-run", "print the plan (target, rates, request count, checks) and send nothing"))
    .addOption(
      new Option(
        "--allow-production-bookings <environment>",
        "let booking scenarios run in this production environment (its bookings are cancelled at the end)",
      ),
    );
  // Every setting's option from the table, in its order (--help's): declared there once, with its env mirror.
  for (const option of RUN_FILE_SETTINGS.flatMap(settingOptions)) command.addOption(option);
  return command.action(runAction);
}

/** Ends a run that has not started: bad usage or settings (exit 2). */
function refuse(message: string): never {
  throw new HarnessError(message, EXIT.usage);
}

/** The level the plan expects: what the target's flags say (the run asks the target itself once it is up). */
function expectedLevel(flags: RunFlags): { level: CoverageLevel; upTo?: CoverageLevel } {
  if (referenceTarget(flags)) return { level: "reference" };
  const hooks = flags.target === "url" ? flags.controlUrl !== undefined : flags.controlPort !== undefined;
  return hooks ? { level: "required-hooks", upTo: "reference" } : { level: "public-api" };
}

/** The embedded service, or the container target without --image: the reference service itself. */
function referenceTarget(flags: RunFlags): boolean {
  return flags.target === "embedded" || (flags.target === "container" && flags.image === undefined);
}

/** The reference service's seed and catalogue size as the run will start it (--seed, else --service-args). */
function referenceServiceOf(
  serviceArgs: readonly string[],
  seed: number | undefined,
): { seed?: number; products?: number; partners?: number } {
  const flag = (name: string) => {
    const at = serviceArgs.indexOf(name);
    return at >= 0 ? Number(serviceArgs[at + 1]) : undefined;
  };
  const products = flag("--products");
  const seeded = seed ?? flag("--seed");
  const partners = flag("--partners");
  return {
    ...(seeded === undefined ? {} : { seed: seeded }),
    ...(products === undefined ? {} : { products }),
    ...(partners === undefined ? {} : { partners }),
  };
}

/** Keys the traffic spreads over: --keys (less the run's own key at the public-API level), or the reference's seeded. */
function plannedKeyCount(
  flags: RunFlags,
  serviceArgs: readonly string[],
  apiKeys: readonly string[] | undefined,
  level: CoverageLevel,
  scenarios: readonly string[],
  churn: boolean,
): number {
  const seeded = referenceServiceOf(serviceArgs, undefined).partners ?? SEEDED_PARTNER_COUNT;
  const keys = apiKeys?.length ?? (referenceTarget(flags) ? seeded : 0);
  const ownKey = level === "public-api" && (churn || scenarios.some((s) => traitsOf(s).needsHarnessKey === true));
  return ownKey ? Math.max(0, keys - 1) : keys;
}

/** The target in a few words, for the plan. */
function targetText(flags: RunFlags): string {
  switch (flags.target) {
    case "embedded":
      return "embedded: the reference service started on 127.0.0.1";
    case "container":
      return `container ${flags.image ?? "(the reference service's image, built offline)"}${flags.port ? ` on port ${flags.port}` : ""}`;
    case "compose":
      return `compose ${flags.composeFile ?? ""}, service ${flags.service ?? ""}${flags.port ? ` on port ${flags.port}` : ""}`;
    case "url":
      return `url ${flags.baseUrl ?? "(no --base-url)"}${flags.controlUrl ? `, test hooks at ${flags.controlUrl}` : ", no test hooks"}`;
  }
}

/** Settings that are not the built-in default, with where each came from; secrets shown only as fingerprints. */
function settingsText(command: Command, sources: Readonly<Record<string, string>>): DryRunPlan["settings"] {
  const values = command.opts<Record<string, unknown>>();
  const secret = new Set(["controlToken", "keys", "alternativesKeys"]);
  return command.options
    .map((o) => o.attributeName())
    .filter((name, i, all) => all.indexOf(name) === i)
    .filter((name) => command.getOptionValueSource(name) !== "default" && values[name] !== undefined)
    .filter((name) => name !== "dryRun")
    .map((name) => {
      const value = values[name];
      const text = secret.has(name) && name === "controlToken" ? fingerprint(String(value)) : JSON.stringify(value);
      return { name, value: text, source: sources[name] ?? "command line" };
    });
}

/** Everything a run is made of, read and checked before anything starts: the derived plan and what the command adds. */
type CheckedRun = Awaited<ReturnType<typeof planRun>>;

/** The run file applied and the scenarios named (on the command line, else by the run file), each one known. */
async function namedScenarios(named: string[], flags: RunFlags, command: Command) {
  // The run file's values fill what neither a flag nor a HARNESS_* variable set (commander keeps each value's source).
  const known = new Set<string>(SCENARIO_NAMES);
  const runFile: AppliedRunFile = await applyRunFile(command, flags, named, [...known]);
  const scenarios = runFile.scenarios;
  if (scenarios.length === 0) {
    refuse(
      "Failed to start the run: no scenario was named. Please name one (harness list), or set run.scenarios in a run file (harness init writes one).",
    );
  }
  const unknown = scenarios.filter((s) => !known.has(s));
  if (unknown.length) {
    refuse(
      `Failed to start the run: unknown scenario ${unknown.join(", ")}. Please use one of: ${[...known].join(", ")}.`,
    );
  }
  return { runFile, scenarios };
}

/** --baseline found and known to be comparable before anything starts (exit 2 otherwise). */
async function baselineOf(flags: RunFlags, plan: RunPlan) {
  const baseline =
    flags.baseline === undefined
      ? undefined
      : await (
          await comparing()
        ).prepareBaseline(flags.baseline, flags.tolerances, path.resolve(flags.baselinesDir), plannedRunOf(plan));
  if (baseline === undefined && flags.tolerances !== undefined) {
    refuse(
      "Failed to start the run: --tolerances applies to a comparison, and no --baseline was given. Please add --baseline <run dir or name>, or drop --tolerances.",
    );
  }
  return baseline;
}

/**
 * The run file applied, every setting read and checked, the baseline found, the environment's rails and the plan's
 * load checked: a bad one is exit 2 here, before anything starts.
 */
async function planRun(named: string[], flags: RunFlags, command: Command) {
  const { runFile, scenarios } = await namedScenarios(named, flags, command);
  const settings = await readSettings(flags, scenarios, runFile);
  const plan = derivePlan(settings, { scenarios, values: flags, controlToken: runFile.controlToken });
  const baseline = await baselineOf(flags, plan);
  const modules = await running();
  const webhooks = switchValue("webhooks", flags.webhooks);
  const churn = switchValue("churn", flags.churn);
  // The environment's rails and the plan's load against its ceiling, before anything starts (exit 2).
  if (flags.allowProductionBookings !== undefined && flags.allowProductionBookings !== runFile.environment.name) {
    refuse(
      `Failed to plan the run: --allow-production-bookings names ${flags.allowProductionBookings}, and the run's environment is ${runFile.environment.name}. Please name the environment the run goes to (--env), or drop the flag.`,
    );
  }
  const rails = checkRails({
    rails: runFile.environment,
    scenarios,
    allowProductionBookings: flags.allowProductionBookings,
    churn: modules.churnOn(scenarios, churn),
    chaos: settings.chaos !== undefined,
    target: flags.target,
  });
  const level = expectedLevel(flags);
  const plannedKeys = plannedKeyCount(
    flags,
    settings.serviceArgs,
    settings.apiKeys,
    level.level,
    scenarios,
    modules.churnOn(scenarios, churn),
  );
  const estimate = estimateRequests({
    scenarios,
    profile: plan.profile,
    ...(plan.duration === undefined ? {} : { duration: plan.duration }),
    lengths: plan.lengths,
    keys: plannedKeys,
    model: plan.traffic,
    ...(referenceTarget(flags)
      ? { catalogue: referenceCatalogueFacts(referenceServiceOf(settings.serviceArgs, flags.seed)) }
      : {}),
    ...(plan.capacityRates === undefined ? {} : { capacityRates: plan.capacityRates }),
  });
  checkBudget(rails, estimate.keyPools);
  const chaos = await modules.prepareChaos(settings.chaos, {
    sinkEnabled: modules.webhooksOn(scenarios, webhooks, flags.segments),
    listen: flags.webhookListen,
    publicUrl: flags.webhookUrl,
  });
  return {
    runFile,
    scenarios,
    settings,
    plan,
    baseline,
    modules,
    webhooks,
    churn,
    rails,
    level,
    plannedKeys,
    estimate,
    chaos,
  };
}

/** Every file and value read and checked, before the target or k6 starts (exit 2 within a second). */
function readSettings(flags: RunFlags, scenarios: readonly string[], runFile: AppliedRunFile) {
  return readRunSettings({
    settings: flags,
    scenarios,
    outDirCheckOnly: flags.dryRun === true,
    keys: runFile.apiKeys,
    alternativesKeys: runFile.alternativesKeys,
    controlToken: runFile.controlToken,
    serviceArgsCheck: serviceArgsProblem,
  });
}

/** --dry-run: the plan, and nothing started or sent. */
function dryRunPlan(plan: CheckedRun, flags: RunFlags, command: Command): DryRunPlan {
  const { modules, scenarios, runFile, level } = plan;
  const extensions = [
    ...(modules.churnOn(scenarios, plan.churn)
      ? [level.level === "public-api" ? ("churn (black-box)" as const) : ("churn" as const)]
      : []),
    ...(modules.webhooksOn(scenarios, plan.webhooks, flags.segments) ? (["webhooks"] as const) : []),
    ...(plan.settings.chaos ? (["chaos"] as const) : []),
  ];
  return {
    runFile: runFile.file,
    rails: plan.rails,
    target: targetText(flags),
    level: level.level,
    ...(level.upTo === undefined ? {} : { levelUpTo: level.upTo }),
    scenarios,
    profile: plan.plan.profile,
    duration: plan.plan.duration,
    extensions,
    settings: settingsText(command, runFile.sources),
    estimate: plan.estimate,
    k6Rps: k6RpsCaps(
      runFile.environment,
      partitionKeys(
        scenarios,
        Array.from({ length: plan.plannedKeys }, (_, i) => String(i)),
      ),
      flags.segments,
    ),
  };
}

/** What runHarness gets: the plan's values and the extensions the run has. */
function runRequestOf(checked: CheckedRun, flags: RunFlags, signal: AbortSignal): RunRequest {
  const { settings, scenarios, chaos, baseline, runFile, plan } = checked;
  const { target } = plan;
  return {
    scenarios,
    target: target.kind,
    container: target.container,
    compose: target.compose,
    baseUrl: target.baseUrl,
    controlUrl: target.controlUrl,
    controlToken: target.controlToken,
    apiKeys: settings.apiKeys,
    profile: plan.profile,
    duration: plan.duration,
    lengths: plan.lengths,
    slo: plan.slo,
    outDir: path.resolve(flags.out),
    seed: flags.seed,
    serviceArgs: settings.serviceArgs,
    serviceCpus: flags.serviceCpus,
    trafficFile: settings.trafficFile,
    traffic: plan.traffic,
    settingsIds: plan.ids,
    pushgateway: flags.pushgateway,
    pushGroup: flags.pushGroup,
    prometheusRw: flags.prometheusRw,
    segments: flags.segments,
    ...(plan.capacityRates === undefined ? {} : { capacityRates: plan.capacityRates }),
    // Each extension reads its own settings from these (lib/harness/extension-plan.ts).
    extensions: checked.modules.extensionsFor({
      scenarios,
      values: withSwitches(flags),
      slo: plan.slo,
      lengths: plan.lengths,
      checked: settings,
      chaos,
    }),
    k6Settings: plan.k6Settings,
    allowSkips: switchValue("allowSkips", flags.allowSkips) ?? false,
    publicApi: {
      ...(settings.alternativesKeys === undefined ? {} : { alternativesKeys: settings.alternativesKeys }),
      ...(flags.reservationHold === undefined ? {} : { reservationHoldSeconds: flags.reservationHold }),
      ...(flags.timeScale === undefined ? {} : { timeScale: flags.timeScale }),
    },
    ...(baseline === undefined ? {} : { baseline }),
    ...(runFile.file === undefined ? {} : { environment: runFile.environment }),
    progress: process.stdout.isTTY && !process.env.CI,
    signal,
    say: (line: string) => {
      console.log(line);
    },
  };
}

async function runAction(named: string[], flags: RunFlags, command: Command): Promise<void> {
  const plan = await planRun(named, flags, command);
  if (flags.dryRun) {
    for (const line of dryRunLines(dryRunPlan(plan, flags, command))) console.log(line);
    return;
  }
  // From here on SIGINT and SIGTERM stop the run and still write its reports (lib/harness/interrupt.ts).
  const stopSignals = handleStopSignals((text) => process.stderr.write(text));
  try {
    const outcome = await plan.modules.runHarness(runRequestOf(plan, flags, stopSignals.signal));
    process.exitCode = outcome.exitCode;
  } finally {
    stopSignals.finished();
  }
}
