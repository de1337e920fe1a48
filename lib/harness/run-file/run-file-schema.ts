/**
 * The settings table of `harness run` (and of the run file, harness.yaml): each setting declared once, in the manner
 * of k6's Config, with every facet of it: its flag (the key in kebab-case), its help, its HARNESS_* environment mirror,
 * its parser and default (the `cli` facet), its run-file type and place (defaults, environment, or also a scenario
 * unless it describes the target), whether it is a path or a secret, and its help for editors. From it are derived:
 * the commander options of `harness run` and the shared ones of `harness k8s` (scripts/setting-options.ts), the
 * `RunFlags` type of the parsed flags, the run file's vocabulary and its JSON Schema, published as
 * docs/harness.schema.json (scripts/run-file-schema.ts). Layering (flag > HARNESS_* > run file > default) is done once,
 * by commander's value sources and scripts/run-file-options.ts.
 */
import { PROFILES } from "../../contract/profiles.ts";
import {
  DEFAULT_RATE_MULTIPLIER,
  DEFAULT_TIME_COMPRESSION,
  MAX_RATE_MULTIPLIER,
  MAX_TIME_COMPRESSION,
} from "../../contract/arrival-curve.ts";
import { RATE_LIMIT_ALGORITHMS } from "../../contract/index.ts";
import { MAX_CHURN_RATE } from "../churn/config.ts";
import { DEFAULT_BASELINES_DIR } from "../compare/baselines-dir.ts";
import { REPORTS_DIR } from "../paths.ts";
import { MAX_RUN_SECONDS } from "../settings/setting-limits.ts";
import { MAX_SEGMENTS } from "../segments/segment-keys.ts";
import {
  capacityRates,
  cpus,
  integerFrom,
  nonNegativeUpTo,
  positiveUpTo,
  pushGroup,
  REFUSAL_MODES,
  refusals,
  share as shareOf,
} from "../settings/value-parsers.ts";
import type { RefusalMode } from "../webhooks/misbehaviour.ts";

type Json = Record<string, unknown>;

/** How the reader and the resolver treat a setting beyond its type. */
type SettingKind =
  | "plain"
  /** A path, resolved against the run file's folder. */
  | "path"
  /** A path (resolved against the run file's folder) or the file's content written inline. */
  | "pathOrInline"
  /** A secret: only where to read it, { env: NAME } or { file: path }, never the secret itself. */
  | "secret";

interface SettingSpec {
  /** JSON Schema of the value as written in the run file. */
  readonly schema: Json;
  /** What the value must be, for error messages: "<path> must be <what>". */
  readonly what: string;
  /** One valid value, shown in error messages and offered by editors. */
  readonly example: unknown;
  /** Describes the target (where and how the service runs): not allowed under a scenario. */
  readonly target?: true;
  readonly kind?: SettingKind;
  readonly description: string;
}

/**
 * A setting on the command line: its flag is `--<the key in kebab-case> <arg>` (a switch has no arg), its environment
 * mirror HARNESS_<THE_KEY> unless `env` names another or is false. Choices come from the run-file schema's enum.
 */
export interface CliSpec {
  /** The value's placeholder in --help; none: a switch (true when given). */
  readonly arg?: string;
  readonly help: string;
  /** The value as the flag gives it, parsed and checked (commander's InvalidArgumentError: exit 2). */
  readonly parse?: (value: string, previous: never) => unknown;
  readonly default?: unknown;
  /** How --help shows the default, when not the value itself. */
  readonly defaultText?: string;
  /**
   * The HARNESS_* variable when not derived from the key; false: none. A switch has one only when named here, read as
   * 1/true/yes/on or anything else off (switchFromEnv), never by commander (which takes any value as on).
   */
  readonly env?: string | false;
  /** A switch's --no-<key> form and its help. */
  readonly negate?: string;
}

/** A setting's spec with its command-line facet. */
const on = <const S extends SettingSpec, const C extends CliSpec>(spec: S, cli: C): S & { readonly cli: C } => ({
  ...spec,
  cli,
});

