import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT, HarnessError } from "../../lib/harness/exit-codes.ts";
import { isTrackedByGit } from "../../lib/harness/run-file/git-tracked.ts";
import { readRunFile } from "../../lib/harness/run-file/read-run-file.ts";
import { resolveRunFile, type RunFileChoice } from "../../lib/harness/run-file/resolve-run-file.ts";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "run-file-resolve-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let count = 0;
/** Writes the run file in a folder of its own under the temp folder; returns its path. */
async function runFileOf(text: string): Promise<string> {
  count += 1;
  const folder = path.join(dir, `case-${String(count)}`);
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, "harness.yaml");
  await writeFile(file, text);
  return file;
}

async function resolve(text: string, choice: Partial<RunFileChoice> = {}, env: Record<string, string> = {}) {
  const file = await runFileOf(text);
  return resolveRunFile(await readRunFile(file), { scenarios: [], ...choice }, env);
}

/** The exit-2 message resolving the text throws, with the temp folder cut off paths. */
async function problem(text: string, choice: Partial<RunFileChoice> = {}, env: Record<string, string> = {}) {
  const error = await resolve(text, choice, env).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarnessError);
  expect((error as HarnessError).exitCode).toBe(EXIT.usage);
  return (error as HarnessError).message.replaceAll(`${dir}${path.sep}`, "").replace(/case-\d+\//g, "");
}

const LAYERED = `version: 1
run:
  scenarios: [smoke]
defaults:
  profile: smoke
  duration: 30s
  seed: 1
  out: reports
environments:
  local:
    target: embedded
    duration: 1m
    seed: 2
  demo:
    target: url
    baseUrl: https://demo.example.com
    shared: true
    ceiling: 300
    allowedScenarios: [smoke, partner-mix]
scenarios:
  partner-mix:
    profile: average
    duration: 5m
  catalogue:
    profile: average
  soak:
    duration: 1h
`;

