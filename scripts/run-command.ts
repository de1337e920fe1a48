/**
 * `harness run`: its flags, and the one place where flags, HARNESS_* variables and the run file (harness.yaml) are
 * merged into the run's plan, checked before anything starts (exit 2), printed by --dry-run, and handed to
 * runHarness. Precedence, highest first: command-line flags, HARNESS_* environment variables, the run file (the
 * chosen scenarios' settings, then the environment's, then `defaults`), the built-in defaults.
 */
import path from "node:path";
import { Command, Option } from "commander";
import { RATE_LIMIT_ALGORITHMS, type RateLimitAlgorithm, type RateOutsideList } from "../lib/contract/index.ts";
import { PROFILES } from "../lib/contract/profiles.ts";
import { SCENARIO_NAMES } from "../lib/contract/scenarios.ts";
import { MAX_RUN_SECONDS, readRunSettings } from "../lib/harness/run-settings.ts";
import { serviceArgsProblem } from "../service/options.ts";
import { MAX_CHURN_RATE } from "../lib/harness/churn/config.ts";
import { MAX_SEGMENTS } from "../lib/harness/segments/segment-keys.ts";
import { EXIT, HarnessError } from "../lib/harness/exit-codes.ts";
import { handleStopSignals } from "../lib/harness/interrupt.ts";
import type { RunRequest } from "../lib/harness/run/run-request.ts";
import { REPORTS_DIR } from "../lib/harness/paths.ts";
import type { RefusalMode } from "../lib/harness/webhooks/misbehaviour.ts";
import {
  baselinesDirOption,
  capacityRates,
  cpus,
  integerFrom,
  nonNegativeUpTo,
  positiveUpTo,
  pushGroupOption,
  refusals,
  share,
  tolerancesOption,
} from "./cli-options.ts";
import { applyRunFile, type AppliedRunFile } from "./run-file-options.ts";
import type { CoverageLevel } from "../lib/harness/coverage.ts";
import { keyFingerprint as fingerprint } from "../lib/contract/key-fingerprint.ts";
import { dryRunLines, type DryRunPlan } from "../lib/harness/plan/dry-run.ts";
import { checkBudget, checkRails, k6RpsCaps } from "../lib/harness/plan/rails.ts";
import { referenceCatalogueFacts } from "../lib/harness/plan/reference-catalogue.ts";
import { estimateRequests } from "../lib/harness/plan/request-estimate.ts";
import { scenarioPlanOf } from "../lib/harness/plan/scenario-plan.ts";
import { partitionKeys, traitsOf } from "../lib/harness/scenario-traits.ts";
import { SEEDED_PARTNER_COUNT } from "../service/partners.ts";

/** --seed: the reference service's seed range (service/options.ts). */
const MAX_SEED = 2 ** 32 - 1;
/** --time-scale: the reference service's own bound (service/options.ts). */
const MAX_TIME_SCALE = 1_000_000;
/** The longest the harness waits for something it was told to wait for (--webhook-registration-wait). */
const MAX_WAIT_SECONDS = 3600;

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