/** --seed: the reference service's seed range (service/options.ts). */
const MAX_SEED = 2 ** 32 - 1;
/** --time-scale: the reference service's own bound (service/options.ts). */
const MAX_TIME_SCALE = 1_000_000;
/** The longest the harness waits for something it was told to wait for (--webhook-registration-wait). */
const MAX_WAIT_SECONDS = 3600;
const TARGET_KINDS = ["embedded", "container", "compose", "url"] as const;
const PROFILE_NAMES = Object.keys(PROFILES);

const URL_PATTERN = "^https?://[^/\\s]+";
const DURATION_PATTERN = "^(\\d+(\\.\\d+)?(ms|s|m|h))+$";
const ENV_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";

const url = (description: string, example: string): SettingSpec => ({
  schema: { type: "string", pattern: URL_PATTERN },
  what: "an http(s) URL",
  example,
  description,
});
const text = (description: string, example: string): SettingSpec => ({
  schema: { type: "string", minLength: 1 },
  what: "a non-empty string",
  example,
  description,
});
const flag = (description: string): SettingSpec => ({
  schema: { type: "boolean" },
  what: "true or false",
  example: true,
  description,
});
const path = (description: string, example: string): SettingSpec => ({
  schema: { type: "string", minLength: 1 },
  what: "a path (relative to the run file's folder)",
  example,
  kind: "path",
  description,
});
const pathOrInline = (description: string, example: string): SettingSpec => ({
  schema: { type: ["string", "object"], minLength: 1 },
  what: "a path (relative to the run file's folder) or the file's content written inline as a mapping",
  example,
  kind: "pathOrInline",
  description,
});
/** Written out in each secret (no $ref): draft-07 ignores the description beside a $ref, and editors show it. */
const SECRET_SOURCE = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  properties: {
    env: { description: "the environment variable that holds it", type: "string", pattern: ENV_NAME_PATTERN },
    file: { description: "a file outside the repository (~ is the home folder)", type: "string", minLength: 1 },
  },
} as const;

const secret = (description: string, example: string): SettingSpec => ({
  schema: SECRET_SOURCE,
  what: "{ env: NAME } (a variable) or { file: path } (a file outside the repository)",
  example: { env: example },
  kind: "secret",
  description,
});
const port = (description: string): SettingSpec => ({
  schema: { type: "integer", minimum: 1, maximum: 65535 },
  what: "a TCP port, a whole number from 1 to 65535",
  example: 8080,
  target: true,
  description,
});
const cores = (description: string): SettingSpec => ({
  schema: { type: "number", minimum: 0.01, maximum: 1024 },
  what: "a number of CPU cores, at least 0.01",
  example: 0.5,
  description,
});
const positive = (description: string, example: number): SettingSpec => ({
  schema: { type: "number", exclusiveMinimum: 0 },
  what: "a number above 0",
  example,
  description,
});
const share = (description: string, example: number): SettingSpec => ({
  schema: { type: "number", minimum: 0, maximum: 1 },
  what: "a share from 0 to 1",
  example,
  description,
});
const duration = (description: string, example: string): SettingSpec => ({
  schema: { type: "string", pattern: DURATION_PATTERN },
  what: "a k6 duration such as 30s, 5m or 1h30m",
  example,
  description,
});
const oneOf = <const V extends readonly string[]>(
  values: V,
  description: string,
): SettingSpec & { readonly choices: V } => ({
  choices: values,
  schema: { type: "string", enum: [...values] },
  what: `one of ${values.join(", ")}`,
  example: values[0],
  description,
});
const targetSetting = <S extends SettingSpec>(spec: S): S => ({ ...spec, target: true });

