import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT, HarnessError } from "../../lib/harness/exit-codes.ts";
import { readRunFile } from "../../lib/harness/run-file/read-run-file.ts";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "run-file-read-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes the text as harness.yaml (or the name given) in the temp folder; returns its path. */
async function file(text: string, name = "harness.yaml"): Promise<string> {
  const at = path.join(dir, name);
  await writeFile(at, text);
  return at;
}

/** The message of the exit-2 error reading the text throws, with the temp folder cut off the file's path. */
async function problem(text: string, name = "harness.yaml"): Promise<string> {
  const at = await file(text, name);
  const error = await readRunFile(at).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarnessError);
  expect((error as HarnessError).exitCode).toBe(EXIT.usage);
  return (error as HarnessError).message.replace(`${dir}${path.sep}`, "");
}

const FULL = `version: 1
run:
  scenarios: [partner-mix, webhooks]
  environment: demo
defaults:
  profile: smoke
  out: reports
  containerEnv: [LOG_LEVEL=debug]
  webhookRefusals: 500,429
  capacityRates: "2000-3000/8"
environments:
  local: { target: embedded, seed: 7, serviceArgs: "--rate-limit 50" }
  container:
    target: container
    image: registry.example/partner-api:rc-42
    port: 8080
    controlPort: 8081
    controlToken: { file: ~/.config/atd/token }
    containerEnv: { DATABASE_URL: postgres://127.0.0.1/test, WORKERS: 4 }
    containerEnvFile: test.env
    waitHttp: /health:200
    startupTimeout: 90s
    cpus: 1.5
    memory: 512m
  compose:
    target: compose
    composeFile: stack.yml
    service: api
    controlService: api
    waitLog: listening on
  demo:
    target: url
    baseUrl: https://demo.example.com
    controlUrl: http://127.0.0.1:8081
    keys: { env: ATD_DEMO_KEYS }
    alternativesKeys: { file: alt-keys.txt }
    shared: true
    ceiling: 300
    allowedScenarios: [smoke, catalogue, partner-mix]
  production:
    target: url
    baseUrl: https://api.example.com
    production: true
    ceiling: 200
scenarios:
  partner-mix:
    profile: average
    duration: 5m
    traffic: traffic.json
    slo: { endpoints: { search: { p95: 800 } } }
    webhooks: false
    churn: true
    churnRate: 0.5
    capacityRates: [500, 1000]
    webhookRefusals: ["500", hang]
  soak:
    soakConfig: soak.json
    churnConfig: { ratePerSecond: 2 }
    chaos: chaos.yaml
    tolerances: { confidence: 0.9 }
    baseline: rel-1.4
    baselinesDir: baselines
    pushgateway: http://pushgateway:9091
    pushGroup: demo
    prometheusRw: http://prometheus:9090/api/v1/write
    rateWindow: 60
    expectAlgorithm: sliding-window
    rateOutsideList: finding
    capacitySafeShare: 0.7
    segments: 2
    allowSkips: true
    webhookListen: 127.0.0.1:0
    webhookUrl: https://sink.example.com/hooks
    webhookMisbehave: 0.2
    webhookRegisterCmd: ./register.sh
    webhookRegistrationWait: 30
    reservationHold: 900
    timeScale: 60
    serviceCpus: 0.25
`;