export interface RunFlags {
  target: "embedded" | "container" | "compose" | "url";
  image?: string;
  port?: string;
  controlPort?: string;
  containerEnv: string[];
  containerEnvFile?: string;
  waitHttp?: string;
  waitLog?: string;
  startupTimeout?: string;
  cpus?: number;
  memory?: string;
  composeFile?: string;
  service?: string;
  controlService?: string;
  baseUrl?: string;
  controlUrl?: string;
  controlToken?: string;
  keys?: string;
  profile: string;
  duration?: string;
  slo?: string;
  out: string;
  seed?: number;
  serviceArgs?: string;
  rateWindow?: string;
  expectAlgorithm?: string;
  rateOutsideList?: string;
  traffic?: string;
  webhooks?: boolean;
  webhookListen: string;
  webhookUrl?: string;
  webhookMisbehave?: number;
  webhookRefusals: RefusalMode[];
  churn?: boolean;
  churnConfig?: string;
  churnRate?: number;
  pushgateway?: string;
  pushGroup?: string;
  prometheusRw?: string;
  chaos?: string;
  soakConfig?: string;
  capacitySafeShare?: number;
  capacityRates?: number[];
  serviceCpus?: number;
  segments: number;
  allowSkips?: boolean;
  alternativesKeys?: string;
  reservationHold?: number;
  timeScale?: number;
  webhookRegisterCmd?: string;
  webhookRegistrationWait?: number;
  baseline?: string;
  tolerances?: string;
  baselinesDir: string;
  /** --env: the run file's environment to use. */
  env?: string;
  /** --run-file: the run file (default ./harness.yaml when there is one). */
  runFile?: string;
  /** --dry-run: print the plan, send nothing. */
  dryRun?: boolean;
  /** --allow-production-bookings <environment>: booking scenarios allowed in that production environment. */
  allowProductionBookings?: string;
}

/** HARNESS_CHURN, HARNESS_WEBHOOKS: 1/true/yes/on on, anything else off, unset: the scenarios' default. */
function switchFromEnv(value: string | undefined): boolean | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return /^(1|true|yes|on)$/i.test(value.trim());
}

/** A scenario's length for a --duration, or undefined when the duration is bad (the run refuses it with its own message). */
function plannedSeconds(scenario: string, flags: RunFlags): number | undefined {
  try {
    return scenarioPlanOf(scenario, flags).seconds;
  } catch {
    return undefined;
  }
}