/** Every setting of `harness run`, in the order of its --help: the long flag's name in camelCase. */
const SETTINGS = {
  target: on(targetSetting(oneOf(TARGET_KINDS, "what to test (--target)")), {
    arg: "kind",
    help: "what to test",
    default: "embedded",
  }),
  baseUrl: on(targetSetting(url("the API's base URL, target url (--base-url)", "https://demo.example.com")), {
    arg: "url",
    help: "the API's base URL (target url)",
  }),
  controlUrl: on(
    targetSetting(url("the control API's URL, when the deployment has one (--control-url)", "http://127.0.0.1:8081")),
    { arg: "url", help: "the control API's URL, when the deployment has one" },
  ),
  controlToken: on(
    targetSetting(
      secret(
        "where to read the control API's token: the variable, or the whole file trimmed (--control-token)",
        "ATD_CONTROL_TOKEN",
      ),
    ),
    { arg: "token", help: "the control API's token" },
  ),
  keys: on(
    targetSetting(
      secret(
        "where to read the API keys: a variable of comma, space or newline separated keys, or a file outside the repository as --keys reads it (a JSON array or one key per line)",
        "ATD_KEYS",
      ),
    ),
    { arg: "file", help: "API keys to spread traffic over (JSON array or one per line)" },
  ),
  image: on(
    targetSetting(text("target container: the image to test (--image)", "registry.example/partner-api:rc-42")),
    {
      arg: "ref",
      help: "target container: the image to test (default: the reference service's, built offline)",
    },
  ),
  port: on(port("target container/compose: the port the API listens on (--port)"), {
    arg: "port",
    help: "target container/compose: the port the API listens on (host networking)",
  }),
  controlPort: on(port("target container/compose: the port its test hooks listen on (--control-port)"), {
    arg: "port",
    help: "target container/compose: the port its test hooks listen on",
  }),
  containerEnv: on(
    {
      schema: {
        type: ["array", "object"],
        items: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*=" },
        propertyNames: { pattern: ENV_NAME_PATTERN },
        additionalProperties: { type: ["string", "number", "boolean"] },
      },
      what: "a list of KEY=VALUE strings or a mapping of KEY: VALUE",
      example: { LOG_LEVEL: "debug" },
      target: true,
      description:
        "target container: variables of the container; compose: variables the compose file is read with (--container-env)",
    },
    {
      arg: "KEY=VALUE",
      help: "target container: a variable of the container; compose: a variable the compose file is read with (repeatable)",
      parse: (value: string, previous: string[]) => [...previous, value],
      default: [] as string[],
      defaultText: "none",
      env: false,
    },
  ),
  containerEnvFile: on(
    targetSetting(
      path(
        "target container: KEY=VALUE lines (docker run --env-file); compose: its --env-file (--container-env-file)",
        "test.env",
      ),
    ),
    { arg: "file", help: "target container: KEY=VALUE lines (docker run --env-file); compose: its --env-file" },
  ),
  waitHttp: on(
    targetSetting({
      schema: { type: "string", pattern: "^/\\S*?(:\\d{3})?$" },
      what: "<path>[:status] with a path that starts with /, e.g. /health or /v2/config:401",
      example: "/health:200",
      description: "target container/compose: ready when the API port answers this path (--wait-http)",
    }),
    { arg: "path[:status]", help: "target container/compose: ready when the API port answers this path" },
  ),
  waitLog: on(
    targetSetting(
      text(
        "target container/compose: ready when the API's output has a line matching this regular expression (--wait-log)",
        "listening on",
      ),
    ),
    { arg: "regex", help: "target container/compose: ready when the API's output has a matching line" },
  ),
  startupTimeout: on(
    targetSetting(duration("target container/compose: time to become ready, default 60s (--startup-timeout)", "90s")),
    { arg: "duration", help: "target container/compose: time to become ready (default 60s)" },
  ),
  cpus: on(targetSetting(cores("target container: Docker's --cpus (--cpus)")), {
    arg: "cores",
    help: "target container: Docker's --cpus (the same budget as --service-cpus)",
    parse: cpus,
  }),
  memory: on(
    targetSetting({
      schema: { type: "string", pattern: "^\\d+(\\.\\d+)?[bkmgBKMG]?$" },
      what: "a memory size as Docker writes it, e.g. 512m or 2g",
      example: "512m",
      description: "target container: Docker's --memory (--memory)",
    }),
    { arg: "size", help: "target container: Docker's --memory, e.g. 512m" },
  ),
  composeFile: on(
    targetSetting(path("target compose: the stack's docker-compose file (--compose-file)", "docker-compose.yml")),
    { arg: "file", help: "target compose: the stack's docker-compose file" },
  ),
  service: on(targetSetting(text("target compose: the service that serves the API on port (--service)", "api")), {
    arg: "name",
    help: "target compose: the service that serves the API on --port",
  }),
  controlService: on(
    targetSetting(
      text("target compose: the service whose controlPort serves the test hooks (--control-service)", "api"),
    ),
    {
      arg: "name",
      help: "target compose: the service whose --control-port serves the test hooks (default: --service)",
    },
  ),
  profile: on(oneOf(PROFILE_NAMES, "load profile (--profile)"), {
    arg: "name",
    help: "load profile",
    default: "smoke",
  }),
  duration: on(duration("overrides the profile's steady stage (--duration)", "5m"), {
    arg: "duration",
    help: "overrides the profile's steady stage, e.g. 30s",
  }),
  slo: on(pathOrInline("SLO override: a JSON file, or the override inline (--slo)", "slo.json"), {
    arg: "file",
    help: "JSON file overriding the SLO table",
  }),
  out: on(path("where run directories go (--out)", "reports"), {
    arg: "dir",
    help: "where run directories go",
    default: REPORTS_DIR,
  }),
  seed: on(
    {
      schema: { type: "integer", minimum: 0 },
      what: "a whole number",
      example: 42,
      description: "catalogue seed of the embedded service (--seed)",
    },
    { arg: "n", help: "catalogue seed of the embedded service", parse: integerFrom(0, MAX_SEED) },
  ),
  serviceArgs: on(
    text('extra flags for the embedded service, e.g. "--rate-limit 50" (--service-args)', "--rate-limit 50"),
    { arg: "args", help: 'extra flags for the embedded service, e.g. "--rate-limit 50"' },
  ),
  serviceCpus: on(cores("CPU budget of the embedded service (a cgroup) or the container (--service-cpus)"), {
    arg: "cores",
    help: "CPU budget of the embedded service (a cgroup) or the container (Docker --cpus), e.g. 0.25",
    parse: cpus,
  }),
  traffic: on(pathOrInline("traffic model override: a JSON file, or the override inline (--traffic)", "traffic.json"), {
    arg: "file",
    help: "JSON file overriding the traffic model",
  }),
  webhooks: on(flag("run the webhook sink beside k6 (--webhooks, false: --no-webhooks)"), {
    help: "run the webhook sink beside k6 (HARNESS_WEBHOOKS=1; default for soak, always on for webhooks)",
    negate: "no webhook sink, also for the soak (HARNESS_WEBHOOKS=0)",
    env: "HARNESS_WEBHOOKS",
  }),
  webhookListen: on(
    {
      schema: { type: "string", pattern: "^\\S+:\\d{1,5}$" },
      what: "host:port, e.g. 127.0.0.1:0",
      example: "127.0.0.1:0",
      description: "where the webhook sink listens (--webhook-listen)",
    },
    { arg: "host:port", help: "where the webhook sink listens", default: "127.0.0.1:0" },
  ),
  webhookUrl: on(url("the URL the service must call for the sink (--webhook-url)", "https://sink.example.com/hooks"), {
    arg: "url",
    help: "the URL the service must call for the sink (an ingress in front of it)",
  }),
  webhookMisbehave: on(share("share of first attempts the sink refuses (--webhook-misbehave)", 0.2), {
    arg: "share",
    help: "share of first attempts the sink refuses (webhooks scenario: 0.2)",
    parse: shareOf,
  }),
  webhookRefusals: on(
    {
      schema: {
        type: ["array", "string"],
        items: { type: "string", enum: [...REFUSAL_MODES] },
        minItems: 1,
        pattern: `^\\s*(${REFUSAL_MODES.join("|")})\\s*(,\\s*(${REFUSAL_MODES.join("|")})\\s*)*$`,
      },
      what: `a list of ${REFUSAL_MODES.join(", ")} (or them comma-separated)`,
      example: ["500", "429"],
      description: "how the sink refuses (--webhook-refusals)",
    },
    {
      arg: "modes",
      help: "how the sink refuses: 500, 429, hang (past the sender's timeout)",
      parse: refusals,
      default: ["500", "429"] as RefusalMode[],
      defaultText: "500,429",
    },
  ),
  webhookRegisterCmd: on(
    text(
      "without test hooks: a shell command run once per key to register the sink (--webhook-register-cmd)",
      "./register-sink.sh",
    ),
    {
      arg: "command",
      help: "without test hooks: a shell command run once per key to register the sink (HARNESS_WEBHOOK_API_KEY, _URL, _SECRET)",
    },
  ),
  webhookRegistrationWait: on(
    positive(
      "without test hooks: seconds the first event proving the sink's registration may take (--webhook-registration-wait)",
      60,
    ),
    {
      arg: "seconds",
      help: "without test hooks: how long the first event proving the sink's registration may take (default 60)",
      parse: positiveUpTo(MAX_WAIT_SECONDS, "60"),
    },
  ),
  alternativesKeys: on(
    secret(
      "without test hooks: where to read the keys the operator enabled alternatives for, as keys (--alternatives-keys)",
      "ATD_ALTERNATIVES_KEYS",
    ),
    {
      arg: "file",
      help: "without test hooks: the keys the operator enabled alternatives for (same format as --keys; the others lack it)",
    },
  ),
  reservationHold: on(
    positive("without test hooks: seconds the target's reservations hold their seats (--reservation-hold)", 900),
    {
      arg: "seconds",
      help: "without test hooks: how long the target's reservations hold their seats (unset: their whole life)",
      parse: positiveUpTo(MAX_RUN_SECONDS, "900"),
    },
  ),
  timeScale: on(
    positive("without test hooks: how much faster than real time the target's clock runs (--time-scale)", 60),
    {
      arg: "n",
      help: "without test hooks: how much faster than real time the target's clock runs",
      parse: positiveUpTo(MAX_TIME_SCALE, "60"),
    },
  ),
  churn: on(flag("churn inventory through the control API during the run (--churn, false: --no-churn)"), {
    help: "churn inventory through the control API during the run (HARNESS_CHURN=1; default for alternatives and soak)",
    negate: "no inventory churn, also for alternatives and soak (HARNESS_CHURN=0)",
    env: "HARNESS_CHURN",
  }),
  churnConfig: on(
    pathOrInline("churn rate, mix, hold times and dates: a JSON file, or inline (--churn-config)", "churn.json"),
    { arg: "file", help: "JSON file with the churn rate, mix, hold times and dates" },
  ),
  churnRate: on(
    {
      schema: { type: "number", minimum: 0 },
      what: "a number >= 0",
      example: 2,
      description: "churn changes per second, over the churn config (--churn-rate)",
    },
    {
      arg: "per-second",
      help: "churn changes per second (overrides the config file)",
      parse: nonNegativeUpTo(MAX_CHURN_RATE, "2"),
    },
  ),
  pushgateway: on(url("push the run's metrics to this Pushgateway (--pushgateway)", "http://pushgateway:9091"), {
    arg: "url",
    help: "push the run's metrics (metrics.prom) to this Pushgateway; each run replaces the last of the same scenarios and target",
  }),
  pushGroup: on(text("one more grouping label of the push (--push-group)", "demo"), {
    arg: "name",
    help: "one more grouping label of the push (push_group), e.g. the environment",
    parse: pushGroup,
  }),
  prometheusRw: on(
    url(
      "stream k6's samples to this Prometheus remote-write URL (--prometheus-rw)",
      "http://prometheus:9090/api/v1/write",
    ),
    { arg: "url", help: "stream k6's samples to this Prometheus remote-write URL (tag testid=<run id>)" },
  ),
  rateWindow: on(positive("the rate-limit window in seconds, when known (--rate-window)", 60), {
    arg: "seconds",
    help: "the rate-limit window, when known (else measured)",
  }),
  expectAlgorithm: on(
    oneOf(RATE_LIMIT_ALGORITHMS, "rate-limit algorithm the deployment must use (--expect-algorithm)"),
    { arg: "name", help: "rate-limit algorithm the deployment must use" },
  ),
  rateOutsideList: on(oneOf(["unlimited", "finding"] as const, "rate-limit rule 4 policy (--rate-outside-list)"), {
    arg: "policy",
    help: "rate-limit rule 4, booking/config endpoints outside the shared allowance: unlimited (a difference fails) or finding (a difference is reported only)",
    default: "unlimited",
  }),
  chaos: on(
    pathOrInline(
      "Toxiproxy faults during the run: a YAML/JSON file (docs/chaos.md), or inline (--chaos)",
      "chaos.yaml",
    ),
    { arg: "file", help: "YAML/JSON file scheduling Toxiproxy faults during the run (docs/chaos.md)" },
  ),
  soakConfig: on(pathOrInline("the soak's drift rules: a JSON file, or inline (--soak-config)", "soak.json"), {
    arg: "file",
    help: "JSON file with the soak's drift rules (lib/harness/soak/soak-rules.ts)",
  }),
  capacitySafeShare: on(
    share("share of the capacity knee recommended as operating rate (--capacity-safe-share)", 0.7),
    { arg: "share", help: "share of the capacity knee recommended as operating rate (0.7)", parse: shareOf },
  ),
  capacityRates: on(
    {
      schema: {
        type: ["string", "array"],
        minLength: 1,
        minItems: 1,
        items: { type: "number", exclusiveMinimum: 0 },
      },
      what: 'capacity step rates: "500,1000,2000", "2000-3000/8" or a list of numbers',
      example: [500, 1000, 2000],
      description: "capacity step rates, requests/s (--capacity-rates)",
    },
    {
      arg: "rates",
      help: 'capacity step rates, requests/s: "500,1000,2000" or "2000-3000/8" (from-to/steps)',
      parse: capacityRates,
    },
  ),
  arrivalCurve: on(flag("partner-mix follows the fitted arrival curve of the --traffic model (--arrival-curve)"), {
    help: "partner-mix follows the fitted arrival curve of the --traffic model, each bucket --time-compression times shorter, its rate times --rate-multiplier (HARNESS_ARRIVAL_CURVE=1); the curve sets the length, so no --duration",
    env: "HARNESS_ARRIVAL_CURVE",
  }),
  timeCompression: on(positive("how many times faster --arrival-curve plays the fitted day (--time-compression)", 24), {
    arg: "factor",
    help: "how many times faster --arrival-curve plays the fitted day (24: a day in an hour)",
    parse: positiveUpTo(MAX_TIME_COMPRESSION, "24"),
    default: DEFAULT_TIME_COMPRESSION,
  }),
  rateMultiplier: on(positive("multiple of the fitted arrival rate --arrival-curve plays (--rate-multiplier)", 1), {
    arg: "factor",
    help: "multiple of the fitted arrival rate --arrival-curve plays (2: twice the logged sessions)",
    parse: positiveUpTo(MAX_RATE_MULTIPLIER, "2"),
    default: DEFAULT_RATE_MULTIPLIER,
  }),
  segments: on(
    {
      schema: { type: "integer", minimum: 1 },
      what: "a whole number, at least 1",
      example: 2,
      description: "split each scenario over n k6 processes (--segments)",
    },
    {
      arg: "n",
      help: "split each scenario over n k6 processes (execution segments, keys partitioned)",
      parse: integerFrom(1, MAX_SEGMENTS),
      default: 1,
    },
  ),
  allowSkips: on(
    flag(
      "accept up front that what could not run is skipped: scenarios or extensions needing the control API, checks the run could not judge (--allow-skips)",
    ),
    {
      help: "accept up front that what could not run is skipped: scenarios or extensions needing the control API, checks the run could not judge (HARNESS_ALLOW_SKIPS=1); without it a skip fails the run (what a coverage level cannot judge by design never does)",
      env: "HARNESS_ALLOW_SKIPS",
    },
  ),
  baseline: on(
    text(
      "compare this run with a baseline: a saved baseline's name, or a run directory or file (a path with / is relative to the run file's folder) (--baseline)",
      "rel-1.4",
    ),
    {
      arg: "run dir or name",
      help: "compare this run with a baseline (a run directory, a saved baseline's name or file): exit 1 on a regression",
    },
  ),
  tolerances: on(
    pathOrInline("how much worse the candidate may be: a YAML/JSON file, or inline (--tolerances)", "tolerances.yaml"),
    {
      arg: "file",
      help: "YAML/JSON file of how much worse the candidate may be (defaults: p95/p99 +10% at 95% confidence, error rate +0.1 point, accuracy may not fall)",
    },
  ),
  baselinesDir: on(path("where named baselines are kept (--baselines-dir)", "baselines"), {
    arg: "dir",
    help: "where named baselines are kept",
    default: DEFAULT_BASELINES_DIR,
    env: "HARNESS_BASELINES",
  }),
} as const satisfies Record<string, SettingSpec & { cli: CliSpec }>;