describe("readRunFile on good files", () => {
  it("should read a YAML file using every part and every kind of value", async () => {
    const runFile = await readRunFile(await file(FULL));
    expect(runFile.content.run).toEqual({ scenarios: ["partner-mix", "webhooks"], environment: "demo" });
    expect(Object.keys(runFile.content.environments)).toEqual(["local", "container", "compose", "demo", "production"]);
    expect(runFile.content.environments.container?.containerEnv).toEqual({
      DATABASE_URL: "postgres://127.0.0.1/test",
      WORKERS: 4,
    });
    expect(runFile.content.scenarios?.["partner-mix"]?.slo).toEqual({ endpoints: { search: { p95: 800 } } });
    expect(runFile.dir).toBe(dir);
  });

  it("should read the same content from a JSON file", async () => {
    const yaml = await readRunFile(await file(FULL));
    const json = await readRunFile(await file(JSON.stringify(yaml.content, null, 2), "harness.json"));
    expect(json.content).toEqual(yaml.content);
  });

  it("should accept the smallest file: a version and one environment", async () => {
    const runFile = await readRunFile(await file("version: 1\nenvironments:\n  local: {}\n"));
    expect(runFile.content).toEqual({ version: 1, environments: { local: {} } });
  });

  it("should accept a $schema key for editors, and YAML anchors and merge keys", async () => {
    const text = `$schema: ./docs/harness.schema.json
version: 1
environments:
  demo: &url
    target: url
    baseUrl: https://demo.example.com
  staging:
    <<: *url
    baseUrl: https://staging.example.com
`;
    const runFile = await readRunFile(await file(text));
    expect(runFile.content.environments.staging).toEqual({ target: "url", baseUrl: "https://staging.example.com" });
  });

  it("should tell where a node is by its path, and fall back to the nearest written ancestor", async () => {
    const runFile = await readRunFile(await file(FULL, "where.yaml"));
    const at = (p: (string | number)[]) => runFile.where(p).replace(`${dir}${path.sep}`, "");
    expect(at(["environments", "demo", "ceiling"])).toBe("where.yaml:38:14");
    expect(at(["run", "scenarios", 1])).toBe("where.yaml:3:28");
    expect(at(["environments", "demo", "missing"])).toBe("where.yaml:32:5");
  });
});

