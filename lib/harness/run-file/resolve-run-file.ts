/**
 * Chooses what a run file runs: the environment, the scenarios, and every setting merged from defaults, the
 * environment and the chosen scenarios (later wins), with paths resolved against the file's folder and secrets read
 * from where the file says they are. The command line and HARNESS_* variables go over all of it (scripts/).
 */
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { isRecord } from "../../contract/index.ts";
import { CapacityRatesError, parseCapacityRates } from "../../contract/profiles.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import type { EnvironmentRails } from "../plan/environment-rails.ts";
import { isTrackedByGit } from "./git-tracked.ts";
import type { RunFile, RunFileSettings } from "./run-file.ts";
import { closest, dotted, type RunFilePath } from "./run-file-names.ts";
import {
  RUN_FILE_INLINE_SETTINGS,
  RUN_FILE_PATH_SETTINGS,
  RUN_FILE_SECRET_SETTINGS,
  isRunFileSetting,
  type RunFileSetting,
} from "./run-file-schema.ts";

export interface RunFileChoice {
  /** The environment named on the command line; undefined: run.environment, else the only one, else local. */
  environment?: string | undefined;
  /** The scenarios named on the command line; none: the file's run.scenarios. */
  scenarios: readonly string[];
  /** When given, every scenario name the file holds must be one of these (else exit 2 at its line). */
  knownScenarios?: readonly string[] | undefined;
}

/** The merged settings by name (RUN_FILE_SETTINGS, secrets excepted): paths absolute, inline content as objects. */
export type RunFileValues = Record<string, unknown>;