export type RunFileSetting = keyof typeof SETTINGS;

type Settings = typeof SETTINGS;
/** A setting's value once its flag is parsed: the parser's result, a choice, a switch's boolean, else the text. */
type ValueOf<S> = S extends { cli: { parse: (...args: never[]) => infer T } }
  ? T
  : S extends { choices: readonly (infer V)[] }
    ? V
    : S extends { cli: { arg: string } }
      ? string
      : boolean;
type WithDefault = {
  [K in RunFileSetting]: Settings[K]["cli"] extends { default: unknown } ? K : never;
}[RunFileSetting];

/** The parsed settings of `harness run`, derived from the table: those with a default always hold a value. */
export type SettingValues = { -readonly [K in WithDefault]: ValueOf<Settings[K]> } & {
  -readonly [K in Exclude<RunFileSetting, WithDefault>]?: ValueOf<Settings[K]>;
};

/** The key in kebab-case: the long flag's name without its dashes (baseUrl: base-url). */
export function kebabOf(setting: string): string {
  return setting.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** A setting's command-line facet, its flag and its HARNESS_* mirror (undefined: none). */
export function settingCli(setting: RunFileSetting): {
  cli: CliSpec;
  flag: string;
  env: string | undefined;
  choices: readonly string[] | undefined;
} {
  const spec: SettingSpec & { cli: CliSpec; choices?: readonly string[] } = SETTINGS[setting];
  const { cli } = spec;
  const env =
    cli.env ?? (cli.arg === undefined ? false : `HARNESS_${kebabOf(setting).replace(/-/g, "_").toUpperCase()}`);
  return { cli, flag: `--${kebabOf(setting)}`, env: env === false ? undefined : env, choices: spec.choices };
}

/** HARNESS_CHURN and the other switches' mirrors: 1/true/yes/on on, anything else off, unset or blank: undefined. */
export function switchFromEnv(value: string | undefined): boolean | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return /^(1|true|yes|on)$/i.test(value.trim());
}

