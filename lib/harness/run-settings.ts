/**
 * Every file and value of `harness run` read and validated once, in Node, before anything starts: an output directory
 * that cannot be made or written to, a bad SLO, traffic, churn, soak or chaos file, keys file, URL, duration, rate
 * window, service flag or flag of the container and compose targets (readTargetSpec) is exit 2 with what to change,
 * within a second, instead of a k6 error inside a scenario's errors after the target and k6 have started. It reuses the pure validators the k6 side and the extensions apply, so
 * both sides refuse the same values with the same words.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseDuration, scenarioSeconds } from "../contract/durations.ts";
import { arrivalOf } from "../contract/profiles.ts";
import { DEFAULT_SLO, mergeSlo, type SloTable } from "../contract/slo.ts";
import { DEFAULT_TRAFFIC_MODEL, mergeTrafficModel, type TrafficModel } from "../contract/traffic-model.ts";
import { readChaosFile, type ChaosPlan } from "./chaos/chaos-file.ts";
import { CHURN_CONFIG_ADVICE, ChurnConfigError, parseChurnConfig, type ChurnConfig } from "./churn/config.ts";
import { EXIT, HarnessError } from "./exit-codes.ts";
import { checkDirectoryWritable, DirectoryError, makeWritableDirectory } from "./make-directory.ts";
import { FileTextError, parseJsonText, parseYamlText } from "./parse-file-text.ts";
import { isTrackedByGit } from "./run-file/git-tracked.ts";
import { settingsTextId } from "./compare/settings-text-id.ts";
import { traitsOf } from "./scenario-traits.ts";
import { readSoakRules, type SoakRules } from "./soak/soak-rules.ts";
import { parseListen } from "./webhooks/listen-address.ts";
import type { ReadyWhen } from "./containers/api-container.ts";
import type { ComposeSpec, ContainerSpec } from "./targets/target-spec.ts";
import type { SettingValues } from "./run-file/run-file-schema.ts";
import { MAX_RUN_SECONDS } from "./settings/setting-limits.ts";
import { checkArrivalCurve } from "./plan/curve-replay-plan.ts";

/** The flags of a containerised target (--target container or compose), as given. */
export interface TargetFlags {
  image?: string;
  port?: string;
  controlPort?: string;
  controlToken?: string;
  env?: readonly string[];
  envFile?: string;
  waitHttp?: string;
  waitLog?: string;
  startupTimeout?: string;
  cpus?: number;
  memory?: string;
  serviceCpus?: number;
  composeFile?: string;
  service?: string;
  controlService?: string;
}

export type TargetKind = SettingValues["target"];

/** What the command line gave: the settings as the table parsed and layered them (paths relative to the working directory). */
export interface RunSettingsInput {
  /** Every setting of `harness run` (flag > HARNESS_* > run file > default): lib/harness/run-file/run-file-schema.ts. */
  settings: SettingValues;
  scenarios: readonly string[];
  /** --out is made and written to first, unless this (a dry run makes nothing). */
  outDirCheckOnly?: boolean;
  /** The keys themselves, from the run file's secret source (--keys wins when both are given). */
  keys?: readonly string[] | undefined;
  /** The alternatives keys themselves, from the run file's secret source. */
  alternativesKeys?: readonly string[] | undefined;
  /** The control token, from the run file's secret source (--control-token wins when both are given). */
  controlToken?: string | undefined;
  /** How --service-args are checked: by the service's own parser (scripts/run-command.ts hands it in). */
  serviceArgsCheck: ServiceArgsCheck;
}

/** What checkDuration needs: the run's scenarios and the settings their profiles are built from. */
export interface DurationInput {
  scenarios: readonly string[];
  profile: string;
  duration: string | undefined;
  /** --capacity-rates, already parsed by the command line. */
  capacityRates: readonly number[] | undefined;
}

/** What readTargetSpec needs: the target, whether keys were given (--keys or the run file), and the target's flags. */
export interface TargetInput {
  target: TargetKind;
  keysGiven: boolean;
  targetFlags?: TargetFlags;
}

