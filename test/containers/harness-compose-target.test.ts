/**
 * `harness run --target compose`: a stack of two services built offline (test/data/compose/two-service.yml: the
 * reference service and a reverse proxy in front of it) started through testcontainers' DockerComposeEnvironment
 * with the pinned Docker Compose v2 (scripts/ensure-compose). The API traffic goes through the proxy (--service),
 * the hooks to the service (--control-service). Never import msw here: it intercepts the Docker socket.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../lib/harness/chaos/toxiproxy-server.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";
import { buildServiceImage } from "../../lib/harness/service-container.ts";
import { COMPOSE_PROJECT_LABEL } from "../../lib/harness/targets/compose-target.ts";
import { DEFAULT_KEY_PREFIX } from "../../service/options.ts";
import { secretLeaks } from "../k6/harness-process.ts";

const STACK = path.join(REPO_ROOT, "test", "data", "compose", "two-service.yml");
const TOKEN = "compose-target-token";

/** Every container of a compose project, running or not, asked of the Docker CLI. */
function projectContainers(project: string): string[] {
  return execFileSync("docker", ["ps", "-aq", "--filter", `label=${COMPOSE_PROJECT_LABEL}=${project}`], {
    encoding: "utf8",
  })
    .split("\n")
    .filter((id) => id.trim().length > 0);
}

/** The project the harness said it started ("compose project atd-harness-..."). */
function projectOf(output: string): string {
  const project = /compose project (atd-harness-[0-9a-f]+)/.exec(output)?.[1];
  expect(project, output).toBeDefined();
  return project ?? "";
}

function summaryOf(out: string): { runDir: string; summary: RunSummary } {
  const runDir = path.join(out, readdirSync(out)[0] ?? "");
  return { runDir, summary: JSON.parse(readFileSync(path.join(runDir, "summary.json"), "utf8")) as RunSummary };
}

describe("harness run --target compose", () => {
  let keysFile = "";

  beforeAll(async () => {
    // The stack's service image is atd-harness/service:local, which this (re)points at the newest build.
    await buildServiceImage();
    keysFile = path.join(mkdtempSync(path.join(tmpdir(), "atd-compose-keys-")), "keys.txt");
    writeFileSync(
      keysFile,
      Array.from({ length: 40 }, (_, i) => `atd-partner-${String(i + 1).padStart(2, "0")}`).join("\n"),
    );
  });

  async function stackArgs(): Promise<{ args: string[]; ports: { proxy: number; service: number } }> {
    const ports: number[] = [];
    while (ports.length < 3) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    const [proxy = 0, service = 0, control = 0] = ports;
    const args = [
      "--target",
      "compose",
      "--compose-file",
      STACK,
      "--service",
      "proxy",
      "--port",
      String(proxy),
      "--control-service",
      "service",
      "--control-port",
      String(control),
      "--control-token",
      TOKEN,
      "--container-env",
      `PROXY_PORT=${String(proxy)}`,
      "--container-env",
      `SERVICE_PORT=${String(service)}`,
      "--container-env",
      `CONTROL_PORT=${String(control)}`,
      "--container-env",
      `CONTROL_TOKEN=${TOKEN}`,
      // The proxy answers 502 until the service behind it is up; the API's 401 without a key means both are.
      "--wait-http",
      "/v2/config:401",
      "--keys",
      keysFile,
    ];
    return { args, ports: { proxy, service } };
  }

  it("should pass partner-mix through the proxy in front of the service, keep every service's log and take the stack down", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "atd-compose-run-"));
    const { args, ports } = await stackArgs();
    const result = spawnSync(
      process.execPath,
      ["scripts/harness.js", "run", "partner-mix", ...args, "--duration", "5s", "--out", out],
      { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, CI: "true" }, timeout: 300_000 },
    );
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const { runDir, summary } = summaryOf(out);
    expect(summary.run.target).toMatchObject({ kind: "compose", apiUrl: `http://127.0.0.1:${String(ports.proxy)}` });
    expect(summary.scenarios.map((s) => [s.scenario, s.verdict])).toEqual([["partner-mix", "pass"]]);
    expect(summary.verdict).toBe("pass");
    // Both services' output is kept, to the proxy's last line: the traffic really crossed it.
    expect(readFileSync(path.join(runDir, "compose-service.log"), "utf8")).toContain(
      `"event":"listening","api":"http://127.0.0.1:${String(ports.service)}"`,
    );
    const proxyLog = readFileSync(path.join(runDir, "compose-proxy.log"), "utf8");
    expect(proxyLog).toContain(`"event":"listening","proxy":"http://127.0.0.1:${String(ports.proxy)}"`);
    const forwarded = Number(/"event":"stopped","forwarded":(\d+)/.exec(proxyLog)?.[1] ?? 0);
    expect(forwarded).toBeGreaterThan(50);
    expect(projectContainers(projectOf(result.stdout))).toEqual([]);
    // The keys and the control token (also in the stack's environment) stay out of every file, the logs included.
    const run = { exitCode: result.status, output: result.stdout + result.stderr, summary, runDir };
    expect(secretLeaks(run, [DEFAULT_KEY_PREFIX, TOKEN])).toEqual([]);
    expect(summary.run.redacted).toBeUndefined();
  });

  it("should exit 3 naming the service that never became ready, keep every service's log and take the stack down", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "atd-compose-ready-"));
    const { args } = await stackArgs();
    const wrongPort = String(await freePort());
    args[args.indexOf("--port") + 1] = wrongPort;
    const result = spawnSync(
      process.execPath,
      ["scripts/harness.js", "run", "smoke", ...args, "--startup-timeout", "5s", "--out", out],
      { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, CI: "true" }, timeout: 120_000 },
    );
    expect(result.status, result.stdout + result.stderr).toBe(3);
    const { runDir, summary } = summaryOf(out);
    expect(summary.errors.join("\n")).toMatch(
      new RegExp(
        `^Failed to start the compose stack .*two-service\\.yml: service proxy: http://127\\.0\\.0\\.1:${wrongPort}/v2/config did not give HTTP 401 within 5000 ms .*Please `,
      ),
    );
    for (const service of ["proxy", "service"]) {
      expect(readFileSync(path.join(runDir, `compose-${service}.log`), "utf8")).toContain('"event":"listening"');
    }
    expect(projectContainers(projectOf(result.stdout))).toEqual([]);
  });

  it("should take every container of the stack down and still write the summary when Ctrl-C comes mid-run", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "atd-compose-int-"));
    const { args } = await stackArgs();
    const child = spawn(
      process.execPath,
      ["scripts/harness.js", "run", "smoke", ...args, "--duration", "60s", "--out", out],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, CI: "true" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    let pressed = false;
    let running: string[] = [];
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      // Once k6 is sending, note the stack's containers, then press Ctrl-C once (a second exits at once).
      if (output.includes("▸ run:") && !pressed) {
        pressed = true;
        running = projectContainers(projectOf(output));
        setTimeout(() => child.kill("SIGINT"), 3_000);
      }
    });
    const exitCode = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(exitCode, output).toBe(130);
    expect(running.length, "both services were running when Ctrl-C came").toBe(2);
    const { runDir, summary } = summaryOf(out);
    expect(summary.scenarios[0]?.errors).toContain("Interrupted before the end of the run.");
    expect(projectContainers(projectOf(output))).toEqual([]);
    expect(readdirSync(runDir)).toEqual(expect.arrayContaining(["compose-proxy.log", "compose-service.log"]));
  });
});