/** A switch as given (flag or run file), else its HARNESS_* mirror, else undefined (the scenarios' default). */
export function switchValue(
  setting: RunFileSetting,
  given: boolean | undefined,
  env = process.env,
): boolean | undefined {
  const name = settingCli(setting).env;
  return given ?? (name === undefined ? undefined : switchFromEnv(env[name]));
}

/** Every setting a run file may hold: the long flags of `harness run` in camelCase (a test compares them). */
export const RUN_FILE_SETTINGS = Object.keys(SETTINGS) as readonly RunFileSetting[];

/** The values with every switch read as switchValue reads it, for code that gets the values alone (extensions). */
export function withSwitches<T extends Partial<SettingValues>>(values: T, env = process.env): T {
  const out: Record<string, unknown> = { ...values };
  for (const setting of RUN_FILE_SETTINGS) {
    const cli = settingCli(setting);
    if (cli.cli.arg === undefined && cli.env !== undefined) {
      out[setting] = switchValue(setting, values[setting] as boolean | undefined, env);
    }
  }
  return out as T;
}

const specOf = (setting: RunFileSetting): SettingSpec => SETTINGS[setting];

/** The settings that describe the target: in defaults and environments only, never under a scenario. */
export const RUN_FILE_TARGET_SETTINGS: readonly RunFileSetting[] = RUN_FILE_SETTINGS.filter((s) => specOf(s).target);