/** The `run` command with every flag (scripts/harness-cli.ts adds it to the program). */
export function runCommand(): Command {
  return new Command("run")
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
    )
    .addOption(
      new Option("--target <kind>", "what to test")
        .choices(["embedded", "container", "compose", "url"])
        .default("embedded")
        .env("HARNESS_TARGET"),
    )
    .addOption(new Option("--base-url <url>", "the API's base URL (target url)").env("HARNESS_BASE_URL"))
    .addOption(
      new Option("--control-url <url>", "the control API's URL, when the deployment has one").env(
        "HARNESS_CONTROL_URL",
      ),
    )
    .addOption(new Option("--control-token <token>", "the control API's token").env("HARNESS_CONTROL_TOKEN"))
    .addOption(
      new Option("--keys <file>", "API keys to spread traffic over (JSON array or one per line)").env("HARNESS_KEYS"),
    )
    .addOption(
      new Option(
        "--image <ref>",
        "target container: the image to test (default: the reference service's, built offline)",
      ).env("HARNESS_IMAGE"),
    )
    .addOption(
      new Option("--port <port>", "target container/compose: the port the API listens on (host networking)").env(
        "HARNESS_PORT",
      ),
    )
    .addOption(
      new Option("--control-port <port>", "target container/compose: the port its test hooks listen on").env(
        "HARNESS_CONTROL_PORT",
      ),
    )
    .addOption(
      new Option(
        "--container-env <KEY=VALUE>",
        "target container: a variable of the container; compose: a variable the compose file is read with (repeatable)",
      )
        .argParser((value: string, previous: string[]) => [...previous, value])
        .default([], "none"),
    )
    .addOption(
      new Option(
        "--container-env-file <file>",
        "target container: KEY=VALUE lines (docker run --env-file); compose: its --env-file",
      ).env("HARNESS_CONTAINER_ENV_FILE"),
    )
    .addOption(
      new Option(
        "--wait-http <path[:status]>",
        "target container/compose: ready when the API port answers this path",
      ).env("HARNESS_WAIT_HTTP"),
    )
    .addOption(
      new Option("--wait-log <regex>", "target container/compose: ready when the API's output has a matching line").env(
        "HARNESS_WAIT_LOG",
      ),
    )
    .addOption(
      new Option("--startup-timeout <duration>", "target container/compose: time to become ready (default 60s)").env(
        "HARNESS_STARTUP_TIMEOUT",
      ),
    )
    .addOption(
      new Option("--cpus <cores>", "target container: Docker's --cpus (the same budget as --service-cpus)")
        .argParser(cpus)
        .env("HARNESS_CPUS"),
    )
    .addOption(new Option("--memory <size>", "target container: Docker's --memory, e.g. 512m").env("HARNESS_MEMORY"))
    .addOption(
      new Option("--compose-file <file>", "target compose: the stack's docker-compose file").env(
        "HARNESS_COMPOSE_FILE",
      ),
    )
    .addOption(
      new Option("--service <name>", "target compose: the service that serves the API on --port").env(
        "HARNESS_SERVICE",
      ),
    )
    .addOption(
      new Option(
        "--control-service <name>",
        "target compose: the service whose --control-port serves the test hooks (default: --service)",
      ).env("HARNESS_CONTROL_SERVICE"),
    )
    .addOption(
      new Option("--profile <name>", "load profile")
        .choices(Object.keys(PROFILES))
        .default("smoke")
        .env("HARNESS_PROFILE"),
    )
    .addOption(
      new Option("--duration <duration>", "overrides the profile's steady stage, e.g. 30s").env("HARNESS_DURATION"),
    )
    .addOption(new Option("--slo <file>", "JSON file overriding the SLO table").env("HARNESS_SLO"))
    .addOption(new Option("--out <dir>", "where run directories go").default(REPORTS_DIR).env("HARNESS_OUT"))
    .addOption(
      new Option("--seed <n>", "catalogue seed of the embedded service")
        .argParser(integerFrom(0, MAX_SEED))
        .env("HARNESS_SEED"),
    )
    .addOption(
      new Option("--service-args <args>", 'extra flags for the embedded service, e.g. "--rate-limit 50"').env(
        "HARNESS_SERVICE_ARGS",
      ),
    )
    .addOption(
      new Option(
        "--service-cpus <cores>",
        "CPU budget of the embedded service (a cgroup) or the container (Docker --cpus), e.g. 0.25",
      )
        .argParser(cpus)
        .env("HARNESS_SERVICE_CPUS"),
    )
    .addOption(new Option("--traffic <file>", "JSON file overriding the traffic model").env("HARNESS_TRAFFIC"))
    .addOption(
      new Option(
        "--webhooks",
        "run the webhook sink beside k6 (HARNESS_WEBHOOKS=1; default for soak, always on for webhooks)",
      ),
    )
    .addOption(new Option("--no-webhooks", "no webhook sink, also for the soak (HARNESS_WEBHOOKS=0)"))
    .addOption(
      new Option("--webhook-listen <host:port>", "where the webhook sink listens")
        .default("127.0.0.1:0")
        .env("HARNESS_WEBHOOK_LISTEN"),
    )
    .addOption(
      new Option("--webhook-url <url>", "the URL the service must call for the sink (an ingress in front of it)").env(
        "HARNESS_WEBHOOK_URL",
      ),
    )
    .addOption(
      new Option("--webhook-misbehave <share>", "share of first attempts the sink refuses (webhooks scenario: 0.2)")
        .argParser(share)
        .env("HARNESS_WEBHOOK_MISBEHAVE"),
    )
    .addOption(
      new Option("--webhook-refusals <modes>", "how the sink refuses: 500, 429, hang (past the sender's timeout)")
        .argParser(refusals)
        .default(["500", "429"], "500,429")
        .env("HARNESS_WEBHOOK_REFUSALS"),
    )
    .addOption(
      new Option(
        "--webhook-register-cmd <command>",
        "without test hooks: a shell command run once per key to register the sink (HARNESS_WEBHOOK_API_KEY, _URL, _SECRET)",
      ).env("HARNESS_WEBHOOK_REGISTER_CMD"),
    )
    .addOption(
      new Option(
        "--webhook-registration-wait <seconds>",
        "without test hooks: how long the first event proving the sink's registration may take (default 60)",
      )
        .argParser(positiveUpTo(MAX_WAIT_SECONDS, "60"))
        .env("HARNESS_WEBHOOK_REGISTRATION_WAIT"),
    )
    .addOption(
      new Option(
        "--alternatives-keys <file>",
        "without test hooks: the keys the operator enabled alternatives for (same format as --keys; the others lack it)",
      ).env("HARNESS_ALTERNATIVES_KEYS"),
    )
    .addOption(
      new Option(
        "--reservation-hold <seconds>",
        "without test hooks: how long the target's reservations hold their seats (unset: their whole life)",
      )
        .argParser(positiveUpTo(MAX_RUN_SECONDS, "900"))
        .env("HARNESS_RESERVATION_HOLD"),
    )
    .addOption(
      new Option("--time-scale <n>", "without test hooks: how much faster than real time the target's clock runs")
        .argParser(positiveUpTo(MAX_TIME_SCALE, "60"))
        .env("HARNESS_TIME_SCALE"),
    )
    .addOption(
      new Option(
        "--churn",
        "churn inventory through the control API during the run (HARNESS_CHURN=1; default for alternatives and soak)",
      ),
    )
    .addOption(new Option("--no-churn", "no inventory churn, also for alternatives and soak (HARNESS_CHURN=0)"))
    .addOption(
      new Option("--churn-config <file>", "JSON file with the churn rate, mix, hold times and dates").env(
        "HARNESS_CHURN_CONFIG",
      ),
    )
    .addOption(
      new Option("--churn-rate <per-second>", "churn changes per second (overrides the config file)")
        .argParser(nonNegativeUpTo(MAX_CHURN_RATE, "2"))
        .env("HARNESS_CHURN_RATE"),
    )
    .addOption(
      new Option(
        "--pushgateway <url>",
        "push the run's metrics (metrics.prom) to this Pushgateway; each run replaces the last of the same scenarios and target",
      ).env("HARNESS_PUSHGATEWAY"),
    )
    .addOption(pushGroupOption())
    .addOption(
      new Option(
        "--prometheus-rw <url>",
        "stream k6's samples to this Prometheus remote-write URL (tag testid=<run id>)",
      ).env("HARNESS_PROMETHEUS_RW"),
    )
    .addOption(
      new Option("--rate-window <seconds>", "the rate-limit window, when known (else measured)").env(
        "HARNESS_RATE_WINDOW",
      ),
    )
    .addOption(
      new Option("--expect-algorithm <name>", "rate-limit algorithm the deployment must use")
        .choices(RATE_LIMIT_ALGORITHMS)
        .env("HARNESS_EXPECT_ALGORITHM"),
    )
    .addOption(
      new Option(
        "--rate-outside-list <policy>",
        "rate-limit rule 4, booking/config endpoints outside the shared allowance: unlimited (a difference fails) or finding (a difference is reported only)",
      )
        .choices(["unlimited", "finding"])
        .default("unlimited")
        .env("HARNESS_RATE_OUTSIDE_LIST"),
    )
    .addOption(
      new Option("--chaos <file>", "YAML/JSON file scheduling Toxiproxy faults during the run (docs/chaos.md)").env(
        "HARNESS_CHAOS",
      ),
    )
    .addOption(
      new Option("--soak-config <file>", "JSON file with the soak's drift rules (lib/harness/soak/soak-rules.ts)").env(
        "HARNESS_SOAK_CONFIG",
      ),
    )
    .addOption(
      new Option("--capacity-safe-share <share>", "share of the capacity knee recommended as operating rate (0.7)")
        .argParser(share)
        .env("HARNESS_CAPACITY_SAFE_SHARE"),
    )
    .addOption(
      new Option(
        "--capacity-rates <rates>",
        'capacity step rates, requests/s: "500,1000,2000" or "2000-3000/8" (from-to/steps)',
      )
        .argParser(capacityRates)
        .env("HARNESS_CAPACITY_RATES"),
    )
    .addOption(
      new Option("--segments <n>", "split each scenario over n k6 processes (execution segments, keys partitioned)")
        .argParser(integerFrom(1, MAX_SEGMENTS))
        .default(1)
        .env("HARNESS_SEGMENTS"),
    )
    .addOption(
      new Option(
        "--allow-skips",
        "accept up front that what could not run is skipped: scenarios or extensions needing the control API, checks the run could not judge (HARNESS_ALLOW_SKIPS=1); without it a skip fails the run (what a coverage level cannot judge by design never does)",
      ),
    )
    .addOption(
      new Option(
        "--baseline <run dir or name>",
        "compare this run with a baseline (a run directory, a saved baseline's name or file): exit 1 on a regression",
      ).env("HARNESS_BASELINE"),
    )
    .addOption(tolerancesOption())
    .addOption(baselinesDirOption())
    .action(runAction);
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
): { seed?: number; products?: number } {
  const flag = (name: string) => {
    const at = serviceArgs.indexOf(name);
    return at >= 0 ? Number(serviceArgs[at + 1]) : undefined;
  };
  const products = flag("--products");
  const seeded = seed ?? flag("--seed");
  return { ...(seeded === undefined ? {} : { seed: seeded }), ...(products === undefined ? {} : { products }) };
}

