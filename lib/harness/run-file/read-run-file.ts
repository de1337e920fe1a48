/**
 * Reads a run file (harness.yaml, YAML or JSON) and checks it against the run file's schema. Every problem is exit 2
 * naming the file, line and column of the node at fault, so a typo deep in an environment is found at once.
 */
import { readFile } from "node:fs/promises";
import nodePath from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, type Document } from "yaml";
import { isRecord } from "../../contract/index.ts";
import { compiledOnFirstUse } from "../compiled-on-first-use.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { FileTextError, yamlDocumentData } from "../parse-file-text.ts";
import { closest, dotted, type RunFilePath } from "./run-file-names.ts";
import type { RunFile, RunFileContent } from "./run-file.ts";
import {
  RUN_FILE_RAILS,
  RUN_FILE_SECRET_SETTINGS,
  RUN_FILE_SETTINGS,
  RUN_FILE_TARGET_SETTINGS,
  isRunFileRail,
  isRunFileSetting,
  runFileSchema,
  settingHelp,
} from "./run-file-schema.ts";

export type { RunFilePath } from "./run-file-names.ts";

const validator = compiledOnFirstUse(() =>
  new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(runFileSchema()),
);

function usage(message: string): HarnessError {
  return new HarnessError(message, EXIT.usage);
}

/** Where things are in the file: the node of a path, or of its key. */
class Positions {
  readonly #doc: Document;
  readonly #lines: LineCounter;
  readonly #file: string;

  constructor(doc: Document, lines: LineCounter, file: string) {
    this.#doc = doc;
    this.#lines = lines;
    this.#file = file;
  }

  at(offset: number): string {
    const { line, col } = this.#lines.linePos(offset);
    return `${this.#file}:${String(line)}:${String(col)}`;
  }

  /** The value's node when it is written, else its key, else the nearest ancestor's; keyOf: the key's own node. */
  where(path: RunFilePath, keyOf = false): string {
    for (let depth = path.length; depth >= 0; depth -= 1) {
      const offset = this.#offsetOf(path.slice(0, depth), keyOf && depth === path.length);
      if (offset !== undefined) return this.at(offset);
    }
    return `${this.#file}:1:1`;
  }

  #offsetOf(path: RunFilePath, keyOf: boolean): number | undefined {
    let node: unknown = this.#doc.contents;
    let key: unknown;
    for (const step of path) {
      if (isMap(node)) {
        // By String: a key such as 2024 is a number in YAML and a string in the data ajv saw.
        const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(step));
        if (!pair) return undefined;
        key = pair.key;
        node = pair.value;
      } else if (isSeq(node) && typeof step === "number") {
        key = undefined;
        node = node.items[step];
      } else {
        return undefined;
      }
    }
    // An empty value (`ceiling:`) has no place of its own worth pointing at: its key is.
    const empty = !isNode(node) || (isScalar(node) && node.value === null);
    const target = keyOf || empty ? key : node;
    return isNode(target) ? target.range?.[0] : undefined;
  }
}

const isSecret = (name: string): boolean => (RUN_FILE_SECRET_SETTINGS as readonly string[]).includes(name);

const TOP_KEYS = ["$schema", "version", "run", "defaults", "environments", "scenarios"];
const SECRET_KEYS = ["env", "file"];

/** What a mapping of the file is, by its path: it decides which keys the mapping allows. */
type Part = "top" | "run" | "defaults" | "environment" | "scenario" | "secret" | "other";

function partOf(path: RunFilePath): Part {
  const [first, second, third, fourth] = path;
  if (path.length === 0) return "top";
  if (first === "run" && path.length === 1) return "run";
  if (first === "defaults" && path.length === 1) return "defaults";
  if ((first === "environments" || first === "scenarios") && path.length === 2) {
    return first === "environments" ? "environment" : "scenario";
  }
  const setting = first === "defaults" ? second : third;
  const under = first === "defaults" ? third : fourth;
  return typeof setting === "string" && isSecret(setting) && under === undefined && path.length >= 2
    ? "secret"
    : "other";
}

/** The path of the setting (or rail) a node belongs to, and that setting's name. */
function settingOf(path: RunFilePath): { name: string; at: RunFilePath } | undefined {
  const index = path[0] === "defaults" ? 1 : path[0] === "environments" || path[0] === "scenarios" ? 2 : -1;
  const name = index < 0 ? undefined : path[index];
  if (typeof name !== "string" || !(isRunFileSetting(name) || isRunFileRail(name))) return undefined;
  return { name, at: path.slice(0, index + 1) };
}