/** The settings read as secrets: { env: NAME } or { file: path }, never written literally. */
export const RUN_FILE_SECRET_SETTINGS: readonly RunFileSetting[] = RUN_FILE_SETTINGS.filter(
  (s) => specOf(s).kind === "secret",
);

/** The settings that are paths (resolved against the run file's folder); pathOrInline ones may be inline too. */
export const RUN_FILE_PATH_SETTINGS: readonly RunFileSetting[] = RUN_FILE_SETTINGS.filter(
  (s) => specOf(s).kind === "path" || specOf(s).kind === "pathOrInline",
);

/** The settings whose content may be written inline as a mapping instead of a path. */
export const RUN_FILE_INLINE_SETTINGS: readonly RunFileSetting[] = RUN_FILE_SETTINGS.filter(
  (s) => specOf(s).kind === "pathOrInline",
);

/** What only an environment says: how carefully it must be loaded (EnvironmentRails). */
const RAILS = {
  production: {
    schema: { type: "boolean" },
    what: "true or false",
    example: true,
    description: "a production environment: read-only scenarios only, no churn or chaos",
  },
  shared: {
    schema: { type: "boolean" },
    what: "true or false",
    example: true,
    description: "other users share it: the run's own traffic must cause no 429",
  },
  allowedScenarios: {
    schema: { type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true },
    what: "a list of scenario names",
    example: ["smoke", "catalogue"],
    description: "the scenarios this environment may run (unset: any)",
  },
  ceiling: {
    schema: { type: "number", exclusiveMinimum: 0 },
    what: "a number of requests per minute per key, above 0",
    example: 300,
    description: "requests per minute per key the run may send to the rate-limited endpoints",
  },
} as const satisfies Record<string, SettingSpec>;

