/**
 * Every file and value of `harness run` read and validated once, in Node, before anything starts: a bad SLO, traffic,
 * churn, soak or chaos file, keys file, duration, rate window or service flag is exit 2 with what to change, within a
 * second, instead of a k6 error inside a scenario's errors after the target and k6 have started. It reuses the pure
 * validators the k6 side and the extensions apply, so both sides refuse the same values with the same words.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseDuration, scenarioSeconds } from "../k6/durations.ts";
import { capacityScenario, profileNamed } from "../k6/profiles.ts";
import { DEFAULT_SLO, mergeSlo, type SloTable } from "../k6/slo.ts";
import { DEFAULT_TRAFFIC_MODEL, mergeTrafficModel, type TrafficModel } from "../k6/traffic/model.ts";
import { OptionsError, parseServiceArgs } from "../../service/options.ts";
import { readChaosFile, type ChaosPlan } from "./chaos/chaos-file.ts";
import { CHURN_CONFIG_ADVICE, ChurnConfigError, parseChurnConfig, type ChurnConfig } from "./churn/config.ts";
import { EXIT, HarnessError } from "./exit-codes.ts";
import { traitsOf } from "./scenario-traits.ts";
import { readSoakRules, type SoakRules } from "./soak/soak-rules.ts";
import { parseListen } from "./webhooks/extension.ts";

/** What the command line gave, as given (paths relative to the working directory). */
export interface RunSettingsInput {
  scenarios: readonly string[];
  target: "embedded" | "container" | "url";
  profile: string;
  duration: string | undefined;
  /** --capacity-rates, already parsed by the command line. */
  capacityRates: readonly number[] | undefined;
  sloFile: string | undefined;
  trafficFile: string | undefined;
  keysFile: string | undefined;
  churnConfigFile: string | undefined;
  churnRate: number | undefined;
  soakConfigFile: string | undefined;
  chaosFile: string | undefined;
  rateWindow: string | undefined;
  serviceArgs: string | undefined;
  /** --webhook-listen: the sink's host:port (checked even when the run has no sink: a bad flag is a bad flag). */
  webhookListen: string;
}

/** The run's settings, every one valid; file paths absolute. */
export interface RunSettings {
  sloFile: string | undefined;
  slo: SloTable;
  trafficFile: string | undefined;
  traffic: TrafficModel;
  /** --keys: undefined when the target's control API is to list them. */
  apiKeys: string[] | undefined;
  churnConfigFile: string | undefined;
  /** The churn configuration with --churn-rate applied (used only when the run has churn). */
  churn: ChurnConfig;
  soakConfigFile: string | undefined;
  soakRules: SoakRules;
  chaos: ChaosPlan | undefined;
  serviceArgs: string[];
}

function refuse(message: string): never {
  throw new HarnessError(message, EXIT.usage);
}

async function readText(file: string, what: string, fix: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    return refuse(`Failed to read ${what} ${file}: ${reason}. Please ${fix}.`);
  }
}

function parseJson(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return refuse(`Failed to read ${what} ${file}: it is not JSON (${(error as Error).message}). Please fix the file.`);
  }
}

/** The SLO file's override merged into the table, as k6 will merge it at init (lib/k6/options.ts). */
export async function readSloFile(file: string): Promise<SloTable> {
  const parsed = parseJson(await readText(file, "the SLO file", "give a JSON file (--slo)"), file, "the SLO file");
  try {
    return mergeSlo(DEFAULT_SLO, parsed, `SLO file ${file}`);
  } catch (error) {
    // mergeSlo's message already names the file, the key and what to change.
    return refuse((error as Error).message);
  }
}

/** The traffic file's override applied to the model, as k6 will apply it at init (lib/k6/traffic/load.ts). */
export async function readTrafficFile(file: string): Promise<TrafficModel> {
  const what = "the traffic model";
  const parsed = parseJson(await readText(file, what, "give a JSON file (--traffic)"), file, what);
  try {
    return mergeTrafficModel(DEFAULT_TRAFFIC_MODEL, parsed, file);
  } catch (error) {
    return refuse((error as Error).message);
  }
}

