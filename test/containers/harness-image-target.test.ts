/**
 * `harness run --target container --image <ref>`: any image through the generic testcontainers path (ApiContainer),
 * here the reference service's image passed as if it were someone else's (its ports, token and settings given with
 * --port, --control-port, --control-token and --env, its keys with --keys). Never import msw here: it intercepts the
 * Docker socket.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../lib/harness/chaos/toxiproxy-server.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";
import { SERVICE_CONTAINER_LABEL, buildServiceImage } from "../../lib/harness/service-container.ts";

const TOKEN = "image-target-token";

function targetContainers(): string[] {
  return execFileSync("docker", ["ps", "-aq", "--filter", `label=${SERVICE_CONTAINER_LABEL}`], { encoding: "utf8" })
    .split("\n")
    .filter((id) => id.trim().length > 0);
}

function summaryOf(out: string): { runDir: string; summary: RunSummary } {
  const runDir = path.join(out, readdirSync(out)[0] ?? "");
  return { runDir, summary: JSON.parse(readFileSync(path.join(runDir, "summary.json"), "utf8")) as RunSummary };
}

describe("harness run --target container --image", () => {
  let image = "";
  let keysFile = "";

  beforeAll(async () => {
    image = await buildServiceImage();
    const dir = mkdtempSync(path.join(tmpdir(), "atd-image-keys-"));
    keysFile = path.join(dir, "keys.txt");
    // The reference's seeded keys, handed over as a team hands over its own: the harness may not assume them.
    writeFileSync(
      keysFile,
      Array.from({ length: 40 }, (_, i) => `atd-partner-${String(i + 1).padStart(2, "0")}`).join("\n"),
    );
  });

  /** The flags that start `image` as a generic image on these ports. */
  async function imageArgs(startupTimeout = "60s"): Promise<{ args: string[]; apiPort: number }> {
    const apiPort = await freePort();
    let controlPort = await freePort();
    while (controlPort === apiPort) controlPort = await freePort();
    const args = [
      "--target",
      "container",
      "--image",
      image,
      "--port",
      String(apiPort),
      "--control-port",
      String(controlPort),
      "--control-token",
      TOKEN,
      "--container-env",
      `ATD_SERVICE_PORT=${String(apiPort)}`,
      "--container-env",
      `ATD_SERVICE_CONTROL_PORT=${String(controlPort)}`,
      "--container-env",
      `ATD_SERVICE_CONTROL_TOKEN=${TOKEN}`,
      "--keys",
      keysFile,
      "--startup-timeout",
      startupTimeout,
    ];
    return { args, apiPort };
  }

  it("should pass partner-mix, alternatives, invariants and webhooks against the image, keep its log and remove it", async () => {
    const before = targetContainers();
    const out = mkdtempSync(path.join(tmpdir(), "atd-image-run-"));
    const { args, apiPort } = await imageArgs();
    const result = spawnSync(
      process.execPath,
      [
        "scripts/harness.js",
        "run",
        "partner-mix",
        "alternatives",
        "invariants",
        "webhooks",
        ...args,
        "--duration",
        "5s",
        "--out",
        out,
      ],
      { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, CI: "true" }, timeout: 300_000 },
    );
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const { runDir, summary } = summaryOf(out);
    expect(summary.run.target).toMatchObject({ kind: "container", apiUrl: `http://127.0.0.1:${String(apiPort)}` });
    expect(summary.scenarios.map((s) => [s.scenario, s.verdict])).toEqual([
      ["partner-mix", "pass"],
      ["alternatives", "pass"],
      ["invariants", "pass"],
      ["webhooks", "pass"],
    ]);
    expect(summary.verdict).toBe("pass");
    // The container listened where --container-env told it to, and the harness waited on that --port.
    expect(readFileSync(path.join(runDir, "service.log"), "utf8")).toContain(
      `"event":"listening","api":"http://127.0.0.1:${String(apiPort)}"`,
    );
    expect(targetContainers()).toEqual(before);
  });

  it("should remove the container and still write the summary when Ctrl-C comes mid-run", async () => {
    const before = targetContainers();
    const out = mkdtempSync(path.join(tmpdir(), "atd-image-int-"));
    const { args } = await imageArgs();
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
    let running: string[] = [];
    let pressed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      // Once k6 is sending, note the container that runs, then press Ctrl-C once (a second exits at once).
      if (output.includes("▸ run:") && !pressed) {
        pressed = true;
        running = targetContainers().filter((id) => !before.includes(id));
        setTimeout(() => child.kill("SIGINT"), 3_000);
      }
    });
    const exitCode = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(exitCode, output).toBe(130);
    expect(running.length, "the image's container was running when Ctrl-C came").toBe(1);
    const { summary } = summaryOf(out);
    expect(summary.scenarios[0]?.errors).toContain("Interrupted before the end of the run.");
    expect(targetContainers()).toEqual(before);
  });

  it("should exit 3 with what it waited for when the image never answers on --port, and remove the container", async () => {
    const before = targetContainers();
    const out = mkdtempSync(path.join(tmpdir(), "atd-image-port-"));
    const { args } = await imageArgs("4s");
    const wrongPort = String(await freePort());
    const portAt = args.indexOf("--port") + 1;
    args[portAt] = wrongPort;
    const result = spawnSync(process.execPath, ["scripts/harness.js", "run", "smoke", ...args, "--out", out], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      env: { ...process.env, CI: "true" },
      timeout: 120_000,
    });
    expect(result.status, result.stdout + result.stderr).toBe(3);
    const { summary } = summaryOf(out);
    expect(summary.errors.join("\n")).toMatch(
      new RegExp(
        `^Failed to start the container ${image}: http://127\\.0\\.0\\.1:${wrongPort}/ did not give any HTTP answer within 4000 ms .*its last output: .*"event":"listening".*Please `,
      ),
    );
    expect(targetContainers()).toEqual(before);
  });

  it("should exit 2 before anything starts when --image has no --port", () => {
    const out = mkdtempSync(path.join(tmpdir(), "atd-image-usage-"));
    const result = spawnSync(
      process.execPath,
      [
        "scripts/harness.js",
        "run",
        "smoke",
        "--target",
        "container",
        "--image",
        image,
        "--keys",
        keysFile,
        "--out",
        out,
      ],
      { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, CI: "true" }, timeout: 60_000 },
    );
    expect(result.status, result.stdout + result.stderr).toBe(2);
    expect(result.stdout + result.stderr).toMatch(
      /Failed to read --image .*: the harness needs the port its API listens on\. Please pass --port\./,
    );
    expect(readdirSync(out)).toEqual([]);
  });
});