/** The run's settings, every one valid; file paths absolute. */
export interface RunSettings {
  sloFile: string | undefined;
  slo: SloTable;
  /** What a comparison calls the SLO table and the traffic model: "default" or the sha256 of the file read. */
  ids: { sloTable: string; trafficModel: string };
  trafficFile: string | undefined;
  traffic: TrafficModel;
  /** --keys: undefined when the target's control API is to list them. */
  apiKeys: string[] | undefined;
  /** --alternatives-keys: the keys the operator enabled alternatives for; undefined: not stated. */
  alternativesKeys: string[] | undefined;
  churnConfigFile: string | undefined;
  /** The churn configuration with --churn-rate applied (used only when the run has churn). */
  churn: ChurnConfig;
  soakConfigFile: string | undefined;
  soakRules: SoakRules;
  chaos: ChaosPlan | undefined;
  serviceArgs: string[];
  /** --target container: the image and how to start it. */
  container: ContainerSpec | undefined;
  /** --target compose: the stack and how to start it. */
  compose: ComposeSpec | undefined;
}

function refuse(message: string): never {
  throw new HarnessError(message, EXIT.usage);
}

export { MAX_RUN_SECONDS };
/** The longest rate-limit window --rate-window may state (the reference service's own bound). */
export const MAX_RATE_WINDOW_SECONDS = 86_400;

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
    return parseJsonText(text, file);
  } catch (error) {
    if (!(error instanceof FileTextError)) throw error;
    return refuse(`Failed to read ${what} ${error.where}: it is not JSON (${error.reason}). Please fix the file.`);
  }
}

/**
 * --out, made (its missing parents one by one: never Node's recursive mkdir, which does not return on some paths) and
 * proven writable before anything starts; a dry run only checks that it could be.
 */
export async function prepareOutDir(dir: string, checkOnly = false): Promise<void> {
  try {
    await (checkOnly ? checkDirectoryWritable(dir) : makeWritableDirectory(dir));
  } catch (error) {
    if (!(error instanceof DirectoryError)) throw error;
    refuse(
      `Failed to write to the output directory ${dir}: ${error.reason}. Please give --out (HARNESS_OUT) a folder the harness can create and write to.`,
    );
  }
}

/** Every URL flag: an http or https URL (k6, the sink and the hooks client speak nothing else). */
export function checkUrls(urls: Readonly<Record<string, string | undefined>>): void {
  for (const [flag, value] of Object.entries(urls)) {
    if (value === undefined) continue;
    let protocol: string | undefined;
    try {
      protocol = new URL(value).protocol;
    } catch {
      refuse(
        `Failed to read ${flag} "${value}": it is not a URL. Please give an http(s) URL such as http://127.0.0.1:8080.`,
      );
    }
    if (protocol !== "http:" && protocol !== "https:") {
      refuse(
        `Failed to read ${flag} "${value}": its scheme is ${protocol.replace(/:$/, "")}, and the harness speaks http and https only. Please give an http(s) URL such as http://127.0.0.1:8080.`,
      );
    }
  }
}

/** The SLO file's override merged into the table, as k6 will merge it at init (lib/k6/options.ts), and its id. */
export async function readSloFile(file: string): Promise<{ slo: SloTable; id: string }> {
  const text = await readText(file, "the SLO file", "give a JSON file (--slo)");
  const parsed = parseJson(text, file, "the SLO file");
  try {
    return { slo: mergeSlo(DEFAULT_SLO, parsed, `SLO file ${file}`), id: settingsTextId(text) };
  } catch (error) {
    // mergeSlo's message already names the file, the key and what to change.
    return refuse((error as Error).message);
  }
}