/** --churn-config and --churn-rate, as the churn extension will read them (lib/harness/churn/config.ts). */
export async function readChurnFile(file: string | undefined, rate: number | undefined): Promise<ChurnConfig> {
  const what = "the churn configuration";
  const parsed = file
    ? parseJson(await readText(file, what, "give a JSON file (--churn-config)"), file, what)
    : undefined;
  let config: ChurnConfig;
  try {
    config = parseChurnConfig(parsed);
  } catch (error) {
    if (!(error instanceof ChurnConfigError)) throw error;
    return refuse(`Failed to read ${what} ${file ?? ""}: ${error.reason}. ${CHURN_CONFIG_ADVICE}`);
  }
  return rate === undefined ? config : { ...config, ratePerSecond: rate };
}

/** A keys file: a JSON array of keys, {"keys": [...]}, or one key per line. */
export async function readKeysFile(file: string): Promise<string[]> {
  const text = await readText(file, "--keys", "give a readable file");
  let keys: unknown;
  try {
    const parsed = JSON.parse(text) as unknown;
    keys = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown }).keys;
  } catch {
    keys = text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
  }
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === "string" && k.length > 0)) {
    refuse(`Failed to read --keys ${file}: no API keys in it. Please give a JSON array of keys or one key per line.`);
  }
  return keys as string[];
}

/**
 * --duration against every profile the run uses: --profile's, and the own profiles of soak and capacity (with
 * --capacity-rates). Each is built as k6 will build it, so a duration k6 would refuse is refused here.
 */
export function checkDuration(input: Pick<RunSettingsInput, "scenarios" | "profile" | "duration" | "capacityRates">) {
  const { duration } = input;
  try {
    if (duration !== undefined && parseDuration(duration) <= 0) throw new Error("it is no time at all");
    const profiles = new Set([input.profile, ...input.scenarios.flatMap((s) => traitsOf(s).profile ?? [])]);
    for (const name of profiles) {
      const scenario =
        name === "capacity" && input.capacityRates
          ? capacityScenario(duration, input.capacityRates)
          : profileNamed(name).scenario(duration);
      scenarioSeconds(scenario);
    }
  } catch (error) {
    refuse(
      `Failed to read --duration "${duration ?? ""}": ${(error as Error).message}. Please use k6 syntax such as 30s.`,
    );
  }
}

/** --rate-window: seconds, as k6 reads ATD_RATE_WINDOW_SECONDS (lib/k6/config.ts). */
export function checkRateWindow(value: string | undefined): void {
  if (value === undefined || value.trim() === "") return;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    refuse(`Failed to read --rate-window "${value}": it is not a positive number of seconds. Please give e.g. 60.`);
  }
}

/** --service-args, parsed as the embedded service and the container will parse them (service/options.ts). */
export function checkServiceArgs(target: RunSettingsInput["target"], value: string | undefined): string[] {
  const args = value?.split(/\s+/).filter((a) => a.length > 0) ?? [];
  if (target === "url" || args.length === 0) return args;
  try {
    // The embedded service inherits the harness's environment (ATD_SERVICE_*); the container gets only the flags.
    parseServiceArgs(args, target === "embedded" ? process.env : {});
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    refuse(`Failed to read --service-args "${value ?? ""}": ${error.what}. Please ${error.fix}.`);
  }
  return args;
}

/** Reads and validates every setting of a run; throws a HarnessError (exit 2) on the first bad one. */
export async function readRunSettings(input: RunSettingsInput): Promise<RunSettings> {
  const resolve = (file: string | undefined) => (file ? path.resolve(file) : undefined);
  checkDuration(input);
  checkRateWindow(input.rateWindow);
  parseListen(input.webhookListen);
  const serviceArgs = checkServiceArgs(input.target, input.serviceArgs);
  const sloFile = resolve(input.sloFile);
  const trafficFile = resolve(input.trafficFile);
  const churnConfigFile = resolve(input.churnConfigFile);
  const soakConfigFile = resolve(input.soakConfigFile);
  return {
    sloFile,
    slo: sloFile ? await readSloFile(sloFile) : DEFAULT_SLO,
    trafficFile,
    traffic: trafficFile ? await readTrafficFile(trafficFile) : DEFAULT_TRAFFIC_MODEL,
    apiKeys: input.keysFile ? await readKeysFile(input.keysFile) : undefined,
    churnConfigFile,
    churn: await readChurnFile(churnConfigFile, input.churnRate),
    soakConfigFile,
    soakRules: await readSoakRules(soakConfigFile),
    // As given: the plan names its file in the chaos verdict and messages the way the user wrote it.
    chaos: input.chaosFile ? await readChaosFile(input.chaosFile) : undefined,
    serviceArgs,
  };
}
