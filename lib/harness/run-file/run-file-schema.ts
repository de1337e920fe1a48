/**
 * The run file (harness.yaml): one file with named environments instead of ~55 flags of `harness run`. This module
 * is its vocabulary: every setting (a long flag of `harness run` in camelCase, with the flag's type), which of them
 * describe the target, which are paths, which are secrets, and the JSON Schema built from that table, published as
 * docs/harness.schema.json (scripts/run-file-schema.ts) so editors complete and check the file as it is written.
 */
import { PROFILES } from "../../contract/profiles.ts";
import { RATE_LIMIT_ALGORITHMS } from "../../contract/index.ts";

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

const URL_PATTERN = "^https?://[^/\\s]+";
const DURATION_PATTERN = "^(\\d+(\\.\\d+)?(ms|s|m|h))+$";
const ENV_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";
const REFUSAL_MODES = ["500", "429", "hang"] as const;

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
const oneOf = (values: readonly string[], description: string): SettingSpec => ({
  schema: { type: "string", enum: [...values] },
  what: `one of ${values.join(", ")}`,
  example: values[0],
  description,
});
const targetSetting = (spec: SettingSpec): SettingSpec => ({ ...spec, target: true });

/** Every setting of the run file, in the order of `harness run --help`: the long flag's name in camelCase. */
const SETTINGS = {
  target: targetSetting(oneOf(["embedded", "container", "compose", "url"], "what to test (--target)")),
  baseUrl: targetSetting(url("the API's base URL, target url (--base-url)", "https://demo.example.com")),
  controlUrl: targetSetting(
    url("the control API's URL, when the deployment has one (--control-url)", "http://127.0.0.1:8081"),
  ),
  controlToken: targetSetting(
    secret(
      "where to read the control API's token: the variable, or the whole file trimmed (--control-token)",
      "ATD_CONTROL_TOKEN",
    ),
  ),
  keys: targetSetting(
    secret(
      "where to read the API keys: a variable of comma, space or newline separated keys, or a file outside the repository as --keys reads it (a JSON array or one key per line)",
      "ATD_KEYS",
    ),
  ),
  image: targetSetting(text("target container: the image to test (--image)", "registry.example/partner-api:rc-42")),
  port: port("target container/compose: the port the API listens on (--port)"),
  controlPort: port("target container/compose: the port its test hooks listen on (--control-port)"),
  containerEnv: {
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
  containerEnvFile: targetSetting(
    path(
      "target container: KEY=VALUE lines (docker run --env-file); compose: its --env-file (--container-env-file)",
      "test.env",
    ),
  ),
  waitHttp: targetSetting({
    schema: { type: "string", pattern: "^/\\S*?(:\\d{3})?$" },
    what: "<path>[:status] with a path that starts with /, e.g. /health or /v2/config:401",
    example: "/health:200",
    description: "target container/compose: ready when the API port answers this path (--wait-http)",
  }),
  waitLog: targetSetting(
    text(
      "target container/compose: ready when the API's output has a line matching this regular expression (--wait-log)",
      "listening on",
    ),
  ),
  startupTimeout: targetSetting(
    duration("target container/compose: time to become ready, default 60s (--startup-timeout)", "90s"),
  ),
  cpus: targetSetting(cores("target container: Docker's --cpus (--cpus)")),
  memory: targetSetting({
    schema: { type: "string", pattern: "^\\d+(\\.\\d+)?[bkmgBKMG]?$" },
    what: "a memory size as Docker writes it, e.g. 512m or 2g",
    example: "512m",
    description: "target container: Docker's --memory (--memory)",
  }),
  composeFile: targetSetting(
    path("target compose: the stack's docker-compose file (--compose-file)", "docker-compose.yml"),
  ),
  service: targetSetting(text("target compose: the service that serves the API on port (--service)", "api")),
  controlService: targetSetting(
    text("target compose: the service whose controlPort serves the test hooks (--control-service)", "api"),
  ),
  profile: oneOf(Object.keys(PROFILES), "load profile (--profile)"),
  duration: duration("overrides the profile's steady stage (--duration)", "5m"),
  slo: pathOrInline("SLO override: a JSON file, or the override inline (--slo)", "slo.json"),
  out: path("where run directories go (--out)", "reports"),
  seed: {
    schema: { type: "integer", minimum: 0 },
    what: "a whole number",
    example: 42,
    description: "catalogue seed of the embedded service (--seed)",
  },
  serviceArgs: text('extra flags for the embedded service, e.g. "--rate-limit 50" (--service-args)', "--rate-limit 50"),
  serviceCpus: cores("CPU budget of the embedded service (a cgroup) or the container (--service-cpus)"),
  traffic: pathOrInline("traffic model override: a JSON file, or the override inline (--traffic)", "traffic.json"),
  webhooks: flag("run the webhook sink beside k6 (--webhooks, false: --no-webhooks)"),
  webhookListen: {
    schema: { type: "string", pattern: "^\\S+:\\d{1,5}$" },
    what: "host:port, e.g. 127.0.0.1:0",
    example: "127.0.0.1:0",
    description: "where the webhook sink listens (--webhook-listen)",
  },
  webhookUrl: url("the URL the service must call for the sink (--webhook-url)", "https://sink.example.com/hooks"),
  webhookMisbehave: share("share of first attempts the sink refuses (--webhook-misbehave)", 0.2),
  webhookRefusals: {
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
  webhookRegisterCmd: text(
    "without test hooks: a shell command run once per key to register the sink (--webhook-register-cmd)",
    "./register-sink.sh",
  ),
  webhookRegistrationWait: positive(
    "without test hooks: seconds the first event proving the sink's registration may take (--webhook-registration-wait)",
    60,
  ),
  alternativesKeys: secret(
    "without test hooks: where to read the keys the operator enabled alternatives for, as keys (--alternatives-keys)",
    "ATD_ALTERNATIVES_KEYS",
  ),
  reservationHold: positive(
    "without test hooks: seconds the target's reservations hold their seats (--reservation-hold)",
    900,
  ),
  timeScale: positive("without test hooks: how much faster than real time the target's clock runs (--time-scale)", 60),
  churn: flag("churn inventory through the control API during the run (--churn, false: --no-churn)"),
  churnConfig: pathOrInline(
    "churn rate, mix, hold times and dates: a JSON file, or inline (--churn-config)",
    "churn.json",
  ),
  churnRate: {
    schema: { type: "number", minimum: 0 },
    what: "a number >= 0",
    example: 2,
    description: "churn changes per second, over the churn config (--churn-rate)",
  },
  pushgateway: url("push the run's metrics to this Pushgateway (--pushgateway)", "http://pushgateway:9091"),
  pushGroup: text("one more grouping label of the push (--push-group)", "demo"),
  prometheusRw: url(
    "stream k6's samples to this Prometheus remote-write URL (--prometheus-rw)",
    "http://prometheus:9090/api/v1/write",
  ),
  rateWindow: positive("the rate-limit window in seconds, when known (--rate-window)", 60),
  expectAlgorithm: oneOf(RATE_LIMIT_ALGORITHMS, "rate-limit algorithm the deployment must use (--expect-algorithm)"),
  rateOutsideList: oneOf(["unlimited", "finding"], "rate-limit rule 4 policy (--rate-outside-list)"),
  chaos: pathOrInline(
    "Toxiproxy faults during the run: a YAML/JSON file (docs/chaos.md), or inline (--chaos)",
    "chaos.yaml",
  ),
  soakConfig: pathOrInline("the soak's drift rules: a JSON file, or inline (--soak-config)", "soak.json"),
  capacitySafeShare: share("share of the capacity knee recommended as operating rate (--capacity-safe-share)", 0.7),
  capacityRates: {
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
  segments: {
    schema: { type: "integer", minimum: 1 },
    what: "a whole number, at least 1",
    example: 2,
    description: "split each scenario over n k6 processes (--segments)",
  },
  allowSkips: flag(
    "accept up front that what could not run is skipped: scenarios or extensions needing the control API, checks the run could not judge (--allow-skips)",
  ),
  baseline: text(
    "compare this run with a baseline: a saved baseline's name, or a run directory or file (a path with / is relative to the run file's folder) (--baseline)",
    "rel-1.4",
  ),
  tolerances: pathOrInline(
    "how much worse the candidate may be: a YAML/JSON file, or inline (--tolerances)",
    "tolerances.yaml",
  ),
  baselinesDir: path("where named baselines are kept (--baselines-dir)", "baselines"),
} as const satisfies Record<string, SettingSpec>;

export type RunFileSetting = keyof typeof SETTINGS;

/** Every setting a run file may hold: the long flags of `harness run` in camelCase (a test compares them). */
export const RUN_FILE_SETTINGS = Object.keys(SETTINGS) as readonly RunFileSetting[];

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