/** The traffic file's override applied to the model, as k6 will apply it at init (lib/k6/traffic/load.ts), and its id. */
export async function readTrafficFile(file: string): Promise<{ traffic: TrafficModel; id: string }> {
  const what = "the traffic model";
  const text = await readText(file, what, "give a JSON file (--traffic)");
  const parsed = parseJson(text, file, what);
  try {
    return { traffic: mergeTrafficModel(DEFAULT_TRAFFIC_MODEL, parsed, file), id: settingsTextId(text) };
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
export async function readKeysFile(file: string, flag = "--keys"): Promise<string[]> {
  const text = await readText(file, flag, "give a readable file");
  // A key committed to a repository stays in its history for anyone who clones it.
  if (await isTrackedByGit(file)) {
    refuse(
      `Failed to read ${flag} ${file}: the file is tracked by git, so its keys are in the repository's history. Please keep keys in a file outside the repository, or in an environment variable named by the run file ({ env: NAME }).`,
    );
  }
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
    refuse(`Failed to read ${flag} ${file}: no API keys in it. Please give a JSON array of keys or one key per line.`);
  }
  return keys as string[];
}

/**
 * --duration against every profile the run uses: --profile's, and the own profiles of soak and capacity (with
 * --capacity-rates). Each is built as k6 will build it, so a duration k6 would refuse is refused here.
 */
export function checkDuration(input: DurationInput) {
  const { duration } = input;
  let longest = { profile: input.profile, seconds: 0 };
  try {
    if (duration !== undefined && parseDuration(duration) <= 0) throw new Error("it is no time at all");
    const profiles = new Set([input.profile, ...input.scenarios.flatMap((s) => traitsOf(s).profile ?? [])]);
    for (const name of profiles) {
      // As the plan and k6 build it (arrivalOf); capacity with --capacity-rates whichever way it was chosen.
      const own = name === "capacity" ? name : undefined;
      const seconds = scenarioSeconds(
        arrivalOf(own, { profile: name, duration, capacityRates: input.capacityRates }).arrival,
      );
      if (seconds > longest.seconds) longest = { profile: name, seconds };
    }
  } catch (error) {
    refuse(
      `Failed to read --duration "${duration ?? ""}": ${(error as Error).message}. Please use k6 syntax such as 30s.`,
    );
  }
  if (longest.seconds > MAX_RUN_SECONDS) {
    refuse(
      `Failed to read --duration "${duration ?? ""}": the ${longest.profile} profile would run ${hours(longest.seconds)}, and a run lasts at most ${hours(MAX_RUN_SECONDS)} (7 days). Please give a duration from 1s to 168h, e.g. 30m.`,
    );
  }
}

/** A length in hours, as the duration refusal words it. */
function hours(seconds: number): string {
  const h = seconds / 3600;
  return `${h >= 1e6 ? h.toExponential(2) : String(Math.round(h * 100) / 100)} h`;
}

/** --rate-window: seconds, as k6 reads ATD_RATE_WINDOW_SECONDS (lib/k6/config.ts), at most a day. */
export function checkRateWindow(value: string | undefined): void {
  if (value === undefined || value.trim() === "") return;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > MAX_RATE_WINDOW_SECONDS) {
    refuse(
      `Failed to read --rate-window "${value}": it is not a number of seconds above 0 and at most ${String(MAX_RATE_WINDOW_SECONDS)} (a day). Please give e.g. 60.`,
    );
  }
}

/**
 * The service's own check of its start flags (and ATD_SERVICE_* environment): what is wrong and what to do, or
 * undefined when they are good. Handed in by the command (service/options.ts's serviceArgsProblem) rather than
 * imported, since lib/harness imports nothing of the service; asking the service program instead (a Node process of
 * about a second) would slow every run that sets --service-args.
 */
export type ServiceArgsCheck = (
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
) => { what: string; fix: string } | undefined;

/** --service-args, parsed as the embedded service and the container will parse them (service/options.ts). */
export function checkServiceArgs(target: TargetKind, value: string | undefined, check: ServiceArgsCheck): string[] {
  const args = value?.split(/\s+/).filter((a) => a.length > 0) ?? [];
  if (target === "url" || args.length === 0) return args;
  // The embedded service inherits the harness's environment (ATD_SERVICE_*); the container gets only the flags.
  const problem = check(args, target === "embedded" ? process.env : {});
  if (problem) refuse(`Failed to read --service-args "${value ?? ""}": ${problem.what}. Please ${problem.fix}.`);
  return args;
}

const DEFAULT_STARTUP_TIMEOUT_MS = 60_000;
/** The longest --startup-timeout: a target slower to start than this is not waited for. */
export const MAX_STARTUP_TIMEOUT_SECONDS = 3600;
/** Docker refuses a memory limit under 6 MiB. */
const MIN_MEMORY_BYTES = 6 * 1024 * 1024;
/** A limit above 1 TiB is a typo, not a limit. */
const MAX_MEMORY_BYTES = 1024 ** 4;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** --port, --control-port: a TCP port, 1 to 65535. */
export function parsePort(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 65535) {
    refuse(`Failed to read ${flag} "${value}": it is not a TCP port. Please give a whole number from 1 to 65535.`);
  }
  return n;
}

/** One --container-env: KEY=VALUE (the value may be empty and may hold "="). */
export function parseEnvAssignment(text: string, where = "--container-env"): [string, string] {
  const at = text.indexOf("=");
  const name = at < 0 ? text : text.slice(0, at);
  if (at < 0 || !ENV_NAME.test(name)) {
    refuse(
      `Failed to read ${where} "${text}": it is not KEY=VALUE with a variable name of letters, digits and _. Please write it as --container-env LOG_LEVEL=debug.`,
    );
  }
  return [name, text.slice(at + 1)];
}

