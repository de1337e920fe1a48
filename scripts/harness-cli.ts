/**
 * The `harness` command: `harness run <scenario...>`, `harness list`, `harness --version`. Flags have environment
 * mirrors (HARNESS_*). Exit codes (lib/harness/exit-codes.ts): 0 pass, 1 a check or threshold failed (or a requested
 * scenario or extension was skipped without --allow-skips), 2 bad usage or settings (checked before anything starts),
 * 3 target not started or reached, 4 the harness itself failed (reports still written, the error in `errors`).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { RATE_LIMIT_ALGORITHMS } from "../lib/contract/index.ts";
import { CapacityRatesError, PROFILES, parseCapacityRates, profileNamed } from "../lib/contract/profiles.ts";
import { scenarioSeconds } from "../lib/contract/durations.ts";
import { listScenarios } from "../lib/harness/bundle.ts";
import { readRunSettings } from "../lib/harness/run-settings.ts";
import { EXIT, HarnessError } from "../lib/harness/exit-codes.ts";
import { extensionsFor, webhooksOn } from "../lib/harness/extensions.ts";
import { prepareChaos } from "../lib/harness/chaos/prepare-chaos.ts";
import { REPO_ROOT, REPORTS_DIR } from "../lib/harness/paths.ts";
import { runHarness } from "../lib/harness/run.ts";
import { DEFAULT_RUNNER_IMAGE, writeK8sManifests } from "../lib/harness/k8s/write-k8s.ts";
import { judgeK8sRun } from "../lib/harness/k8s/judge-k8s-run.ts";
import { findBuiltK6, resolveK6 } from "../lib/harness/k6-binary.ts";
import { readSloOverride } from "../lib/harness/k8s/slo-override.ts";
import type { RefusalMode } from "../lib/harness/webhooks/misbehaviour.ts";
import { exportMetrics, pushGroupProblem } from "../lib/harness/reports/push-to-gateway.ts";
import { readRunSummary, writeReports } from "../lib/harness/reports/write-reports.ts";
import { DEFAULT_BASELINES_DIR } from "../lib/harness/compare/baselines.ts";

/** The comparison code, loaded only by the commands that compare (as the hooks check is). */
const comparing = () => import("../lib/harness/compare/compare-command.ts");

interface RunFlags {
  target: "embedded" | "container" | "compose" | "url";
  image?: string;
  port?: string;
  controlPort?: string;
  env: string[];
  envFile?: string;
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
}

/** --baselines-dir, shared by run, compare and baseline. */
function baselinesDirOption(): Option {
  return new Option("--baselines-dir <dir>", "where named baselines are kept")
    .default(DEFAULT_BASELINES_DIR)
    .env("HARNESS_BASELINES");
}

/** --tolerances, shared by run and compare. */
function tolerancesOption(): Option {
  return new Option(
    "--tolerances <file>",
    "YAML/JSON file of how much worse the candidate may be (defaults: p95/p99 +10% at 95% confidence, error rate +0.1 point, accuracy may not fall)",
  ).env("HARNESS_TOLERANCES");
}

function httpUrl(value: string): string {
  if (!/^https?:\/\/[^/\s]+/.test(value)) throw new InvalidArgumentError("must be an http(s) URL.");
  return value;
}

function pushGroup(value: string): string {
  const problem = pushGroupProblem(value);
  if (problem) throw new InvalidArgumentError(`must be a name for the push's group: ${problem}.`);
  return value;
}

function share(value: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || n > 1) throw new InvalidArgumentError("must be a share from 0 to 1, e.g. 0.2.");
  return n;
}

const REFUSAL_MODES = ["500", "429", "hang"] as const;

function refusals(value: string): RefusalMode[] {
  const modes = value.split(",").map((m) => m.trim());
  if (modes.length === 0 || !modes.every((m) => (REFUSAL_MODES as readonly string[]).includes(m))) {
    throw new InvalidArgumentError(`must be a comma-separated list of ${REFUSAL_MODES.join(", ")}.`);
  }
  return modes as RefusalMode[];
}