describe("resolveRunFile: what the merged settings are", () => {
  it("should apply defaults, then the environment's settings, then the chosen scenario's", async () => {
    const resolved = await resolve(LAYERED, { scenarios: ["partner-mix"], environment: "local" });
    expect(resolved.values).toMatchObject({ profile: "average", duration: "5m", seed: 2, target: "embedded" });
    const sources = Object.fromEntries(
      Object.entries(resolved.sources).map(([k, v]) => [k, v.replace(/^.*harness\.yaml/, "harness.yaml")]),
    );
    expect(sources).toEqual({
      profile: "harness.yaml scenarios.partner-mix",
      duration: "harness.yaml scenarios.partner-mix",
      seed: "harness.yaml environments.local",
      target: "harness.yaml environments.local",
      out: "harness.yaml defaults",
    });
  });

  it("should keep the defaults where neither the environment nor a scenario sets a value", async () => {
    const resolved = await resolve(LAYERED, { scenarios: ["smoke"], environment: "demo" });
    expect(resolved.values).toMatchObject({
      profile: "smoke",
      duration: "30s",
      seed: 1,
      baseUrl: "https://demo.example.com",
    });
    expect(resolved.values).not.toHaveProperty("shared");
    expect(resolved.values).not.toHaveProperty("ceiling");
  });

  it("should accept two chosen scenarios that agree, and refuse two that set one setting differently", async () => {
    const agreeing = await resolve(LAYERED, { scenarios: ["partner-mix", "catalogue"], environment: "local" });
    expect(agreeing.values.profile).toBe("average");
    expect(await problem(LAYERED, { scenarios: ["partner-mix", "soak"], environment: "local" })).toBe(
      "Failed to read the run file harness.yaml:27:15: scenarios.soak.duration is 1h, and scenarios.partner-mix.duration (harness.yaml:23:15) is 5m: the run has one duration. Please run these scenarios separately, or set duration once (in defaults or the environment).",
    );
  });

  it("should resolve paths against the run file's folder, keep inline content as objects, and expand ~", async () => {
    const file = await runFileOf(`version: 1
defaults:
  slo: slo/strict.json
  traffic: { personas: { browser: { weight: 1 } } }
  composeFile: ../stack.yml
  containerEnvFile: ~/atd/test.env
  baselinesDir: /var/baselines
  baseline: ./reports/run-1
  tolerances: tolerances.yaml
environments:
  local: {}
scenarios:
  soak:
    baseline: rel-1.4
`);
    const folder = path.dirname(file);
    const runFile = await readRunFile(file);
    const { values } = await resolveRunFile(runFile, { scenarios: ["smoke"] }, { HOME: "/home/tester" });
    expect(values).toEqual({
      slo: path.join(folder, "slo/strict.json"),
      traffic: { personas: { browser: { weight: 1 } } },
      composeFile: path.join(dir, "stack.yml"),
      containerEnvFile: "/home/tester/atd/test.env",
      baselinesDir: "/var/baselines",
      baseline: path.join(folder, "reports/run-1"),
      tolerances: path.join(folder, "tolerances.yaml"),
    });
    // A bare name is a saved baseline's name, not a path.
    const soak = await resolveRunFile(runFile, { scenarios: ["soak"] }, {});
    expect(soak.values.baseline).toBe("rel-1.4");
  });

  it("should write every spelling of a list setting one way", async () => {
    const { values } = await resolve(
      `version: 1
defaults:
  containerEnv: { LOG_LEVEL: debug, WORKERS: 4 }
  webhookRefusals: "500, hang"
  capacityRates: "1000-4000/3"
environments:
  local: {}
scenarios:
  capacity:
    capacityRates: [500, 1000]
`,
      { scenarios: ["smoke"] },
    );
    expect(values).toEqual({
      containerEnv: ["LOG_LEVEL=debug", "WORKERS=4"],
      webhookRefusals: ["500", "hang"],
      capacityRates: [1000, 2000, 4000],
    });
    const capacity = await resolve(
      "version: 1\nenvironments:\n  local:\n    capacityRates: [500, 1000]\n    containerEnv: [A=1]\n",
      { scenarios: ["smoke"] },
    );
    expect(capacity.values).toEqual({ capacityRates: [500, 1000], containerEnv: ["A=1"] });
  });

  it("should refuse capacity rates that do not increase, at their line", async () => {
    const text = "version: 1\nenvironments:\n  local:\n    capacityRates: [1000, 500]\n";
    expect(await problem(text, { scenarios: ["capacity"] })).toBe(
      'Failed to read the run file harness.yaml:4:20: environments.local.capacityRates is not a list of capacity rates: the rates must increase step by step. Please give increasing rates in requests per second, e.g. capacityRates: [500, 1000, 2000] or "2000-3000/8".',
    );
  });
});