/**
 * An env file as Docker reads one (docker run --env-file): KEY=VALUE per line, taken verbatim (no quotes removed),
 * blank lines and # comments skipped, a bare KEY takes the harness's own value of it (and is left out when unset).
 */
export async function readEnvFile(file: string): Promise<Record<string, string>> {
  const text = await readText(file, "the env file", "give a readable file of KEY=VALUE lines (--container-env-file)");
  // Entries, then fromEntries: a line named __proto__ is a variable like any other, not the object's prototype.
  const environment: [string, string][] = [];
  for (const [index, raw] of text.split("\n").entries()) {
    const line = raw.replace(/\r$/, "").replace(/^\s+/, "");
    if (line === "" || line.startsWith("#")) continue;
    if (!line.includes("=")) {
      const name = line.trim();
      if (!ENV_NAME.test(name)) parseEnvAssignment(line, `--container-env-file ${file} line ${String(index + 1)}`);
      const own = Object.hasOwn(process.env, name) ? process.env[name] : undefined;
      if (own !== undefined) environment.push([name, own]);
      continue;
    }
    environment.push(parseEnvAssignment(line, `--container-env-file ${file} line ${String(index + 1)}`));
  }
  return Object.fromEntries(environment);
}

/** --wait-http <path>[:status], e.g. /health or /v2/config:401. */
export function parseWaitHttp(value: string): ReadyWhen {
  const match = /^(\/\S*?)(?::(\d{3}))?$/.exec(value.trim());
  const status = match?.[2] === undefined ? undefined : Number(match[2]);
  if (!match || (status !== undefined && (status < 100 || status > 599))) {
    refuse(
      `Failed to read --wait-http "${value}": it is not <path>[:status]. Please give a path that starts with /, and optionally an HTTP status from 100 to 599, e.g. /health or /v2/config:401.`,
    );
  }
  return { kind: "http", path: match[1] ?? "/", status };
}

/** --wait-log <regex>: a JavaScript regular expression a line of the container's output must match. */
export function parseWaitLog(value: string): ReadyWhen {
  try {
    return { kind: "log", pattern: new RegExp(value) };
  } catch (error) {
    return refuse(
      `Failed to read --wait-log "${value}": ${(error as Error).message}. Please give a JavaScript regular expression, e.g. "listening on".`,
    );
  }
}

/** --startup-timeout, in k6 duration syntax; milliseconds. */
export function parseStartupTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_STARTUP_TIMEOUT_MS;
  let seconds = 0;
  try {
    seconds = parseDuration(value);
  } catch {
    // Refused below with the flag's own words.
  }
  if (!(seconds > 0) || seconds > MAX_STARTUP_TIMEOUT_SECONDS) {
    refuse(
      `Failed to read --startup-timeout "${value}": it is not a duration above 0 and at most 1h. Please use k6 syntax such as 90s or 2m.`,
    );
  }
  // Up, not to the nearest: 0.4ms is a timeout of 1 ms, not of none.
  return Math.ceil(seconds * 1000);
}

/** --memory as Docker writes it: bytes, or a number with b, k, m, g (binary units), e.g. 512m. */
export function parseMemory(value: string): number {
  const match = /^(\d+(?:\.\d+)?)([bkmg]?)$/i.exec(value.trim());
  const unit = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match?.[2] ?? "").toLowerCase()] ?? 1;
  const bytes = match ? Math.round(Number(match[1]) * unit) : 0;
  if (!(bytes >= MIN_MEMORY_BYTES && bytes <= MAX_MEMORY_BYTES)) {
    refuse(
      `Failed to read --memory "${value}": it is not a memory size from 6m to 1024g. Please write it as Docker does, e.g. 512m or 2g.`,
    );
  }
  return bytes;
}