export type RunFileRail = keyof typeof RAILS;
export const RUN_FILE_RAILS = Object.keys(RAILS) as readonly RunFileRail[];

export function isRunFileSetting(name: string): name is RunFileSetting {
  return Object.hasOwn(SETTINGS, name);
}

export function isRunFileRail(name: string): name is RunFileRail {
  return Object.hasOwn(RAILS, name);
}

/** What a setting or rail must be, and an example of it, for error messages. */
export function settingHelp(name: RunFileSetting | RunFileRail): { what: string; example: unknown } {
  const spec: SettingSpec = isRunFileSetting(name) ? SETTINGS[name] : RAILS[name];
  return { what: spec.what, example: spec.example };
}

/** Names of environments and scenarios: what a command line can pass without quoting. */
export const RUN_FILE_NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]*$";

function propertiesOf(specs: Readonly<Record<string, SettingSpec>>, keep: (name: string) => boolean): Json {
  return Object.fromEntries(
    Object.entries(specs)
      .filter(([name]) => keep(name))
      .map(([name, spec]) => [name, { description: spec.description, ...spec.schema, examples: [spec.example] }]),
  );
}

const settingsObject = (description: string, properties: Json): Json => ({
  description,
  type: "object",
  additionalProperties: false,
  properties,
});

