/**
 * The run file's values as options of `harness run`. Commander records where each option's value came from (cli,
 * env, default); a run-file value fills only what neither a flag nor a HARNESS_* variable set, and goes through the
 * option's own parser and choices, so `cpus: 0` in the file is refused with the same words as `--cpus 0`.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { InvalidArgumentError, type Command, type Option } from "commander";
import { EXIT, HarnessError } from "../lib/harness/exit-codes.ts";
import type { EnvironmentRails } from "../lib/harness/plan/environment-rails.ts";
import { readRunFile } from "../lib/harness/run-file/read-run-file.ts";
import { resolveRunFile } from "../lib/harness/run-file/resolve-run-file.ts";
import {
  RUN_FILE_SETTINGS,
  settingCli,
  switchFromEnv,
  type RunFileSetting,
} from "../lib/harness/run-file/run-file-schema.ts";

/** What the run file decided beyond plain option values. */
export interface AppliedRunFile {
  /** The run file read, absolute; undefined: none. */
  file: string | undefined;
  scenarios: string[];
  environment: EnvironmentRails;
  apiKeys?: string[];
  controlToken?: string;
  alternativesKeys?: string[];
  /** Where each option's value came from, for the dry-run: "command line", "HARNESS_X", "harness.yaml <place>", "default". */
  sources: Record<string, string>;
}

/** The run file looked for when --run-file is not given. */
export const DEFAULT_RUN_FILE = "harness.yaml";

/** Without a run file, the command line is its own environment, with no rails. */
const COMMAND_LINE: EnvironmentRails = { name: "command line", production: false, shared: false };

function refuse(message: string): never {
  throw new HarnessError(message, EXIT.usage);
}

/** Settings the file holds as objects (inline SLO, traffic model...) that the harness reads from files. */
let inlineDir: string | undefined;
async function inlineFile(name: string, value: unknown): Promise<string> {
  if (inlineDir === undefined) {
    const dir = await mkdtemp(path.join(tmpdir(), "atd-run-file-"));
    inlineDir = dir;
    process.once("exit", () => {
      void rm(dir, { recursive: true, force: true });
    });
  }
  // Named after the setting's place in the run file, so a message about it says where it came from.
  const file = path.join(inlineDir, `${name.replace(/[^\w.-]+/g, "_")}.json`);
  await writeFile(file, JSON.stringify(value, null, 2));
  return file;
}

/** A run-file value as the option would have it from the command line: parsed, choices checked. */
async function optionValue(option: Option, value: unknown, where: string): Promise<unknown> {
  const name = option.attributeName();
  const bad = (why: string): never =>
    refuse(
      `Failed to read the run file: ${where} ${why}. Please fix it in the run file, or give --${option.long?.replace(/^--/, "") ?? name} on the command line.`,
    );
  if (option.isBoolean() || option.negate) {
    if (typeof value !== "boolean") bad("must be true or false");
    return value;
  }
  if (name === "containerEnv") {
    // A list of KEY=VALUE, or an object of KEY: VALUE; each is checked with the target's other flags.
    if (Array.isArray(value)) return value.map(String);
    if (typeof value === "object" && value !== null) {
      return Object.entries(value).map(([k, v]) => `${k}=${String(v)}`);
    }
    return bad("must be a list of KEY=VALUE or an object of KEY: VALUE");
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return inlineFile(where, value);
  }
  const text = Array.isArray(value) ? value.map(String).join(",") : String(value);
  if (option.argChoices && !option.argChoices.includes(text)) {
    bad(`is "${text}", not one of ${option.argChoices.join(", ")}`);
  }
  if (!option.parseArg) return text;
  try {
    return option.parseArg(text, option.defaultValue as unknown);
  } catch (error) {
    if (error instanceof InvalidArgumentError) return bad(error.message.replace(/\.$/, ""));
    throw error;
  }
}

function sourceName(command: Command, option: Option): string {
  const source = command.getOptionValueSource(option.attributeName());
  if (source === "cli") return "command line";
  if (source === "env") return option.envVar ?? "environment";
  return "built-in default";
}

/**
 * Reads the run file (--run-file, else ./harness.yaml when present), chooses the environment (--env) and the
 * scenarios (named, else the file's run.scenarios), and sets every option the file has a value for and neither a
 * flag nor a variable set. Without a run file: the named scenarios, no rails; --env is then an error.
 */
export async function applyRunFile(
  command: Command,
  flags: { runFile?: string; env?: string },
  named: readonly string[],
  knownScenarios: readonly string[],
): Promise<AppliedRunFile> {
  const options: readonly Option[] = command.options;
  const sources: Record<string, string> = {};
  for (const option of options) sources[option.attributeName()] = sourceName(command, option);
  const file = flags.runFile ?? (existsSync(DEFAULT_RUN_FILE) ? DEFAULT_RUN_FILE : undefined);
  if (file === undefined) {
    if (flags.env !== undefined) {
      refuse(
        `Failed to choose the environment ${flags.env}: there is no run file (./${DEFAULT_RUN_FILE} or --run-file). Please write one (harness init), or drop --env.`,
      );
    }
    return { file: undefined, scenarios: [...named], environment: COMMAND_LINE, sources };
  }
  const runFile = await readRunFile(file);
  const resolved = await resolveRunFile(runFile, { environment: flags.env, scenarios: [...named], knownScenarios });
  const byName = new Map(options.map((o) => [o.attributeName(), o]));
  for (const [name, value] of Object.entries(resolved.values)) {
    const option = byName.get(name);
    const where = resolved.sources[name] ?? `${path.basename(file)} ${name}`;
    if (!option) refuse(`Failed to read the run file: ${where} is not a setting of harness run. Please remove it.`);
    const source = command.getOptionValueSource(name);
    if (source === "cli" || source === "env") continue;
    const mirror = switchMirrorSet(name);
    if (mirror !== undefined) {
      sources[name] = mirror;
      continue;
    }
    command.setOptionValueWithSource(name, await optionValue(option, value, where), "config");
    sources[name] = where;
  }
  const secret = <T>(name: string, value: T | undefined): T | undefined => {
    if (value === undefined) return undefined;
    const source = command.getOptionValueSource(name);
    if (source === "cli" || source === "env") return undefined;
    sources[name] = resolved.sources[name] ?? path.basename(file);
    return value;
  };
  return {
    file: path.resolve(file),
    scenarios: resolved.scenarios,
    environment: resolved.environment,
    ...optional("apiKeys", secret("keys", resolved.apiKeys)),
    ...optional("controlToken", secret("controlToken", resolved.controlToken)),
    ...optional("alternativesKeys", secret("alternativesKeys", resolved.alternativesKeys)),
    sources,
  };
}

/**
 * A switch's HARNESS_* mirror when it is set (HARNESS_CHURN=0 included): commander does not read a switch's mirror
 * (switchValue does, after this), so without this the run file's value would beat the variable.
 */
function switchMirrorSet(name: string): string | undefined {
  if (!(RUN_FILE_SETTINGS as readonly string[]).includes(name)) return undefined;
  const { cli, env } = settingCli(name as RunFileSetting);
  if (cli.arg !== undefined || env === undefined) return undefined;
  return switchFromEnv(process.env[env]) === undefined ? undefined : env;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