/** The services a compose file lists, read with a YAML parser (compose files are YAML). */
export async function readComposeServices(file: string): Promise<string[]> {
  const text = await readText(file, "the compose file", "give a docker-compose YAML file (--compose-file)");
  let parsed: unknown;
  try {
    parsed = parseYamlText(text, file);
  } catch (error) {
    if (!(error instanceof FileTextError)) throw error;
    return refuse(`Failed to read the compose file ${error.where}: it is not YAML (${error.reason}). Please fix it.`);
  }
  const services = (parsed as { services?: unknown } | null)?.services;
  if (services === null || typeof services !== "object" || Array.isArray(services) || !Object.keys(services).length) {
    refuse(
      `Failed to read the compose file ${file}: it has no services. Please give a compose file with a services: map.`,
    );
  }
  return Object.keys(services);
}

type TargetKindInput = TargetKind;

/** Each flag of a containerised target: the targets it applies to. */
const TARGET_FLAGS: readonly { key: keyof TargetFlags; flag: string; targets: readonly TargetKindInput[] }[] = [
  { key: "image", flag: "--image", targets: ["container"] },
  { key: "cpus", flag: "--cpus", targets: ["container"] },
  { key: "memory", flag: "--memory", targets: ["container"] },
  { key: "port", flag: "--port", targets: ["container", "compose"] },
  { key: "controlPort", flag: "--control-port", targets: ["container", "compose"] },
  { key: "env", flag: "--container-env", targets: ["container", "compose"] },
  { key: "envFile", flag: "--container-env-file", targets: ["container", "compose"] },
  { key: "waitHttp", flag: "--wait-http", targets: ["container", "compose"] },
  { key: "waitLog", flag: "--wait-log", targets: ["container", "compose"] },
  { key: "startupTimeout", flag: "--startup-timeout", targets: ["container", "compose"] },
  { key: "composeFile", flag: "--compose-file", targets: ["compose"] },
  { key: "service", flag: "--service", targets: ["compose"] },
  { key: "controlService", flag: "--control-service", targets: ["compose"] },
];

function given(flags: TargetFlags, key: keyof TargetFlags): boolean {
  const value = flags[key];
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}

/** What to do instead of a flag this target does not take. */
function misplacedFix(key: keyof TargetFlags, target: TargetKindInput, targets: readonly TargetKindInput[]): string {
  if (target === "compose" && key === "image") return "name the images in the compose file";
  if (target === "compose") return "set the services' limits in the compose file";
  if (target === "embedded" && key === "cpus") return "use --service-cpus, the embedded service's CPU budget";
  if (target === "url" && (key === "port" || key === "controlPort")) return "give --base-url and --control-url";
  return `drop it or choose --target ${targets.join(" or ")}`;
}

/** A flag that belongs to other targets: refused rather than silently ignored. */
function refuseMisplaced(target: TargetKindInput, flags: TargetFlags): void {
  for (const { key, flag, targets } of TARGET_FLAGS) {
    if (given(flags, key) && !targets.includes(target)) {
      refuse(
        `Failed to read ${flag}: it applies to --target ${targets.join(" or ")}, not ${target}. Please ${misplacedFix(key, target, targets)}.`,
      );
    }
  }
  if (given(flags, "waitHttp") && given(flags, "waitLog")) {
    refuse("Failed to read --wait-http and --wait-log: a run waits one way. Please give only one of them.");
  }
}

/** --control-port needs the token its hooks require (--control-token or HARNESS_CONTROL_TOKEN). */
function controlOf(flags: TargetFlags, what: string): { port: number | undefined; token: string | undefined } {
  const port = flags.controlPort === undefined ? undefined : parsePort(flags.controlPort, "--control-port");
  if (port !== undefined && !flags.controlToken) {
    refuse(
      `Failed to read --control-port: ${what}'s hooks need their X-Control-Token too. Please pass --control-token (or HARNESS_CONTROL_TOKEN).`,
    );
  }
  return { port, token: flags.controlToken || undefined };
}

function requireKeys(keysGiven: boolean, what: string): void {
  if (!keysGiven) {
    refuse(
      `Failed to pick API keys: ${what} is not the reference service, so the harness cannot know its keys. Please pass --keys <file> (a JSON array or one key per line).`,
    );
  }
}

function refuseServiceArgs(serviceArgs: readonly string[], what: string): void {
  if (serviceArgs.length > 0) {
    refuse(
      `Failed to read --service-args: they are flags of the reference service, not of ${what}. Please pass its settings with --container-env KEY=VALUE instead.`,
    );
  }
}

/** --container-env-file's variables, then each --container-env (the later one wins, as with docker run). */
async function environmentOf(flags: TargetFlags): Promise<Record<string, string>> {
  const environment = flags.envFile ? await readEnvFile(flags.envFile) : {};
  for (const text of flags.env ?? []) {
    const [name, value] = parseEnvAssignment(text);
    environment[name] = value;
  }
  return environment;
}