/** Keys the traffic spreads over: --keys (less the run's own key at the public-API level), or the reference's seeded. */
function plannedKeyCount(
  flags: RunFlags,
  apiKeys: readonly string[] | undefined,
  level: CoverageLevel,
  scenarios: readonly string[],
  churn: boolean,
): number {
  const keys = apiKeys?.length ?? (referenceTarget(flags) ? SEEDED_PARTNER_COUNT : 0);
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

/** Everything a run is made of, read and checked before anything starts. */
type RunPlan = Awaited<ReturnType<typeof planRun>>;

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
async function baselineOf(flags: RunFlags, scenarios: string[], ids: { sloTable: string; trafficModel: string }) {
  const baseline =
    flags.baseline === undefined
      ? undefined
      : await (
          await comparing()
        ).prepareBaseline(flags.baseline, flags.tolerances, path.resolve(flags.baselinesDir), {
          scenarios,
          profile: flags.profile,
          ids,
          targetKind: flags.target,
        });
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
  const baseline = await baselineOf(flags, scenarios, settings.ids);
  const modules = await running();
  const webhooks = flags.webhooks ?? switchFromEnv(process.env.HARNESS_WEBHOOKS);
  const churn = flags.churn ?? switchFromEnv(process.env.HARNESS_CHURN);
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
    settings.apiKeys,
    level.level,
    scenarios,
    modules.churnOn(scenarios, churn),
  );
  const estimate = estimateRequests({
    scenarios,
    profile: flags.profile,
    ...(flags.duration === undefined ? {} : { duration: flags.duration }),
    keys: plannedKeys,
    model: settings.traffic,
    ...(referenceTarget(flags)
      ? { catalogue: referenceCatalogueFacts(referenceServiceOf(settings.serviceArgs, flags.seed)) }
      : {}),
    ...(flags.capacityRates === undefined ? {} : { capacityRates: flags.capacityRates }),
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
    outDir: flags.out,
    outDirCheckOnly: flags.dryRun === true,
    urls: {
      "--base-url": flags.baseUrl,
      "--control-url": flags.controlUrl,
      "--webhook-url": flags.webhookUrl,
      "--pushgateway": flags.pushgateway,
      "--prometheus-rw": flags.prometheusRw,
    },
    scenarios,
    target: flags.target,
    profile: flags.profile,
    duration: flags.duration,
    capacityRates: flags.capacityRates,
    sloFile: flags.slo,
    trafficFile: flags.traffic,
    keysFile: flags.keys,
    keys: runFile.apiKeys,
    alternativesKeysFile: flags.alternativesKeys,
    alternativesKeys: runFile.alternativesKeys,
    churnConfigFile: flags.churnConfig,
    churnRate: flags.churnRate,
    soakConfigFile: flags.soakConfig,
    chaosFile: flags.chaos,
    rateWindow: flags.rateWindow,
    serviceArgs: flags.serviceArgs,
    serviceArgsCheck: serviceArgsProblem,
    webhookListen: flags.webhookListen,
    targetFlags: {
      image: flags.image,
      port: flags.port,
      controlPort: flags.controlPort,
      controlToken: flags.controlToken,
      env: flags.containerEnv,
      envFile: flags.containerEnvFile,
      waitHttp: flags.waitHttp,
      waitLog: flags.waitLog,
      startupTimeout: flags.startupTimeout,
      cpus: flags.cpus,
      memory: flags.memory,
      serviceCpus: flags.serviceCpus,
      composeFile: flags.composeFile,
      service: flags.service,
      controlService: flags.controlService,
    },
  });
}