function exampleOf(name: string, example: unknown): string {
  if (typeof example === "string") return `${name}: ${/^[\w./:-]+$/.test(example) ? example : JSON.stringify(example)}`;
  if (Array.isArray(example)) return `${name}: [${example.map((e) => String(e)).join(", ")}]`;
  if (isRecord(example)) {
    return `${name}: { ${Object.entries(example)
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join(", ")} }`;
  }
  return `${name}: ${String(example)}`;
}

function literalSecret(name: string): string {
  return `${name} is written literally. Please keep ${name} out of the file: { env: NAME } or { file: path outside the repository }`;
}

/** The message of an unknown key: where it belongs when it is known elsewhere, else the closest or every key. */
function unknownKey(parentPath: RunFilePath, key: string): string {
  const part = partOf(parentPath);
  const here = parentPath.length === 0 ? "the file" : dotted(parentPath);
  const named = `${here} has no key "${key}"`;
  if (part === "scenario" && (RUN_FILE_TARGET_SETTINGS as readonly string[]).includes(key)) {
    return `${dotted([...parentPath, key])} describes the target, which a scenario cannot change. Please move it to the environment it belongs to (environments.<name>.${key}) or to defaults`;
  }
  if ((part === "scenario" || part === "defaults") && isRunFileRail(key)) {
    return `${dotted([...parentPath, key])} is a rail of an environment. Please move it under the environment it guards (environments.<name>.${key})`;
  }
  if (part === "top" && (isRunFileSetting(key) || isRunFileRail(key))) {
    return `${named}: ${key} is a setting. Please move it under defaults (every run) or under an environment`;
  }
  const allowed: readonly string[] =
    part === "top"
      ? TOP_KEYS
      : part === "run"
        ? ["scenarios", "environment"]
        : part === "secret"
          ? SECRET_KEYS
          : part === "environment"
            ? [...RUN_FILE_SETTINGS, ...RUN_FILE_RAILS]
            : part === "scenario"
              ? RUN_FILE_SETTINGS.filter((s) => !(RUN_FILE_TARGET_SETTINGS as readonly string[]).includes(s))
              : RUN_FILE_SETTINGS;
  const near = closest(key, allowed);
  return near
    ? `${named}. Please use ${near} (the closest key it has)`
    : `${named}. Please use one of: ${allowed.join(", ")}`;
}

/** One ajv error as "<path> must be <what>. Please <fix>", and the path of the node it is about. */
function explain(error: ErrorObject, data: unknown): { message: string; path: RunFilePath; keyOf: boolean } {
  const path = pathOf(error.instancePath, data);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    const key = params.additionalProperty;
    return { message: unknownKey(path, key), path: [...path, key], keyOf: true };
  }
  if (typeof error.propertyName === "string" || error.keyword === "propertyNames") {
    const name = typeof error.propertyName === "string" ? error.propertyName : String(params.propertyName);
    const what =
      path.at(-1) === "containerEnv" || path.at(-2) === "containerEnv"
        ? "a variable name of letters, digits and _"
        : "a name of letters, digits, ., _ and - (starting with a letter or digit)";
    return {
      message: `${dotted(path)} has the name "${name}", which is not ${what}. Please rename it`,
      path: [...path, name],
      keyOf: true,
    };
  }
  if (error.keyword === "required" && typeof params.missingProperty === "string") {
    const missing = params.missingProperty;
    const fix =
      missing === "environments"
        ? "add at least one environment, e.g. environments: { local: { target: embedded } }"
        : `add ${missing}`;
    return { message: `${missing} is missing. Please ${fix}`, path, keyOf: false };
  }
  if (error.keyword === "minProperties" && path.length === 1 && path[0] === "environments") {
    return {
      message: "environments has none. Please add at least one, e.g. environments: { local: { target: embedded } }",
      path,
      keyOf: false,
    };
  }
  const label = path.length === 0 ? "the file" : dotted(path);
  if (path.length === 0) {
    return {
      message: `the file must be a mapping of ${TOP_KEYS.slice(1).join(", ")}. Please start from the file harness init writes`,
      path,
      keyOf: false,
    };
  }
  const setting = settingOf(path);
  if (setting) {
    const { what, example } = settingHelp(setting.name as Parameters<typeof settingHelp>[0]);
    const value = valueAt(data, setting.at);
    if (isSecret(setting.name) && !isRecord(value)) {
      return { message: literalSecret(setting.name), path: setting.at, keyOf: false };
    }
    return {
      message: `${dotted(setting.at)} must be ${what}. Please write it as e.g. ${exampleOf(setting.name, example)}`,
      path,
      keyOf: false,
    };
  }
  const [first] = path;
  const generic: Record<string, string> = {
    run: "a mapping of scenarios (a list of scenario names) and environment (a name). Please write it as e.g. run: { scenarios: [partner-mix], environment: local }",
    environments:
      "a mapping of environment names to their settings. Please write it as e.g. environments: { local: { target: embedded } }",
    scenarios:
      "a mapping of scenario names to their settings. Please write it as e.g. scenarios: { partner-mix: { profile: average } }",
    defaults: "a mapping of settings. Please write it as e.g. defaults: { profile: smoke }",
    $schema: "a string. Please give the schema's path or URL",
  };
  const what = typeof first === "string" ? generic[first] : undefined;
  const detail = error.message ?? "is not valid";
  return {
    message: what ? `${label} must be ${what}` : `${label} ${detail}. Please fix it (docs/harness.schema.json)`,
    path,
    keyOf: false,
  };
}

