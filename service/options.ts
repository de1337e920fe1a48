/**
 * The service's options: CLI flags, each also readable from env ATD_SERVICE_<UPPER_SNAKE> (flag wins over env).
 * Bad values raise OptionsError, whose message is the one line the process prints before exiting with code 2.
 */
import { parseArgs } from "node:util";
import {
  RATE_LIMIT,
  RATE_LIMIT_ALGORITHMS,
  RESERVED_BOOKING_LIFETIME_SECONDS,
  TEST_HOOK_NAMES,
  type RateLimitAlgorithm,
  type TestHookName,
} from "../lib/contract/index.ts";
import { DEFECT_NAMES, isDefectName, type DefectName } from "./defects/index.ts";
import { isVariationName, VARIATION_NAMES, type VariationName } from "./variations/index.ts";
import { parseFaults, type FaultConfig } from "./faults.ts";
import { HttpError } from "./http.ts";
import { DEFAULT_PRODUCTS, DEFAULT_SEED } from "../lib/reference/catalogue.ts";

/** `all`: every control path of the reference service; `required`: only the hooks docs/contract-gaps.md requires. */
export const HOOK_MODES = ["all", "required"] as const;
export type HookMode = (typeof HOOK_MODES)[number];

/** The seeded keys' prefix; with it the keys are atd-partner-01 .. atd-partner-40 (see service/partners.ts). */
export const DEFAULT_KEY_PREFIX = "atd-partner-";

export interface ServiceOptions {
  host: string;
  port: number;
  controlPort: number;
  controlToken: string;
  seed: number;
  products: number;
  rateLimit: number;
  rateWindowSeconds: number;
  rateAlgorithm: RateLimitAlgorithm;
  timeScale: number;
  /** Defects switched on at start (also settable at runtime through the control API). */
  defects: DefectName[];
  /**
   * Variations switched on at start (service/variations/): the contract's other legal choices, to prove the harness
   * lets a correct service that chose differently pass. Fixed for the process's life, as a real service's build is.
   */
  variations: VariationName[];
  /** Which control paths answer: `required` makes the service look like an implementation the harness never saw. */
  hooks: HookMode;
  /** Prefix of the seeded API keys; any other than the default also draws the names and features from the seed. */
  keyPrefix: string;
  /** Where to write the seeded keys at start (JSON `{keys, alternatives}`), or null for nowhere. */
  keysFile: string | null;
  /** Hooks that answer 404 as if the service lacked them: proves `harness hooks check` names a missing hook. */
  disabledHooks: TestHookName[];
  /**
   * Virtual seconds a reservation holds its seats; null: for its whole life (docs/contract-gaps.md, Booking states).
   * Shorter models a service whose holds lapse (a cart hold): the booking stays `reserved`, and its confirm needs seats
   * free again (spec 7.2's "a capacity limit reached"), so a failed confirm can be provoked through the public API
   * alone.
   */
  holdSeconds: number | null;
  /**
   * Faults set at start (the body PUT /__control/faults takes, validated by the same code), or null for none. Like
   * faults set through the hook they survive a reset; in `--hooks required` mode the flag is the only way to set them.
   */
  faults: FaultConfig | null;
  /** Seeded partners (API keys): more keys let one run's concurrent sessions each keep a key of their own. */
  partners: number;
  /** Where to append the access log (combined format, docs/service.md), or null for none. */
  accessLog: string | null;
}

export const DEFAULT_OPTIONS: Readonly<ServiceOptions> = {
  host: "127.0.0.1",
  port: 8080,
  controlPort: 8081,
  controlToken: "dev-control-token",
  seed: DEFAULT_SEED,
  products: DEFAULT_PRODUCTS,
  rateLimit: RATE_LIMIT.limit,
  rateWindowSeconds: RATE_LIMIT.windowSeconds,
  rateAlgorithm: "fixed-window",
  timeScale: 1,
  defects: [],
  variations: [],
  hooks: "all",
  keyPrefix: DEFAULT_KEY_PREFIX,
  keysFile: null,
  disabledHooks: [],
  holdSeconds: null,
  faults: null,
  partners: 40,
  accessLog: null,
};

export const MAX_PRODUCTS = 100_000;
/** Seeded partners at most: each is a Map entry and a line of the keys file, cheap, but a bound all the same. */
export const MAX_PARTNERS = 10_000;

/** A bad option: `what` is wrong, `fix` says what to change. */
export class OptionsError extends Error {
  readonly what: string;
  readonly fix: string;
  constructor(what: string, fix: string) {
    super(`Failed to start the service: ${what}. Please ${fix}.`);
    this.name = "OptionsError";
    this.what = what;
    this.fix = fix;
  }
}