describe("resolveRunFile: which environment and scenarios", () => {
  it("should carry the environment's rails, ceiling as requests per key per minute", async () => {
    const demo = await resolve(LAYERED, { environment: "demo" });
    expect(demo.environment).toEqual({
      name: "demo",
      production: false,
      shared: true,
      allowedScenarios: ["smoke", "partner-mix"],
      ceilingPerKeyPerMinute: 300,
    });
    const local = await resolve(LAYERED, { environment: "local" });
    expect(local.environment).toEqual({ name: "local", production: false, shared: false });
  });

  it("should refuse an environment the file does not have, listing those it has", async () => {
    expect(await problem(LAYERED, { environment: "prod" })).toBe(
      "Failed to choose the environment prod: harness.yaml has no such environment (it has local, demo). Please use one of them or add prod under environments.",
    );
    expect(await problem(LAYERED, { environment: "demp" })).toBe(
      "Failed to choose the environment demp: harness.yaml has no such environment (it has local, demo). Please use demo, the closest, or add demp under environments.",
    );
  });

  it("should take run.environment when none is named, and refuse one the file does not have", async () => {
    const text = "version: 1\nrun:\n  environment: demo\nenvironments:\n  local: {}\n  demo: {}\n";
    const resolved = await resolve(text, { scenarios: ["smoke"] });
    expect(resolved.environment.name).toBe("demo");
    expect(resolved.chosenBy.environment).toMatch(/harness\.yaml run\.environment$/);
    expect(await problem(text.replace("environment: demo", "environment: staging"), { scenarios: ["smoke"] })).toBe(
      "Failed to read the run file harness.yaml:3:16: run.environment is staging, which is not an environment of the file (it has local, demo). Please name one of them.",
    );
  });

  it("should take the only environment, else local, else refuse", async () => {
    const only = await resolve("version: 1\nenvironments:\n  demo: {}\n", { scenarios: ["smoke"] });
    expect(only.environment.name).toBe("demo");
    const local = await resolve("version: 1\nenvironments:\n  demo: {}\n  local: {}\n", { scenarios: ["smoke"] });
    expect(local.environment.name).toBe("local");
    expect(await problem("version: 1\nenvironments:\n  demo: {}\n  production: {}\n", { scenarios: ["smoke"] })).toBe(
      "Failed to choose the environment: harness.yaml has demo, production, none named local, and no run.environment. Please name one on the command line (--env), or set run.environment.",
    );
  });

  it("should run the scenarios named, else run.scenarios, else refuse", async () => {
    const named = await resolve(LAYERED, { scenarios: ["catalogue", "catalogue", "partner-mix"] });
    expect(named.scenarios).toEqual(["catalogue", "partner-mix"]);
    expect(named.chosenBy.scenarios).toBe("command line");
    const fromFile = await resolve(LAYERED);
    expect(fromFile.scenarios).toEqual(["smoke"]);
    expect(await problem("version: 1\nenvironments:\n  local: {}\n")).toBe(
      "Failed to choose what to run from harness.yaml: no scenario is named and the file has no run.scenarios. Please name a scenario or set run.scenarios.",
    );
  });

  it("should refuse a scenario name the harness does not know, at its line, when told the known ones", async () => {
    const known = ["smoke", "catalogue", "partner-mix", "soak"];
    expect(await resolve(LAYERED, { knownScenarios: known })).toBeDefined();
    expect(
      await problem(LAYERED.replace("[smoke, partner-mix]", "[smoke, partner-mixx]"), { knownScenarios: known }),
    ).toBe(
      "Failed to read the run file harness.yaml:19:31: environments.demo.allowedScenarios[1] is partner-mixx, which is not a scenario of the harness. Please use partner-mix (the closest).",
    );
  });
});