/** An ajv instancePath as keys and indexes: a segment of digits is an index only where the value is a list. */
function pathOf(instancePath: string, data: unknown): RunFilePath {
  const path: (string | number)[] = [];
  let value = data;
  for (const raw of instancePath.split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(value)) {
      path.push(Number(segment));
      value = value[Number(segment)] as unknown;
    } else {
      path.push(segment);
      value = isRecord(value) ? value[segment] : undefined;
    }
  }
  return path;
}

function valueAt(data: unknown, path: RunFilePath): unknown {
  let value = data;
  for (const key of path) {
    if (Array.isArray(value)) value = value[Number(key)] as unknown;
    else if (isRecord(value)) value = value[String(key)];
    else return undefined;
  }
  return value;
}

function readError(file: string, error: unknown): HarnessError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "ENOENT"
      ? "no such file"
      : code === "EISDIR"
        ? "it is a folder"
        : code === "EACCES"
          ? "permission denied"
          : (error as Error).message;
  const fix =
    code === "ENOENT"
      ? "give the path of a run file, or write one with harness init"
      : "give a readable YAML or JSON file";
  return usage(`Failed to read the run file ${file}: ${why}. Please ${fix}.`);
}

/** Reads and checks a run file; exit 2 with the file, line and column of the first problem in it. */
export async function readRunFile(file: string): Promise<RunFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw readError(file, error);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, merge: true, uniqueKeys: true });
  const positions = new Positions(doc, lines, file);
  const fail = (where: string, why: string) => usage(`Failed to read the run file ${where}: ${why}.`);
  const [syntax] = doc.errors;
  if (syntax) {
    if (syntax.code === "MULTIPLE_DOCS") {
      throw fail(positions.at(syntax.pos[0]), "it holds more than one YAML document. Please keep one (drop the ---)");
    }
    const why = syntax.message.split("\n")[0] ?? syntax.code;
    throw fail(positions.at(syntax.pos[0]), `it is not valid YAML or JSON (${why}). Please fix the syntax there`);
  }
  let data: unknown;
  try {
    data = yamlDocumentData(doc, lines, file);
  } catch (error) {
    if (!(error instanceof FileTextError)) throw error;
    throw fail(
      error.where,
      `the YAML library refused it (${error.reason}). Please write the values out instead of through aliases`,
    );
  }
  if (data === null || data === undefined) {
    throw fail(file, "the file is empty. Please write one with harness init, or start it with version: 1");
  }
  if (isRecord(data) && !("version" in data)) {
    throw fail(positions.where([]), "version is missing. Please start the file with version: 1");
  }
  if (isRecord(data) && data.version !== 1) {
    throw fail(
      positions.where(["version"]),
      `version is ${data.version === null ? "empty" : JSON.stringify(data.version)}, and this harness reads version 1 only. Please write version: 1 (and the file in that version's shape, docs/harness.schema.json)`,
    );
  }
  const validate = validator();
  if (!validate(data)) {
    // The first problem in the file's order: the one a person reading from the top meets first.
    const problems = (validate.errors ?? []).map((error) => {
      const explained = explain(error, data);
      return { ...explained, where: positions.where(explained.path, explained.keyOf) };
    });
    const order = (where: string) => where.split(":").slice(-2).map(Number) as [number, number];
    problems.sort((a, b) => {
      const [la, ca] = order(a.where);
      const [lb, cb] = order(b.where);
      return la - lb || ca - cb;
    });
    const first = problems[0];
    if (first) throw fail(first.where, first.message);
  }
  const content = data as unknown as RunFileContent;
  return {
    file,
    dir: nodePath.dirname(nodePath.resolve(file)),
    content,
    where: (path) => positions.where(path),
  };
}