export interface ResolvedRunFile {
  /** The run file as it was given. */
  file: string;
  environment: EnvironmentRails;
  scenarios: string[];
  /**
   * Normalised beyond the file's spelling: containerEnv and webhookRefusals are lists of strings, capacityRates a
   * list of numbers, and a baseline with a / in it is a path.
   */
  values: RunFileValues;
  /** Where each value and secret came from, by setting name: "harness.yaml environments.demo". */
  sources: Record<string, string>;
  /** Why this environment and these scenarios: "command line", "harness.yaml run.environment", ... */
  chosenBy: { environment: string; scenarios: string };
  apiKeys?: string[];
  controlToken?: string;
  alternativesKeys?: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

interface Layer {
  /** "harness.yaml environments.demo" */
  label: string;
  at: RunFilePath;
  settings: RunFileSettings;
  /** The scenario's name, for a scenario's layer: two scenarios must agree on every setting both set. */
  scenario?: string;
}

interface SecretSource {
  env?: string;
  file?: string;
}

const SECRET_WHAT: Record<string, string> = {
  keys: "the API keys (comma, space or newline separated)",
  controlToken: "the control API's token",
  alternativesKeys: "the keys alternatives are enabled for (comma, space or newline separated)",
};

function usage(message: string): HarnessError {
  return new HarnessError(message, EXIT.usage);
}

const has = (list: readonly string[], name: string): boolean => list.includes(name);

/** A short rendering of a value for a message. */
function shown(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** "~" and "~/x" are the home folder (HOME when the caller's environment sets it, as the shell would). */
function expandHome(file: string, env: Env): string {
  if (file !== "~" && !file.startsWith("~/")) return file;
  return path.join(env.HOME ?? os.homedir(), file.slice(1));
}

/** A keys file as --keys reads one: a JSON array, {"keys": [...]}, or one key per line (# comments skipped). */
function keysOfFile(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    const keys = Array.isArray(parsed) ? parsed : isRecord(parsed) ? parsed.keys : undefined;
    if (Array.isArray(keys)) return keys.filter((k): k is string => typeof k === "string" && k.trim() !== "");
  } catch {
    // Not JSON: one key per line.
  }
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

class Resolver {
  readonly #runFile: RunFile;
  readonly #env: Env;

  constructor(runFile: RunFile, env: Env) {
    this.#runFile = runFile;
    this.#env = env;
  }

  fail(at: RunFilePath, why: string): HarnessError {
    return usage(`Failed to read the run file ${this.#runFile.where(at)}: ${why}.`);
  }

  label(at: RunFilePath): string {
    return `${this.#runFile.file} ${dotted(at)}`;
  }

  resolvePath(file: string): string {
    return path.resolve(this.#runFile.dir, expandHome(file, this.#env));
  }

  /** A setting's value as the run uses it (paths absolute, lists as lists), or exit 2 at its node. */
  value(name: RunFileSetting, raw: unknown, at: RunFilePath): unknown {
    if (typeof raw === "string" && has(RUN_FILE_PATH_SETTINGS, name)) return this.resolvePath(raw);
    if (has(RUN_FILE_INLINE_SETTINGS, name)) return raw;
    // A baseline is a saved baseline's name or a path; only a path has a / in it (or starts with ~ or .).
    if (name === "baseline" && typeof raw === "string" && /^[~.]|[/\\]/.test(raw)) return this.resolvePath(raw);
    if (name === "containerEnv" && isRecord(raw)) {
      return Object.entries(raw).map(([key, value]) => `${key}=${String(value)}`);
    }
    if (name === "webhookRefusals" && typeof raw === "string") return raw.split(",").map((m) => m.trim());
    if (name === "capacityRates") {
      try {
        return parseCapacityRates(Array.isArray(raw) ? raw.map(String).join(",") : String(raw));
      } catch (error) {
        if (!(error instanceof CapacityRatesError)) throw error;
        throw this.fail(
          at,
          `${dotted(at)} is not a list of capacity rates: ${error.reason}. Please give increasing rates in requests per second, e.g. capacityRates: [500, 1000, 2000] or "2000-3000/8"`,
        );
      }
    }
    return raw;
  }

  async secret(name: RunFileSetting, source: SecretSource, at: RunFilePath): Promise<string | string[]> {
    const what = SECRET_WHAT[name] ?? name;
    const many = name !== "controlToken";
    if (source.env !== undefined) {
      const variable = source.env;
      // Own keys only: `{ env: __proto__ }` would read Object.prototype, not a variable.
      const text = Object.hasOwn(this.#env, variable) ? this.#env[variable] : undefined;
      if (text === undefined || text.trim() === "") {
        throw this.fail(
          [...at, "env"],
          `${dotted(at)} reads the variable ${variable}, which is ${text === undefined ? "not set" : "empty"}. Please export ${variable} with ${what}, or read ${name} from a file outside the repository: { file: path }`,
        );
      }
      return many ? text.split(/[\s,]+/).filter((k) => k !== "") : text.trim();
    }
    const file = this.resolvePath(source.file ?? "");
    const fileAt = [...at, "file"];
    if (await isTrackedByGit(file)) {
      throw this.fail(
        fileAt,
        `${dotted(at)} reads ${file}, a file git tracks: ${name} in a tracked file end up in the repository's history. Please move the file outside the repository (e.g. ~/.config/atd/), or read ${name} from a variable: { env: NAME }`,
      );
    }
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (error as Error).message;
      throw this.fail(fileAt, `${dotted(at)} reads ${file}: ${why}. Please write ${what} there, or fix the path`);
    }
    if (!many) {
      if (text.trim() === "")
        throw this.fail(fileAt, `${dotted(at)} reads ${file}, which is empty. Please write ${what} there`);
      return text.trim();
    }
    const keys = keysOfFile(text);
    if (keys.length === 0) {
      throw this.fail(
        fileAt,
        `${dotted(at)} reads ${file}, which has no keys in it. Please give a JSON array of keys or one key per line`,
      );
    }
    return keys;
  }
}

/** Scenario names the file holds, each with where it is. */
function scenarioNamesOf(runFile: RunFile): { name: string; at: RunFilePath }[] {
  const { content } = runFile;
  return [
    ...(content.run?.scenarios ?? []).map((name, i) => ({ name, at: ["run", "scenarios", i] })),
    ...Object.keys(content.scenarios ?? {}).map((name) => ({ name, at: ["scenarios", name] })),
    ...Object.entries(content.environments).flatMap(([env, settings]) =>
      (Array.isArray(settings.allowedScenarios) ? (settings.allowedScenarios as unknown[]) : []).map((name, i) => ({
        name: String(name),
        at: ["environments", env, "allowedScenarios", i],
      })),
    ),
  ];
}

function chooseEnvironment(runFile: RunFile, named: string | undefined): { name: string; chosenBy: string } {
  const { content, file } = runFile;
  const names = Object.keys(content.environments);
  const list = names.join(", ");
  if (named !== undefined) {
    if (!names.includes(named)) {
      const near = closest(named, names);
      throw usage(
        `Failed to choose the environment ${named}: ${file} has no such environment (it has ${list}). Please use ${near ? `${near}, the closest,` : "one of them"} or add ${named} under environments.`,
      );
    }
    return { name: named, chosenBy: "command line" };
  }
  const fromFile = content.run?.environment;
  if (fromFile !== undefined) {
    if (!names.includes(fromFile)) {
      throw usage(
        `Failed to read the run file ${runFile.where(["run", "environment"])}: run.environment is ${fromFile}, which is not an environment of the file (it has ${list}). Please name one of them.`,
      );
    }
    return { name: fromFile, chosenBy: `${file} run.environment` };
  }
  const [only] = names;
  if (names.length === 1 && only !== undefined) return { name: only, chosenBy: `${file}'s only environment` };
  if (names.includes("local")) return { name: "local", chosenBy: "local, the default environment" };
  throw usage(
    `Failed to choose the environment: ${file} has ${list}, none named local, and no run.environment. Please name one on the command line (--env), or set run.environment.`,
  );
}

function railsOf(name: string, settings: RunFileSettings): EnvironmentRails {
  const { production, shared, allowedScenarios, ceiling } = settings;
  return {
    name,
    production: production === true,
    shared: shared === true,
    ...(Array.isArray(allowedScenarios) ? { allowedScenarios: allowedScenarios.map(String) } : {}),
    ...(typeof ceiling === "number" ? { ceilingPerKeyPerMinute: ceiling } : {}),
  };
}

/** A scenario the file names (run.scenarios, scenarios.<name>) that the harness does not have: exit 2 at its line. */
function refuseUnknownScenarios(runFile: RunFile, resolver: Resolver, known: readonly string[]): void {
  const unknown = scenarioNamesOf(runFile).find((s) => !known.includes(s.name));
  if (!unknown) return;
  const near = closest(unknown.name, known);
  throw resolver.fail(
    unknown.at,
    `${dotted(unknown.at)} is ${unknown.name}, which is not a scenario of the harness. Please use ${near ? `${near} (the closest)` : `one of: ${known.join(", ")}`}`,
  );
}

/**
 * What the run file says for one run: the environment (named, else run.environment, else the only one, else
 * local), the scenarios (named, else run.scenarios), the settings merged defaults < environment < chosen scenarios,
 * and the secrets read from their sources. Every problem is exit 2 naming the file, line and column.
 */
export async function resolveRunFile(
  runFile: RunFile,
  choice: RunFileChoice,
  env: Env = process.env,
): Promise<ResolvedRunFile> {
  const { content, file } = runFile;
  const resolver = new Resolver(runFile, env);

  if (choice.knownScenarios) refuseUnknownScenarios(runFile, resolver, choice.knownScenarios);

  const named = [...new Set(choice.scenarios)];
  const scenarios = named.length > 0 ? named : [...(content.run?.scenarios ?? [])];
  if (scenarios.length === 0) {
    throw usage(
      `Failed to choose what to run from ${file}: no scenario is named and the file has no run.scenarios. Please name a scenario or set run.scenarios.`,
    );
  }
  const environment = chooseEnvironment(runFile, choice.environment);
  const environmentSettings = content.environments[environment.name] ?? {};

  const layers: Layer[] = [
    ...(content.defaults ? [{ label: "", at: ["defaults"], settings: content.defaults }] : []),
    { label: "", at: ["environments", environment.name], settings: environmentSettings },
    ...scenarios.flatMap((scenario) => {
      const settings = content.scenarios?.[scenario];
      return settings ? [{ label: "", at: ["scenarios", scenario], settings, scenario }] : [];
    }),
  ].map((layer) => ({ ...layer, label: resolver.label(layer.at) }));

  const values: RunFileValues = {};
  const sources: Record<string, string> = {};
  const secrets = new Map<RunFileSetting, { source: SecretSource; at: RunFilePath }>();
  const setByScenario = new Map<string, { raw: unknown; value: unknown; at: RunFilePath }>();
  for (const layer of layers) {
    for (const [name, raw] of Object.entries(layer.settings)) {
      // Rails (production, shared, ...) are the environment's own, not settings of the run.
      if (!isRunFileSetting(name)) continue;
      const at = [...layer.at, name];
      sources[name] = layer.label;
      if (has(RUN_FILE_SECRET_SETTINGS, name)) {
        // Read at the end, and only the winning source: an unset variable that is overridden is no problem.
        secrets.set(name, { source: raw as SecretSource, at });
        continue;
      }
      const value = resolver.value(name, raw, at);
      if (layer.scenario !== undefined) {
        const earlier = setByScenario.get(name);
        if (earlier && !isDeepStrictEqual(earlier.value, value)) {
          throw resolver.fail(
            at,
            `${dotted(at)} is ${shown(raw)}, and ${dotted(earlier.at)} (${runFile.where(earlier.at)}) is ${shown(earlier.raw)}: the run has one ${name}. Please run these scenarios separately, or set ${name} once (in defaults or the environment)`,
          );
        }
        setByScenario.set(name, { raw, value, at });
      }
      values[name] = value;
    }
  }

  const resolved: ResolvedRunFile = {
    file,
    environment: railsOf(environment.name, environmentSettings),
    scenarios,
    values,
    sources,
    chosenBy: {
      environment: environment.chosenBy,
      scenarios: named.length > 0 ? "command line" : `${file} run.scenarios`,
    },
  };
  for (const [name, { source, at }] of secrets) {
    const secret = await resolver.secret(name, source, at);
    if (name === "keys" && Array.isArray(secret)) resolved.apiKeys = secret;
    else if (name === "alternativesKeys" && Array.isArray(secret)) resolved.alternativesKeys = secret;
    else if (name === "controlToken" && typeof secret === "string") resolved.controlToken = secret;
  }
  return resolved;
}
