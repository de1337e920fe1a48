/**
 * The flags of the container and compose targets (--image, --port, --container-env, --container-env-file, --wait-http, --wait-log,
 * --startup-timeout, --cpus, --memory, --compose-file, --service, --control-service) are read and checked before
 * anything starts: a bad one is a HarnessError with exit 2 that says what to change.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT, HarnessError } from "../../lib/harness/exit-codes.ts";
import {
  parseMemory,
  parseWaitHttp,
  readEnvFile,
  readTargetSpec,
  type TargetKind,
  type TargetFlags,
} from "../../lib/harness/run-settings.ts";

const dir = mkdtempSync(path.join(tmpdir(), "atd-target-flags-"));
const file = (name: string, text: string): string => {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
};
const keys = file("keys.txt", "key-a\nkey-b\n");
const compose = file(
  "stack.yml",
  "services:\n  api:\n    image: example/api\n    network_mode: host\n  db:\n    image: example/db\n",
);

/** The spec of these flags; `keysFile` null: no --keys. */
function spec(target: TargetKind, flags: TargetFlags, keysFile: string | null = keys) {
  return readTargetSpec({ target, keysGiven: keysFile !== null, targetFlags: flags }, []);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarnessError);
  expect((error as HarnessError).exitCode).toBe(EXIT.usage);
  const message = (error as HarnessError).message;
  expect(message).toMatch(/^Failed to [^\n]+\. Please [^\n]+\.$/);
  return message;
}

describe("container target flags", () => {
  it("should turn valid flags into the image's spec, --container-env winning over --container-env-file", async () => {
    const envFile = file("app.env", "# settings\nLOG_LEVEL=info\n\nDB_URL=postgres://db/x?a=b\nGREETING=\n");
    const { container, compose: none } = await spec("container", {
      image: "example/api:rc1",
      port: "8080",
      controlPort: "8081",
      controlToken: "secret",
      env: ["LOG_LEVEL=debug", "EXTRA=a=b"],
      envFile,
      waitHttp: "/v2/config:401",
      startupTimeout: "2m",
      cpus: 1.5,
      memory: "512m",
    });
    expect(none).toBeUndefined();
    expect(container).toEqual({
      image: "example/api:rc1",
      apiPort: 8080,
      controlPort: 8081,
      controlToken: "secret",
      environment: { LOG_LEVEL: "debug", DB_URL: "postgres://db/x?a=b", GREETING: "", EXTRA: "a=b" },
      readyWhen: { kind: "http", path: "/v2/config", status: 401 },
      startupTimeoutMs: 120_000,
      cpus: 1.5,
      memoryBytes: 512 * 1024 * 1024,
    });
  });

  it("should leave the reference image's ports and keys to their defaults without --image", async () => {
    const { container } = await spec("container", { serviceCpus: 0.5 }, null);
    expect(container).toMatchObject({ image: undefined, apiPort: undefined, cpus: 0.5, startupTimeoutMs: 60_000 });
  });

  it("should refuse --image without --port, and without --keys", async () => {
    expect(await refusal(spec("container", { image: "example/api" }))).toMatch(/--image example\/api.*--port/);
    expect(await refusal(spec("container", { image: "example/api", port: "80" }, null))).toMatch(
      /Failed to pick API keys: the image example\/api is not the reference service.*--keys/,
    );
  });

  it("should refuse a port out of range or not a number", async () => {
    for (const port of ["0", "65536", "80x", ""]) {
      expect(await refusal(spec("container", { image: "a", port }))).toMatch(/--port .*not a TCP port/);
    }
  });

  it("should refuse --control-port without a token", async () => {
    expect(await refusal(spec("container", { image: "a", port: "1", controlPort: "2" }))).toMatch(
      /--control-port: .*X-Control-Token.*--control-token/,
    );
  });

  it("should refuse a --container-env that is not KEY=VALUE and an env file line with a bad name", async () => {
    expect(await refusal(spec("container", { env: ["NOVALUE"] }))).toMatch(/--container-env "NOVALUE"/);
    expect(await refusal(spec("container", { env: ["1X=2"] }))).toMatch(/--container-env "1X=2"/);
    const bad = file("bad.env", "OK=1\nnot a name=2\n");
    expect(await refusal(spec("container", { envFile: bad }))).toMatch(/--container-env-file .*bad\.env line 2/);
  });

  it("should refuse a missing --container-env-file", async () => {
    expect(await refusal(spec("container", { envFile: path.join(dir, "missing.env") }))).toMatch(
      /the env file .*missing\.env: no such file/,
    );
  });

  it("should take a bare name in an env file from the harness's own environment, as docker run does", async () => {
    process.env.ATD_TEST_FROM_HOST = "host-value";
    const env = await readEnvFile(file("bare.env", "ATD_TEST_FROM_HOST\nATD_TEST_UNSET_EVERYWHERE\n"));
    delete process.env.ATD_TEST_FROM_HOST;
    expect(env).toEqual({ ATD_TEST_FROM_HOST: "host-value" });
  });

  it("should read --wait-http's path and optional status, and refuse anything else", async () => {
    expect(parseWaitHttp("/health")).toEqual({ kind: "http", path: "/health", status: undefined });
    expect(parseWaitHttp("/a:b/c:204")).toEqual({ kind: "http", path: "/a:b/c", status: 204 });
    for (const value of ["health", "/x:099", "/x:700", "/a b"]) {
      expect(await refusal(spec("container", { waitHttp: value }))).toMatch(/--wait-http/);
    }
  });

  it("should refuse a --wait-log that is not a regular expression, and both waits at once", async () => {
    expect(await refusal(spec("container", { waitLog: "(" }))).toMatch(/--wait-log "\(": Invalid regular expression/);
    expect(await refusal(spec("container", { waitLog: "up", waitHttp: "/" }))).toMatch(/--wait-http and --wait-log/);
  });

  it("should refuse a --startup-timeout that is not a duration", async () => {
    expect(await refusal(spec("container", { startupTimeout: "60" }))).toMatch(/--startup-timeout "60"/);
  });

  it("should read --memory as Docker does and refuse less than 6m", async () => {
    expect(parseMemory("2g")).toBe(2 * 1024 ** 3);
    expect(parseMemory("6291456")).toBe(6 * 1024 * 1024);
    for (const memory of ["5m", "lots", "1t"]) {
      expect(await refusal(spec("container", { memory }))).toMatch(/--memory/);
    }
  });

  it("should refuse --cpus and --service-cpus that disagree", async () => {
    expect(await refusal(spec("container", { cpus: 1, serviceCpus: 2 }))).toMatch(/--cpus 1: --service-cpus 2/);
  });

  it("should refuse --service-args with another image (its settings are --container-env)", async () => {
    const message = await refusal(
      readTargetSpec({ target: "container", keysGiven: true, targetFlags: { image: "a", port: "1" } }, ["--seed", "3"]),
    );
    expect(message).toMatch(/--service-args.*--container-env/);
  });

  it("should refuse a flag of another target instead of ignoring it", async () => {
    expect(await refusal(spec("embedded", { image: "a" }))).toMatch(/--image: it applies to --target container/);
    expect(await refusal(spec("embedded", { cpus: 1 }))).toMatch(/--cpus.*--service-cpus/);
    expect(await refusal(spec("url", { port: "1" }))).toMatch(/--port.*--base-url/);
    expect(await refusal(spec("container", { composeFile: compose }))).toMatch(/--compose-file.*--target compose/);
    expect(await refusal(spec("compose", { memory: "1g" }))).toMatch(/--memory.*compose file/);
  });
});