/** --target container and compose: every flag read, checked against the target and turned into its spec. */
export async function readTargetSpec(
  input: TargetInput,
  serviceArgs: readonly string[],
): Promise<{ container: ContainerSpec | undefined; compose: ComposeSpec | undefined }> {
  const flags = input.targetFlags ?? {};
  refuseMisplaced(input.target, flags);
  if (input.target !== "container" && input.target !== "compose") return { container: undefined, compose: undefined };
  const common: CommonTargetFacts = {
    readyWhen: flags.waitHttp ? parseWaitHttp(flags.waitHttp) : flags.waitLog ? parseWaitLog(flags.waitLog) : undefined,
    startupTimeoutMs: parseStartupTimeout(flags.startupTimeout),
    apiPort: flags.port === undefined ? undefined : parsePort(flags.port, "--port"),
  };
  return input.target === "container"
    ? { container: await readContainerSpec(input, flags, common, serviceArgs), compose: undefined }
    : { container: undefined, compose: await readComposeSpec(input, flags, common, serviceArgs) };
}

/** What every containerised target reads alike: when it is ready, how long it may take, the API's port. */
interface CommonTargetFacts {
  readyWhen: ContainerSpec["readyWhen"];
  startupTimeoutMs: number;
  apiPort: number | undefined;
}

/** --target container: the service image (or the reference image built locally) and its limits. */
async function readContainerSpec(
  input: TargetInput,
  flags: TargetFlags,
  common: CommonTargetFacts,
  serviceArgs: readonly string[],
): Promise<ContainerSpec> {
  const image = flags.image?.trim() || undefined;
  const control = controlOf(flags, image ?? "the service image");
  if (image !== undefined) {
    if (common.apiPort === undefined) {
      refuse(`Failed to read --image ${image}: the harness needs the port its API listens on. Please pass --port.`);
    }
    refuseServiceArgs(serviceArgs, `the image ${image}`);
    requireKeys(input.keysGiven, `the image ${image}`);
  }
  if (flags.cpus !== undefined && flags.serviceCpus !== undefined && flags.cpus !== flags.serviceCpus) {
    refuse(
      `Failed to read --cpus ${String(flags.cpus)}: --service-cpus ${String(flags.serviceCpus)} sets the same budget to another value. Please give only one of them.`,
    );
  }
  return {
    image,
    apiPort: common.apiPort,
    controlPort: control.port,
    controlToken: control.token,
    environment: await environmentOf(flags),
    readyWhen: common.readyWhen,
    startupTimeoutMs: common.startupTimeoutMs,
    cpus: flags.cpus ?? flags.serviceCpus,
    memoryBytes: flags.memory === undefined ? undefined : parseMemory(flags.memory),
  };
}

/** --target compose: the stack's file, the service that serves the API (and the hooks), their ports. */
async function readComposeSpec(
  input: TargetInput,
  flags: TargetFlags,
  common: CommonTargetFacts,
  serviceArgs: readonly string[],
): Promise<ComposeSpec> {
  if (!flags.composeFile) {
    refuse("Failed to read the compose target: no --compose-file. Please name the stack's docker-compose YAML file.");
  }
  const file = path.resolve(flags.composeFile);
  const services = await readComposeServices(file);
  const listed = services.join(", ");
  if (!flags.service) {
    refuse(`Failed to read the compose target: no --service. Please name the service that serves the API (${listed}).`);
  }
  for (const [flag, name] of [
    ["--service", flags.service],
    ["--control-service", flags.controlService],
  ] as const) {
    if (name !== undefined && !services.includes(name)) {
      refuse(`Failed to read ${flag} ${name}: ${file} has no such service. Please name one of: ${listed}.`);
    }
  }
  if (common.apiPort === undefined) {
    refuse(
      `Failed to read the compose target: no --port. Please pass the port service ${flags.service} serves the API on.`,
    );
  }
  const control = controlOf(flags, `the compose stack`);
  if (flags.controlService !== undefined && control.port === undefined) {
    refuse(
      `Failed to read --control-service ${flags.controlService}: the harness needs the port its hooks listen on. Please pass --control-port.`,
    );
  }
  if (flags.serviceCpus !== undefined) {
    refuse("Failed to read --service-cpus: a compose stack's limits are its own. Please set them in the compose file.");
  }
  refuseServiceArgs(serviceArgs, "a compose stack");
  requireKeys(input.keysGiven, "a compose stack");
  if (flags.envFile) await readText(flags.envFile, "the env file", "give a readable file (--container-env-file)");
  return {
    file,
    services,
    service: flags.service,
    controlService: flags.controlService ?? flags.service,
    apiPort: common.apiPort,
    controlPort: control.port,
    controlToken: control.token,
    environment: await environmentOf({ env: flags.env }),
    envFile: flags.envFile ? path.resolve(flags.envFile) : undefined,
    readyWhen: common.readyWhen,
    startupTimeoutMs: common.startupTimeoutMs,
  };
}