const FLAGS = {
  host: "host",
  port: "port",
  controlPort: "control-port",
  controlToken: "control-token",
  seed: "seed",
  products: "products",
  rateLimit: "rate-limit",
  rateWindowSeconds: "rate-window-seconds",
  rateAlgorithm: "rate-algorithm",
  timeScale: "time-scale",
  defects: "defects",
  variations: "variations",
  hooks: "hooks",
  keyPrefix: "key-prefix",
  keysFile: "keys-file",
  disabledHooks: "disable-hook",
  holdSeconds: "hold-seconds",
  faults: "faults",
  partners: "partners",
  accessLog: "access-log",
} as const satisfies Record<keyof ServiceOptions, string>;

type OptionKey = keyof typeof FLAGS;

function envName(flag: string): string {
  return `ATD_SERVICE_${flag.toUpperCase().replace(/-/g, "_")}`;
}

function integer(flag: string, raw: string, min: number, max: number, example: string): number {
  const value = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new OptionsError(
      `--${flag} must be an integer from ${min} to ${max}, got "${raw}"`,
      `pass --${flag} ${example} (or set ${envName(flag)})`,
    );
  }
  return value;
}

function positiveNumber(flag: string, raw: string, max: number, example: string): number {
  const value = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isFinite(value) || value <= 0 || value > max) {
    throw new OptionsError(
      `--${flag} must be a number above 0 and at most ${max}, got "${raw}"`,
      `pass --${flag} ${example} (or set ${envName(flag)})`,
    );
  }
  return value;
}

function nonEmpty(flag: string, raw: string, example: string): string {
  if (raw.trim() === "") {
    throw new OptionsError(`--${flag} must not be empty`, `pass --${flag} ${example} (or set ${envName(flag)})`);
  }
  return raw.trim();
}

const FAULTS_EXAMPLE = `'{"routes":{"priceListDate":{"latencyMs":20,"latencyFactor":1.2}}}'`;

/** --faults: JSON text of the PUT /__control/faults body, checked by that route's own validator. */
function faultsOption(raw: string): FaultConfig {
  const fix = `pass --${FLAGS.faults} ${FAULTS_EXAMPLE} (or set ${envName(FLAGS.faults)})`;
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new OptionsError(`--${FLAGS.faults} is not valid JSON (${reason})`, fix);
  }
  try {
    return parseFaults(body);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    throw new OptionsError(`--${FLAGS.faults} is not a valid faults body: ${error.message.replace(/\.$/, "")}`, fix);
  }
}

/** `--variations all` or comma-separated names. */
function variationsOption(raw: string): VariationName[] {
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (names.length === 1 && names[0] === "all") return [...VARIATION_NAMES];
  for (const name of names) {
    if (!isVariationName(name)) {
      throw new OptionsError(
        `--${FLAGS.variations} names an unknown variation "${name}"`,
        `use all, or comma-separated names from: ${VARIATION_NAMES.join(", ")}`,
      );
    }
  }
  return names as VariationName[];
}

/** `--disable-hook a,b`: names of TEST_HOOKS. */
function disabledHooksOption(raw: string): TestHookName[] {
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = names.find((n) => !(TEST_HOOK_NAMES as readonly string[]).includes(n));
  if (unknown !== undefined) {
    throw new OptionsError(
      `--disable-hook names an unknown hook "${unknown}"`,
      `use comma-separated names from: ${TEST_HOOK_NAMES.join(", ")}`,
    );
  }
  return names as TestHookName[];
}