describe("compose target flags", () => {
  it("should turn valid flags into the stack's spec", async () => {
    const { compose: stack } = await spec("compose", {
      composeFile: compose,
      service: "api",
      port: "9000",
      controlService: "db",
      controlPort: "9001",
      controlToken: "t",
      env: ["API_PORT=9000"],
      waitLog: "ready",
    });
    expect(stack).toMatchObject({
      file: compose,
      services: ["api", "db"],
      service: "api",
      controlService: "db",
      apiPort: 9000,
      controlPort: 9001,
      environment: { API_PORT: "9000" },
      envFile: undefined,
    });
    expect(stack?.readyWhen).toEqual({ kind: "log", pattern: /ready/ });
  });

  it("should refuse a missing file, a file that is not a stack, and a service it does not have", async () => {
    expect(await refusal(spec("compose", { service: "api", port: "1" }))).toMatch(/no --compose-file/);
    expect(await refusal(spec("compose", { composeFile: path.join(dir, "none.yml"), service: "api" }))).toMatch(
      /the compose file .*none\.yml: no such file/,
    );
    const empty = file("empty.yml", "version: '3'\n");
    expect(await refusal(spec("compose", { composeFile: empty, service: "api" }))).toMatch(/it has no services/);
    expect(await refusal(spec("compose", { composeFile: compose, service: "web", port: "1" }))).toMatch(
      /--service web: .* no such service\. Please name one of: api, db\./,
    );
    expect(
      await refusal(spec("compose", { composeFile: compose, service: "api", port: "1", controlService: "cache" })),
    ).toMatch(/--control-service cache/);
  });

  it("should refuse a stack without --service, --port or --keys, and --control-service without its port", async () => {
    expect(await refusal(spec("compose", { composeFile: compose }))).toMatch(/no --service.*api, db/);
    expect(await refusal(spec("compose", { composeFile: compose, service: "api" }))).toMatch(/no --port/);
    expect(await refusal(spec("compose", { composeFile: compose, service: "api", port: "1" }, null))).toMatch(/--keys/);
    expect(
      await refusal(spec("compose", { composeFile: compose, service: "api", port: "1", controlService: "db" })),
    ).toMatch(/--control-service db: .*--control-port/);
  });
});