/** The flags of a containerised target, as readTargetSpec takes them. */
function targetFlagsOf(settings: SettingValues, runFileToken: string | undefined): TargetFlags {
  return {
    image: settings.image,
    port: settings.port,
    controlPort: settings.controlPort,
    controlToken: settings.controlToken ?? runFileToken,
    env: settings.containerEnv,
    envFile: settings.containerEnvFile,
    waitHttp: settings.waitHttp,
    waitLog: settings.waitLog,
    startupTimeout: settings.startupTimeout,
    cpus: settings.cpus,
    memory: settings.memory,
    serviceCpus: settings.serviceCpus,
    composeFile: settings.composeFile,
    service: settings.service,
    controlService: settings.controlService,
  };
}

/** The checks that read no file: --out, the URLs, --duration, --rate-window, --webhook-listen, --service-args. */
async function checkValues(input: RunSettingsInput): Promise<string[]> {
  const { settings } = input;
  await prepareOutDir(settings.out, input.outDirCheckOnly);
  checkUrls({
    "--base-url": settings.baseUrl,
    "--control-url": settings.controlUrl,
    "--webhook-url": settings.webhookUrl,
    "--pushgateway": settings.pushgateway,
    "--prometheus-rw": settings.prometheusRw,
  });
  checkDuration({
    scenarios: input.scenarios,
    profile: settings.profile,
    duration: settings.duration,
    capacityRates: settings.capacityRates,
  });
  checkRateWindow(settings.rateWindow);
  parseListen(settings.webhookListen);
  return checkServiceArgs(settings.target, settings.serviceArgs, input.serviceArgsCheck);
}

/** Reads and validates every setting of a run; throws a HarnessError (exit 2) on the first bad one. */
export async function readRunSettings(input: RunSettingsInput): Promise<RunSettings> {
  const { settings } = input;
  const resolve = (file: string | undefined) => (file ? path.resolve(file) : undefined);
  const serviceArgs = await checkValues(input);
  const targetSpec = await readTargetSpec(
    {
      target: settings.target,
      keysGiven: settings.keys !== undefined || input.keys !== undefined,
      targetFlags: targetFlagsOf(settings, input.controlToken),
    },
    serviceArgs,
  );
  const sloFile = resolve(settings.slo);
  const trafficFile = resolve(settings.traffic);
  const churnConfigFile = resolve(settings.churnConfig);
  const soakConfigFile = resolve(settings.soakConfig);
  const slo = sloFile ? await readSloFile(sloFile) : { slo: DEFAULT_SLO, id: settingsTextId(undefined) };
  const traffic = trafficFile
    ? await readTrafficFile(trafficFile)
    : { traffic: DEFAULT_TRAFFIC_MODEL, id: settingsTextId(undefined) };
  checkArrivalCurve(settings, input.scenarios, traffic.traffic);
  return {
    sloFile,
    slo: slo.slo,
    ids: { sloTable: slo.id, trafficModel: traffic.id },
    trafficFile,
    traffic: traffic.traffic,
    apiKeys: settings.keys ? await readKeysFile(settings.keys) : input.keys && [...input.keys],
    alternativesKeys: settings.alternativesKeys
      ? await readKeysFile(settings.alternativesKeys, "--alternatives-keys")
      : input.alternativesKeys && [...input.alternativesKeys],
    churnConfigFile,
    churn: await readChurnFile(churnConfigFile, settings.churnRate),
    soakConfigFile,
    soakRules: await readSoakRules(soakConfigFile),
    // As given: the plan names its file in the chaos verdict and messages the way the user wrote it.
    chaos: settings.chaos ? await readChaosFile(settings.chaos) : undefined,
    serviceArgs,
    ...targetSpec,
  };
}