/** The run file's JSON Schema (draft-07): every key known, every value typed. */
export function runFileSchema(): Json {
  const all = propertiesOf(SETTINGS, () => true);
  const named = (description: string, of: Json, minProperties = 0): Json => ({
    description,
    type: "object",
    ...(minProperties > 0 ? { minProperties } : {}),
    propertyNames: { pattern: RUN_FILE_NAME_PATTERN },
    additionalProperties: of,
  });
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "harness.yaml: a run file of atd-harness",
    description:
      "What `harness run` runs, with named environments. Precedence, first wins: command-line flags, HARNESS_* environment variables, the chosen scenarios' settings, the environment's, defaults, built-in defaults.",
    type: "object",
    additionalProperties: false,
    required: ["version", "environments"],
    properties: {
      $schema: { description: "the schema editors check the file against", type: "string" },
      version: { description: "the run file's format: 1", const: 1 },
      run: {
        description: "what a bare `harness run` does",
        type: "object",
        additionalProperties: false,
        properties: {
          scenarios: {
            description: "the scenarios to run when none is named",
            type: "array",
            items: { type: "string", minLength: 1 },
            minItems: 1,
            uniqueItems: true,
          },
          environment: { description: "the environment when none is named", type: "string", minLength: 1 },
        },
      },
      defaults: { $ref: "#/definitions/settings" },
      environments: named(
        "named environments: where the run goes and how carefully",
        {
          $ref: "#/definitions/environment",
        },
        1,
      ),
      scenarios: named("settings of a scenario, applied when it is chosen (over the environment's)", {
        $ref: "#/definitions/scenario",
      }),
    },
    definitions: {
      settings: settingsObject("settings of every run (under the environment's and the scenarios')", all),
      environment: settingsObject("an environment: any setting, and its rails", {
        ...all,
        ...propertiesOf(RAILS, () => true),
      }),
      scenario: settingsObject(
        "a scenario's settings: any setting except those of the target",
        propertiesOf(SETTINGS, (name) => !isRunFileSetting(name) || !specOf(name).target),
      ),
    },
  };
}