/** --dry-run: the plan, and nothing started or sent. */
function dryRunPlan(plan: RunPlan, flags: RunFlags, command: Command): DryRunPlan {
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
    profile: flags.profile,
    duration: flags.duration,
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
function runRequestOf(plan: RunPlan, flags: RunFlags, signal: AbortSignal): RunRequest {
  const { settings, scenarios, chaos, baseline, runFile } = plan;
  return {
    scenarios,
    target: flags.target,
    container: settings.container,
    compose: settings.compose,
    baseUrl: flags.baseUrl,
    controlUrl: flags.controlUrl,
    controlToken: flags.controlToken ?? runFile.controlToken,
    apiKeys: settings.apiKeys,
    profile: flags.profile,
    duration: flags.duration,
    sloFile: settings.sloFile,
    outDir: path.resolve(flags.out),
    seed: flags.seed,
    serviceArgs: settings.serviceArgs,
    serviceCpus: flags.serviceCpus,
    trafficFile: settings.trafficFile,
    settingsIds: settings.ids,
    pushgateway: flags.pushgateway,
    pushGroup: flags.pushGroup,
    prometheusRw: flags.prometheusRw,
    segments: flags.segments,
    ...(flags.capacityRates === undefined ? {} : { capacityRates: flags.capacityRates }),
    extensions: plan.modules.extensionsFor({
      scenarios,
      segments: flags.segments,
      webhooks: {
        enabled: plan.webhooks,
        listen: chaos.webhookListen,
        publicUrl: chaos.webhookUrl,
        misbehaveShare: flags.webhookMisbehave,
        refusals: flags.webhookRefusals,
        registerCommand: flags.webhookRegisterCmd,
        registrationWaitSeconds: flags.webhookRegistrationWait,
      },
      slo: settings.slo,
      churn: { enabled: plan.churn, config: settings.churn },
      chaos: chaos.chaos,
      soak: { rules: settings.soakRules, plannedSeconds: plannedSeconds("soak", flags) },
      capacity: { duration: flags.duration, safeShare: flags.capacitySafeShare, rates: flags.capacityRates },
    }),
    k6Settings: {
      // Checked before: --rate-window by readRunSettings, the two choices by commander.
      rateWindowSeconds: flags.rateWindow?.trim() ? Number(flags.rateWindow) : undefined,
      rateAlgorithm: flags.expectAlgorithm as RateLimitAlgorithm | undefined,
      rateOutsideList: flags.rateOutsideList as RateOutsideList | undefined,
      capacityRates: flags.capacityRates,
    },
    allowSkips: flags.allowSkips ?? switchFromEnv(process.env.HARNESS_ALLOW_SKIPS) ?? false,
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