describe("readRunFile on bad files (exit 2, file:line:column)", () => {
  it("should refuse a missing file and a folder", async () => {
    const missing = path.join(dir, "nowhere.yaml");
    await expect(readRunFile(missing)).rejects.toThrow(
      `Failed to read the run file ${missing}: no such file. Please give the path of a run file, or write one with harness init.`,
    );
    await mkdir(path.join(dir, "folder.yaml"), { recursive: true });
    await expect(readRunFile(path.join(dir, "folder.yaml"))).rejects.toMatchObject({
      exitCode: EXIT.usage,
      message: expect.stringContaining("folder.yaml: it is a folder") as unknown,
    });
  });

  it("should refuse an empty file", async () => {
    expect(await problem("# nothing yet\n")).toBe(
      "Failed to read the run file harness.yaml: the file is empty. Please write one with harness init, or start it with version: 1.",
    );
  });

  it("should name the line and column of a YAML syntax error", async () => {
    const text = "version: 1\nenvironments:\n  local:\n    target: [embedded\n";
    expect(await problem(text)).toBe(
      "Failed to read the run file harness.yaml:5:1: it is not valid YAML or JSON (Flow sequence in block collection must be sufficiently indented and end with a ]). Please fix the syntax there.",
    );
    const nested = "version: 1\nenvironments:\n  local:\n  target: x\n   y: 2\n";
    expect(await problem(nested)).toBe(
      "Failed to read the run file harness.yaml:4:11: it is not valid YAML or JSON (Nested mappings are not allowed in compact mappings). Please fix the syntax there.",
    );
  });

  it("should name the line of a key written twice", async () => {
    const text = "version: 1\nenvironments:\n  local: {}\n  local: {}\n";
    expect(await problem(text)).toBe(
      "Failed to read the run file harness.yaml:4:3: it is not valid YAML or JSON (Map keys must be unique). Please fix the syntax there.",
    );
  });

  it("should name the line and column of a JSON syntax error", async () => {
    const text = '{\n  "version": 1,\n  "environments": { "local": { } ,, }\n}\n';
    expect(await problem(text, "harness.json")).toBe(
      "Failed to read the run file harness.json:3:35: it is not valid YAML or JSON (Unexpected , in flow map). Please fix the syntax there.",
    );
  });

  it("should name the line and column of a wrong value and an unknown key in a JSON file", async () => {
    const json = (environment: string) =>
      `{\n  "version": 1,\n  "environments": {\n    "demo": ${environment}\n  }\n}\n`;
    expect(await problem(json('{ "target": "url", "ceiling": "300" }'), "harness.json")).toBe(
      "Failed to read the run file harness.json:4:43: environments.demo.ceiling must be a number of requests per minute per key, above 0. Please write it as e.g. ceiling: 300.",
    );
    expect(await problem(json('{ "target": "url", "baseURL": "https://x.example" }'), "harness.json")).toBe(
      'Failed to read the run file harness.json:4:32: environments.demo has no key "baseURL". Please use baseUrl (the closest key it has).',
    );
  });

  it("should refuse a file of several YAML documents", async () => {
    expect(await problem("version: 1\n---\nversion: 1\n")).toBe(
      "Failed to read the run file harness.yaml:2:1: it holds more than one YAML document. Please keep one (drop the ---).",
    );
  });

  it("should refuse a missing version and a version other than 1", async () => {
    expect(await problem("environments:\n  local: {}\n")).toBe(
      "Failed to read the run file harness.yaml:1:1: version is missing. Please start the file with version: 1.",
    );
    expect(await problem("version: 2\nenvironments:\n  local: {}\n")).toBe(
      "Failed to read the run file harness.yaml:1:10: version is 2, and this harness reads version 1 only. Please write version: 1 (and the file in that version's shape, docs/harness.schema.json).",
    );
  });

  it("should refuse a file that is not a mapping", async () => {
    expect(await problem("- version: 1\n")).toBe(
      "Failed to read the run file harness.yaml:1:1: the file must be a mapping of version, run, defaults, environments, scenarios. Please start from the file harness init writes.",
    );
  });

  it("should refuse a file without environments", async () => {
    expect(await problem("version: 1\ndefaults: { profile: smoke }\n")).toBe(
      "Failed to read the run file harness.yaml:1:1: environments is missing. Please add at least one environment, e.g. environments: { local: { target: embedded } }.",
    );
    expect(await problem("version: 1\nenvironments: {}\n")).toBe(
      "Failed to read the run file harness.yaml:2:15: environments has none. Please add at least one, e.g. environments: { local: { target: embedded } }.",
    );
  });

  it("should say which value has the wrong type, where, and what it must be", async () => {
    const text = `version: 1
environments:
  demo:
    target: url
    ceiling: three
`;
    expect(await problem(text)).toBe(
      "Failed to read the run file harness.yaml:5:14: environments.demo.ceiling must be a number of requests per minute per key, above 0. Please write it as e.g. ceiling: 300.",
    );
  });

  it("should report the first problem in the file's order when there are several", async () => {
    const text = `version: 1
defaults:
  segments: 0
environments:
  local:
    target: lambda
`;
    expect(await problem(text)).toBe(
      "Failed to read the run file harness.yaml:3:13: defaults.segments must be a whole number, at least 1. Please write it as e.g. segments: 2.",
    );
  });

  it("should refuse a value outside its choices, a bad URL, a bad duration and a bad port", async () => {
    const env = (line: string) => `version: 1\nenvironments:\n  local:\n    ${line}\n`;
    expect(await problem(env("target: lambda"))).toBe(
      "Failed to read the run file harness.yaml:4:13: environments.local.target must be one of embedded, container, compose, url. Please write it as e.g. target: embedded.",
    );
    expect(await problem(env("baseUrl: demo.example.com"))).toBe(
      "Failed to read the run file harness.yaml:4:14: environments.local.baseUrl must be an http(s) URL. Please write it as e.g. baseUrl: https://demo.example.com.",
    );
    expect(await problem(env("duration: 5 minutes"))).toBe(
      "Failed to read the run file harness.yaml:4:15: environments.local.duration must be a k6 duration such as 30s, 5m or 1h30m. Please write it as e.g. duration: 5m.",
    );
    expect(await problem(env("port: 70000"))).toBe(
      "Failed to read the run file harness.yaml:4:11: environments.local.port must be a TCP port, a whole number from 1 to 65535. Please write it as e.g. port: 8080.",
    );
  });

  it("should point at the bad item of a list", async () => {
    const text = `version: 1
environments:
  container:
    containerEnv:
      - LOG_LEVEL=debug
      - not an assignment
`;
    expect(await problem(text)).toBe(
      "Failed to read the run file harness.yaml:6:9: environments.container.containerEnv must be a list of KEY=VALUE strings or a mapping of KEY: VALUE. Please write it as e.g. containerEnv: { LOG_LEVEL: debug }.",
    );
  });

  it("should name an unknown key and the closest one", async () => {
    const text = `version: 1
environments:
  demo:
    target: url
    ceilng: 300
`;
    expect(await problem(text)).toBe(
      'Failed to read the run file harness.yaml:5:5: environments.demo has no key "ceilng". Please use ceiling (the closest key it has).',
    );
  });

  it("should list the allowed keys when no key is close", async () => {
    expect(await problem("version: 1\nenvironments:\n  local: {}\nextras: 1\n")).toBe(
      'Failed to read the run file harness.yaml:4:1: the file has no key "extras". Please use one of: $schema, version, run, defaults, environments, scenarios.',
    );
    expect(await problem("version: 1\nrun:\n  scenario: [smoke]\nenvironments:\n  local: {}\n")).toBe(
      'Failed to read the run file harness.yaml:3:3: run has no key "scenario". Please use scenarios (the closest key it has).',
    );
  });

  it("should say where a target setting under a scenario belongs", async () => {
    const text = `version: 1
environments:
  local: {}
scenarios:
  partner-mix:
    profile: average
    baseUrl: https://demo.example.com
`;
    expect(await problem(text)).toBe(
      "Failed to read the run file harness.yaml:7:5: scenarios.partner-mix.baseUrl describes the target, which a scenario cannot change. Please move it to the environment it belongs to (environments.<name>.baseUrl) or to defaults.",
    );
  });

  it("should say a rail belongs to an environment, and a setting at the top belongs under defaults", async () => {
    expect(await problem("version: 1\ndefaults:\n  ceiling: 200\nenvironments:\n  local: {}\n")).toBe(
      "Failed to read the run file harness.yaml:3:3: defaults.ceiling is a rail of an environment. Please move it under the environment it guards (environments.<name>.ceiling).",
    );
    expect(await problem("version: 1\nprofile: smoke\nenvironments:\n  local: {}\n")).toBe(
      'Failed to read the run file harness.yaml:2:1: the file has no key "profile": profile is a setting. Please move it under defaults (every run) or under an environment.',
    );
  });

  it("should refuse a secret written literally, as a string or as a list", async () => {
    const text = (keys: string) => `version: 1
environments:
  demo:
    target: url
    baseUrl: https://demo.example.com
    keys: ${keys}
`;
    const literal =
      "keys is written literally. Please keep keys out of the file: { env: NAME } or { file: path outside the repository }.";
    expect(await problem(text("abc123"))).toBe(`Failed to read the run file harness.yaml:6:11: ${literal}`);
    expect(await problem(text("[abc123, def456]"))).toBe(`Failed to read the run file harness.yaml:6:11: ${literal}`);
    expect(await problem("version: 1\ndefaults:\n  controlToken: s3cret\nenvironments:\n  local: {}\n")).toBe(
      "Failed to read the run file harness.yaml:3:17: controlToken is written literally. Please keep controlToken out of the file: { env: NAME } or { file: path outside the repository }.",
    );
  });

  it("should refuse a secret source with both or neither of env and file, or a misspelt one", async () => {
    const text = (keys: string) => `version: 1\nenvironments:\n  demo:\n    keys: ${keys}\n`;
    const both =
      "Failed to read the run file harness.yaml:4:11: environments.demo.keys must be { env: NAME } (a variable) or { file: path } (a file outside the repository). Please write it as e.g. keys: { env: ATD_KEYS }.";
    expect(await problem(text("{ env: A, file: b }"))).toBe(both);
    expect(await problem(text("{}"))).toBe(both);
    expect(await problem(text("{ evn: ATD_KEYS }"))).toBe(
      'Failed to read the run file harness.yaml:4:13: environments.demo.keys has no key "evn". Please use env (the closest key it has).',
    );
  });

  it("should point at the key of a value left empty", async () => {
    expect(await problem("version: 1\nenvironments:\n  demo:\n    ceiling:\n")).toBe(
      "Failed to read the run file harness.yaml:4:5: environments.demo.ceiling must be a number of requests per minute per key, above 0. Please write it as e.g. ceiling: 300.",
    );
  });

  it("should find a value under a key YAML reads as a number", async () => {
    expect(await problem("version: 1\nenvironments:\n  2024:\n    ceiling: 0\n")).toBe(
      "Failed to read the run file harness.yaml:4:14: environments.2024.ceiling must be a number of requests per minute per key, above 0. Please write it as e.g. ceiling: 300.",
    );
  });

  it("should refuse environment and scenario names a command line cannot pass", async () => {
    expect(await problem("version: 1\nenvironments:\n  my demo: {}\n")).toBe(
      'Failed to read the run file harness.yaml:3:3: environments has the name "my demo", which is not a name of letters, digits, ., _ and - (starting with a letter or digit). Please rename it.',
    );
  });
});