/** Turns raw string values (already merged from env and flags) into validated options. */
export function resolveOptions(raw: Partial<Record<OptionKey, string>>): ServiceOptions {
  const o: ServiceOptions = { ...DEFAULT_OPTIONS, defects: [], variations: [] };
  if (raw.host !== undefined) o.host = nonEmpty(FLAGS.host, raw.host, "127.0.0.1");
  if (raw.port !== undefined) o.port = integer(FLAGS.port, raw.port, 0, 65535, "8080 (0 picks a free port)");
  if (raw.controlPort !== undefined) {
    o.controlPort = integer(FLAGS.controlPort, raw.controlPort, 0, 65535, "8081 (0 picks a free port)");
  }
  if (raw.controlToken !== undefined) o.controlToken = nonEmpty(FLAGS.controlToken, raw.controlToken, "a-secret");
  if (raw.seed !== undefined) o.seed = integer(FLAGS.seed, raw.seed, 0, 2 ** 32 - 1, "42");
  if (raw.products !== undefined) o.products = integer(FLAGS.products, raw.products, 1, MAX_PRODUCTS, "200");
  if (raw.rateLimit !== undefined) o.rateLimit = integer(FLAGS.rateLimit, raw.rateLimit, 1, 1_000_000, "400");
  if (raw.rateWindowSeconds !== undefined) {
    o.rateWindowSeconds = integer(FLAGS.rateWindowSeconds, raw.rateWindowSeconds, 1, 86_400, "60");
  }
  if (raw.rateAlgorithm !== undefined) {
    const value = raw.rateAlgorithm.trim();
    if (!(RATE_LIMIT_ALGORITHMS as readonly string[]).includes(value)) {
      throw new OptionsError(
        `--rate-algorithm must be one of ${RATE_LIMIT_ALGORITHMS.join(", ")}, got "${raw.rateAlgorithm}"`,
        `pass --rate-algorithm fixed-window (or set ${envName(FLAGS.rateAlgorithm)})`,
      );
    }
    o.rateAlgorithm = value as RateLimitAlgorithm;
  }
  if (raw.holdSeconds !== undefined && raw.holdSeconds.trim() !== "") {
    o.holdSeconds = integer(FLAGS.holdSeconds, raw.holdSeconds, 0, RESERVED_BOOKING_LIFETIME_SECONDS, "900");
  }
  if (raw.timeScale !== undefined) o.timeScale = positiveNumber(FLAGS.timeScale, raw.timeScale, 1_000_000, "1");
  if (raw.defects !== undefined && raw.defects.trim() !== "") {
    for (const name of raw.defects.split(",").map((s) => s.trim())) {
      if (name === "") continue;
      if (!isDefectName(name)) {
        throw new OptionsError(
          `--defects names an unknown defect "${name}"`,
          `use comma-separated names from: ${DEFECT_NAMES.join(", ")}`,
        );
      }
      o.defects.push(name);
    }
  }
  if (raw.variations !== undefined && raw.variations.trim() !== "") o.variations = variationsOption(raw.variations);
  if (raw.hooks !== undefined) {
    const value = raw.hooks.trim();
    if (!(HOOK_MODES as readonly string[]).includes(value)) {
      throw new OptionsError(
        `--hooks must be one of ${HOOK_MODES.join(", ")}, got "${raw.hooks}"`,
        `pass --hooks required (or set ${envName(FLAGS.hooks)})`,
      );
    }
    o.hooks = value as HookMode;
  }
  if (raw.keyPrefix !== undefined) {
    // A key is 4-128 characters of [A-Za-z0-9_.-] (PUT /__control/partners/{apiKey}); the suffix adds 8.
    if (!/^[\w.-]{1,100}$/.test(raw.keyPrefix)) {
      throw new OptionsError(
        `--key-prefix must be 1 to 100 characters of A-Z a-z 0-9 _ . -, got "${raw.keyPrefix}"`,
        `pass --key-prefix other- (or set ${envName(FLAGS.keyPrefix)})`,
      );
    }
    o.keyPrefix = raw.keyPrefix;
  }
  if (raw.keysFile !== undefined) o.keysFile = nonEmpty(FLAGS.keysFile, raw.keysFile, "/tmp/keys.json");
  if (raw.disabledHooks !== undefined) o.disabledHooks = disabledHooksOption(raw.disabledHooks);
  if (raw.faults !== undefined && raw.faults.trim() !== "") o.faults = faultsOption(raw.faults);
  if (raw.partners !== undefined) o.partners = integer(FLAGS.partners, raw.partners, 1, MAX_PARTNERS, "400");
  if (raw.accessLog !== undefined) o.accessLog = nonEmpty(FLAGS.accessLog, raw.accessLog, "/tmp/access.log");
  return o;
}

/** Parses argv (without node and script) and env into options; throws OptionsError on anything wrong. */
export function parseServiceArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>) {
  const options = Object.fromEntries(Object.values(FLAGS).map((flag) => [flag, { type: "string" as const }])) as Record<
    string,
    { type: "string" }
  >;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }));
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new OptionsError(
      `the command line is not understood (${message})`,
      `use only --${Object.values(FLAGS).join(", --")}, each followed by a value`,
    );
  }
  const raw: Partial<Record<OptionKey, string>> = {};
  for (const [key, flag] of Object.entries(FLAGS) as [OptionKey, string][]) {
    const fromFlag = values[flag];
    const fromEnv = env[envName(flag)];
    if (typeof fromFlag === "string") raw[key] = fromFlag;
    else if (fromEnv !== undefined && fromEnv !== "") raw[key] = fromEnv;
  }
  return resolveOptions(raw);
}

/**
 * What is wrong with these start flags and what to do, or undefined when they are good: parseServiceArgs for a
 * caller that only checks them (the harness, before it starts the service or its container).
 */
export function serviceArgsProblem(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { what: string; fix: string } | undefined {
  try {
    parseServiceArgs(argv, env);
    return undefined;
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    return { what: error.what, fix: error.fix };
  }
}