function nonNegativeNumber(value: string): number {
  if (!/^\d*\.?\d+$/.test(value)) throw new InvalidArgumentError("must be a number >= 0, e.g. 2.");
  return Number(value);
}

/** HARNESS_CHURN, HARNESS_WEBHOOKS: 1/true/yes/on on, anything else off, unset: the scenarios' default. */
function switchFromEnv(value: string | undefined): boolean | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return /^(1|true|yes|on)$/i.test(value.trim());
}

/** A profile's length for a --duration, or undefined when the duration is bad (the run refuses it with its own message). */
function plannedSeconds(profile: string, duration: string | undefined): number | undefined {
  try {
    return scenarioSeconds(profileNamed(profile).scenario(duration));
  } catch {
    return undefined;
  }
}

function capacityRates(value: string): number[] {
  try {
    return parseCapacityRates(value);
  } catch (error) {
    if (error instanceof CapacityRatesError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

/** A CPU budget in cores: at least a tenth of a millisecond per 10 ms period, at most the host's cores. */
function cpus(value: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || n < 0.01 || n > 1024) {
    throw new InvalidArgumentError("must be a number of CPU cores such as 0.25 or 1.5 (at least 0.01).");
  }
  return n;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || n <= 0) throw new InvalidArgumentError("must be a number above 0, e.g. 2.");
  return n;
}

function integer(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("must be a whole number.");
  return Number(value);
}

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

program
  .command("run")
  .description("run one or more scenarios against a target and write reports/<run-id>/")
  .argument("<scenario...>", "scenario names (harness list)")
  .addOption(
    new Option("--target <kind>", "what to test")
      .choices(["embedded", "container", "compose", "url"])
      .default("embedded")
      .env("HARNESS_TARGET"),
  )
  .addOption(new Option("--base-url <url>", "the API's base URL (target url)").env("HARNESS_BASE_URL"))
  .addOption(
    new Option("--control-url <url>", "the control API's URL, when the deployment has one").env("HARNESS_CONTROL_URL"),
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
      "--env <KEY=VALUE>",
      "target container: a variable of the container; compose: a variable the compose file is read with (repeatable)",
    )
      .argParser((value: string, previous: string[]) => [...previous, value])
      .default([], "none"),
  )
  .addOption(
    new Option(
      "--env-file <file>",
      "target container: KEY=VALUE lines (docker run --env-file); compose: its --env-file",
    ).env("HARNESS_ENV_FILE"),
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
    new Option("--compose-file <file>", "target compose: the stack's docker-compose file").env("HARNESS_COMPOSE_FILE"),
  )
  .addOption(
    new Option("--service <name>", "target compose: the service that serves the API on --port").env("HARNESS_SERVICE"),
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
  .addOption(new Option("--seed <n>", "catalogue seed of the embedded service").argParser(integer).env("HARNESS_SEED"))
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
      .argParser(positiveNumber)
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
      .argParser(positiveNumber)
      .env("HARNESS_RESERVATION_HOLD"),
  )
  .addOption(
    new Option("--time-scale <n>", "without test hooks: how much faster than real time the target's clock runs")
      .argParser(positiveNumber)
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
      .argParser(nonNegativeNumber)
      .env("HARNESS_CHURN_RATE"),
  )
  .addOption(
    new Option(
      "--pushgateway <url>",
      "push the run's metrics (metrics.prom) to this Pushgateway; each run replaces the last of the same scenarios and target",
    )
      .argParser(httpUrl)
      .env("HARNESS_PUSHGATEWAY"),
  )
  .addOption(
    new Option("--push-group <name>", "one more grouping label of the push (push_group), e.g. the environment")
      .argParser(pushGroup)
      .env("HARNESS_PUSH_GROUP"),
  )
  .addOption(
    new Option("--prometheus-rw <url>", "stream k6's samples to this Prometheus remote-write URL (tag testid=<run id>)")
      .argParser(httpUrl)
      .env("HARNESS_PROMETHEUS_RW"),
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
      .argParser(integer)
      .default(1)
      .env("HARNESS_SEGMENTS"),
  )
  .addOption(
    new Option(
      "--allow-skips",
      "accept up front that scenarios or extensions needing the control API are skipped (HARNESS_ALLOW_SKIPS=1); without it a skip fails the run",
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
  .action(async (scenarios: string[], flags: RunFlags) => {
    const controller = new AbortController();
    let interrupts = 0;
    process.on("SIGINT", () => {
      interrupts += 1;
      if (interrupts > 1) process.exit(130);
      process.stderr.write("\nStopping: k6 and the target are being stopped; reports are still written.\n");
      controller.abort();
    });
    process.on("SIGTERM", () => {
      controller.abort();
    });
    const known = new Set((await listScenarios()).map((s) => s.name));
    const unknown = scenarios.filter((s) => !known.has(s));
    if (unknown.length) {
      throw new HarnessError(
        `Failed to start the run: unknown scenario ${unknown.join(", ")}. Please use one of: ${[...known].join(", ")}.`,
        EXIT.usage,
      );
    }
    // Every file and value is read and checked here, before the target or k6 starts (exit 2 within a second).
    const settings = await readRunSettings({
      scenarios,
      target: flags.target,
      profile: flags.profile,
      duration: flags.duration,
      capacityRates: flags.capacityRates,
      sloFile: flags.slo,
      trafficFile: flags.traffic,
      keysFile: flags.keys,
      alternativesKeysFile: flags.alternativesKeys,
      churnConfigFile: flags.churnConfig,
      churnRate: flags.churnRate,
      soakConfigFile: flags.soakConfig,
      chaosFile: flags.chaos,
      rateWindow: flags.rateWindow,
      serviceArgs: flags.serviceArgs,
      webhookListen: flags.webhookListen,
      targetFlags: {
        image: flags.image,
        port: flags.port,
        controlPort: flags.controlPort,
        controlToken: flags.controlToken,
        env: flags.env,
        envFile: flags.envFile,
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
    // The baseline is found and known to be comparable before anything starts (exit 2 otherwise).
    const baseline =
      flags.baseline === undefined
        ? undefined
        : await (
            await comparing()
          ).prepareBaseline(flags.baseline, flags.tolerances, path.resolve(flags.baselinesDir), {
            scenarios,
            profile: flags.profile,
            trafficFile: settings.trafficFile,
            sloFile: settings.sloFile,
            targetKind: flags.target,
          });
    if (baseline === undefined && flags.tolerances !== undefined) {
      throw new HarnessError(
        "Failed to start the run: --tolerances applies to a comparison, and no --baseline was given. Please add --baseline <run dir or name>, or drop --tolerances.",
        EXIT.usage,
      );
    }
    const webhooks = flags.webhooks ?? switchFromEnv(process.env.HARNESS_WEBHOOKS);
    const chaos = await prepareChaos(settings.chaos, {
      sinkEnabled: webhooksOn(scenarios, webhooks, flags.segments),
      listen: flags.webhookListen,
      publicUrl: flags.webhookUrl,
    });
    const outcome = await runHarness({
      scenarios,
      target: flags.target,
      container: settings.container,
      compose: settings.compose,
      baseUrl: flags.baseUrl,
      controlUrl: flags.controlUrl,
      controlToken: flags.controlToken,
      apiKeys: settings.apiKeys,
      profile: flags.profile,
      duration: flags.duration,
      sloFile: settings.sloFile,
      outDir: path.resolve(flags.out),
      seed: flags.seed,
      serviceArgs: settings.serviceArgs,
      serviceCpus: flags.serviceCpus,
      trafficFile: settings.trafficFile,
      pushgateway: flags.pushgateway,
      pushGroup: flags.pushGroup,
      prometheusRw: flags.prometheusRw,
      segments: flags.segments,
      extensions: extensionsFor({
        scenarios,
        segments: flags.segments,
        webhooks: {
          enabled: webhooks,
          listen: chaos.webhookListen,
          publicUrl: chaos.webhookUrl,
          misbehaveShare: flags.webhookMisbehave,
          refusals: flags.webhookRefusals,
          registerCommand: flags.webhookRegisterCmd,
          registrationWaitSeconds: flags.webhookRegistrationWait,
        },
        slo: settings.slo,
        churn: {
          enabled: flags.churn ?? switchFromEnv(process.env.HARNESS_CHURN),
          configFile: settings.churnConfigFile,
          ratePerSecond: flags.churnRate,
        },
        chaos: chaos.chaos,
        soak: {
          rulesFile: settings.soakConfigFile,
          plannedSeconds: plannedSeconds("soak", flags.duration),
        },
        capacity: { duration: flags.duration, safeShare: flags.capacitySafeShare, rates: flags.capacityRates },
      }),
      k6Settings: {
        rateWindowSeconds: flags.rateWindow,
        rateAlgorithm: flags.expectAlgorithm,
        rateOutsideList: flags.rateOutsideList,
        capacityRates: flags.capacityRates?.join(","),
      },
      allowSkips: flags.allowSkips ?? switchFromEnv(process.env.HARNESS_ALLOW_SKIPS) ?? false,
      publicApi: {
        ...(settings.alternativesKeys === undefined ? {} : { alternativesKeys: settings.alternativesKeys }),
        ...(flags.reservationHold === undefined ? {} : { reservationHoldSeconds: flags.reservationHold }),
        ...(flags.timeScale === undefined ? {} : { timeScale: flags.timeScale }),
      },
      ...(baseline === undefined ? {} : { baseline }),
      progress: process.stdout.isTTY && !process.env.CI,
      signal: controller.signal,
      say: (line) => {
        console.log(line);
      },
    });
    process.exitCode = outcome.exitCode;
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
  .addOption(new Option("--profile <name>", "load profile").choices(Object.keys(PROFILES)).default("average"))
  .addOption(new Option("--duration <duration>", "the profile's main stage length (k6 syntax)"))
  .addOption(
    new Option("--prometheus-rw <url>", "remote-write URL the runners stream their samples to").argParser(httpUrl),
  )
  .addOption(new Option("--image <image>", "runner image").default(DEFAULT_RUNNER_IMAGE))
  .addOption(new Option("--name <name>", "name of the ConfigMap and TestRun (and the samples' testid)"))
  .addOption(new Option("--slo <file>", "JSON file overriding the SLO table, shipped beside the script"))
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
        name?: string;
        slo?: string;
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
      const file = await writeK8sManifests(
        {
          scenario,
          parallelism: flags.parallelism,
          namespace: flags.namespace,
          baseUrl: flags.baseUrl,
          keysSecret: { name: secret, key },
          profile: flags.profile,
          duration: flags.duration,
          prometheusRw: flags.prometheusRw,
          image: flags.image,
          name: flags.name,
          ...(flags.slo === undefined ? {} : { slo: await readSloOverride(flags.slo) }),
        },
        path.resolve(flags.out),
      );
      console.log(`manifests: ${path.relative(process.cwd(), file) || file} (kubectl apply -f)`);
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
  .addOption(
    new Option("--push-group <name>", "one more grouping label of the push (push_group), e.g. the environment")
      .argParser(pushGroup)
      .env("HARNESS_PUSH_GROUP"),
  )
  .action(async (dir: string, flags: { pushgateway?: string; pushGroup?: string }) => {
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
  .addOption(tolerancesOption())
  .addOption(baselinesDirOption())
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
  .addOption(baselinesDirOption())
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
  .addOption(baselinesDirOption())
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

program
  .command("list")
  .description("list scenarios and load profiles")
  .action(async () => {
    console.log("Scenarios:");
    for (const s of await listScenarios()) console.log(`  ${s.name.padEnd(16)} ${s.description}`);
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