describe("resolveRunFile: secrets", () => {
  const withKeys = (keys: string) => `version: 1
environments:
  demo:
    target: url
    baseUrl: https://demo.example.com
    keys: ${keys}
`;

  it("should read keys from a variable, separated by commas, spaces or newlines", async () => {
    const resolved = await resolve(
      withKeys("{ env: ATD_DEMO_KEYS }"),
      { scenarios: ["smoke"] },
      {
        ATD_DEMO_KEYS: "k1,k2 k3\nk4, k5\n",
      },
    );
    expect(resolved.apiKeys).toEqual(["k1", "k2", "k3", "k4", "k5"]);
    expect(resolved.values).not.toHaveProperty("keys");
    expect(resolved.sources.keys).toMatch(/harness\.yaml environments\.demo$/);
  });

  it("should refuse an unset or empty variable, naming it", async () => {
    const text = withKeys("{ env: ATD_DEMO_KEYS }");
    expect(await problem(text, { scenarios: ["smoke"] })).toBe(
      "Failed to read the run file harness.yaml:6:18: environments.demo.keys reads the variable ATD_DEMO_KEYS, which is not set. Please export ATD_DEMO_KEYS with the API keys (comma, space or newline separated), or read keys from a file outside the repository: { file: path }.",
    );
    expect(await problem(text, { scenarios: ["smoke"] }, { ATD_DEMO_KEYS: " \n" })).toContain(
      "reads the variable ATD_DEMO_KEYS, which is empty.",
    );
  });

  it("should read keys and a token from files, as --keys reads them, ~ being the home folder", async () => {
    const home = path.join(dir, "home");
    await mkdir(path.join(home, ".config/atd"), { recursive: true });
    await writeFile(path.join(home, ".config/atd/demo-keys.txt"), "# the demo's keys\nk1\n\n  k2  \n");
    await writeFile(path.join(home, ".config/atd/keys.json"), '["j1", "j2"]');
    await writeFile(path.join(home, ".config/atd/token"), "  t0ken\n");
    const text = `version: 1
defaults:
  alternativesKeys: { file: ~/.config/atd/keys.json }
environments:
  demo:
    keys: { file: ~/.config/atd/demo-keys.txt }
    controlToken: { file: ~/.config/atd/token }
`;
    const resolved = await resolve(text, { scenarios: ["smoke"] }, { HOME: home });
    expect(resolved.apiKeys).toEqual(["k1", "k2"]);
    expect(resolved.alternativesKeys).toEqual(["j1", "j2"]);
    expect(resolved.controlToken).toBe("t0ken");
  });

  it("should read a token from a variable, trimmed", async () => {
    const text = "version: 1\nenvironments:\n  demo:\n    controlToken: { env: TOKEN }\n";
    const resolved = await resolve(text, { scenarios: ["smoke"] }, { TOKEN: " abc \n" });
    expect(resolved.controlToken).toBe("abc");
  });

  it("should refuse a missing or empty secret file", async () => {
    const text = withKeys("{ file: no-such-keys.txt }");
    expect(await problem(text, { scenarios: ["smoke"] })).toBe(
      "Failed to read the run file harness.yaml:6:19: environments.demo.keys reads no-such-keys.txt: no such file. Please write the API keys (comma, space or newline separated) there, or fix the path.",
    );
    const empty = await runFileOf(withKeys("{ file: empty.txt }"));
    await writeFile(path.join(path.dirname(empty), "empty.txt"), "# none yet\n");
    const error = await resolveRunFile(await readRunFile(empty), { scenarios: ["smoke"] }, {}).catch((e: unknown) => e);
    expect((error as HarnessError).message).toContain("empty.txt, which has no keys in it. Please give a JSON array");
  });

  it("should read only the secret that wins: an unset variable overridden by the environment is no problem", async () => {
    const text = `version: 1
defaults:
  keys: { env: UNSET_EVERYWHERE }
environments:
  demo:
    keys: { env: DEMO_KEYS }
`;
    const resolved = await resolve(text, { scenarios: ["smoke"] }, { DEMO_KEYS: "d1" });
    expect(resolved.apiKeys).toEqual(["d1"]);
  });

  it("should refuse a key file git tracks, since its keys end up in the repository's history", async () => {
    const repo = path.join(dir, "repo");
    await mkdir(repo, { recursive: true });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
    git("init", "-q");
    git("config", "user.email", "test@example.com");
    git("config", "user.name", "test");
    await writeFile(path.join(repo, "keys.txt"), "k1\n");
    git("add", "keys.txt");
    git("commit", "-q", "-m", "keys by mistake");
    await writeFile(path.join(repo, "harness.yaml"), withKeys("{ file: keys.txt }"));
    const error = await resolveRunFile(await readRunFile(path.join(repo, "harness.yaml")), { scenarios: ["smoke"] }, {})
      .then(() => undefined)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).exitCode).toBe(EXIT.usage);
    expect((error as HarnessError).message.replaceAll(`${repo}${path.sep}`, "")).toBe(
      `Failed to read the run file harness.yaml:6:19: environments.demo.keys reads keys.txt, a file git tracks: keys in a tracked file end up in the repository's history. Please move the file outside the repository (e.g. ~/.config/atd/), or read keys from a variable: { env: NAME }.`,
    );
  });
});

describe("isTrackedByGit", () => {
  it("should tell tracked and staged files from untracked ones and files outside any repository", async () => {
    const repo = path.join(dir, "tracked-repo");
    await mkdir(path.join(repo, "sub"), { recursive: true });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
    git("init", "-q");
    git("config", "user.email", "test@example.com");
    git("config", "user.name", "test");
    await writeFile(path.join(repo, "sub/committed.txt"), "k\n");
    git("add", "sub/committed.txt");
    git("commit", "-q", "-m", "one");
    await writeFile(path.join(repo, "staged.txt"), "k\n");
    git("add", "staged.txt");
    await writeFile(path.join(repo, "untracked.txt"), "k\n");
    const outside = path.join(dir, "outside.txt");
    await writeFile(outside, "k\n");

    expect(await isTrackedByGit(path.join(repo, "sub/committed.txt"))).toBe(true);
    expect(await isTrackedByGit(path.join(repo, "staged.txt"))).toBe(true);
    expect(await isTrackedByGit(path.join(repo, "untracked.txt"))).toBe(false);
    expect(await isTrackedByGit(path.join(repo, "missing.txt"))).toBe(false);
    expect(await isTrackedByGit(outside)).toBe(false);
    expect(await isTrackedByGit(path.join(dir, "no-such-folder/keys.txt"))).toBe(false);
  });
});
