/**
 * The service image, built offline, started with testcontainers on host networking: it answers, honours the options
 * the wrapper passes, fails with a clear message, and leaves no container behind. Never import msw here: it
 * intercepts the Docker socket.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS, HEADERS } from "../../lib/contract/endpoints.ts";
import {
  SERVICE_CONTAINER_LABEL,
  ServiceContainer,
  buildServiceImage,
  type StartedServiceContainer,
} from "../../lib/harness/service-container.ts";

const run = promisify(execFile);
const SEEDED_KEY = "atd-partner-01";

/** Ids of the containers that exist (running or not) among `ids`, asked of the Docker CLI, not of testcontainers. */
async function existingContainers(ids: readonly string[]): Promise<string[]> {
  const { stdout } = await run("docker", ["ps", "--all", "--quiet", "--no-trunc"]);
  const present = new Set(stdout.split("\n").map((line) => line.trim()));
  return ids.filter((id) => present.has(id));
}

async function labelledContainers(): Promise<string[]> {
  const { stdout } = await run("docker", [
    "ps",
    "--all",
    "--quiet",
    "--no-trunc",
    "--filter",
    `label=${SERVICE_CONTAINER_LABEL}`,
  ]);
  return stdout.split("\n").filter((line) => line.trim() !== "");
}

function getProducts(service: StartedServiceContainer, key = SEEDED_KEY): Promise<Response> {
  return fetch(`${service.apiUrl}${ENDPOINTS.products.path}`, { headers: { [HEADERS.auth]: key } });
}

describe("service container", () => {
  let image = "";
  let workDir = "";
  const seen: string[] = [];
  // Service containers that exist before this file runs (another run's, or a killed run's): not ours to judge.
  let preexisting = new Set<string>();
  const newLabelled = async () => (await labelledContainers()).filter((id) => !preexisting.has(id));

  beforeAll(async () => {
    preexisting = new Set(await labelledContainers());
    image = await buildServiceImage();
    workDir = await mkdtemp(path.join(tmpdir(), "atd-containers-"));
  });

  afterAll(async () => {
    if (workDir !== "") await rm(workDir, { recursive: true, force: true });
    expect(await newLabelled()).toEqual([]);
  });

  it("should build the image offline and tag it by content", async () => {
    expect(image).toMatch(/^atd-harness\/service:[0-9a-f]{16}$/);
    // A second build with nothing changed is a no-op that names the same image.
    expect(await buildServiceImage()).toBe(image);
  });

  it("should answer the public API and the control API on loopback, then be removed", async () => {
    const logFile = path.join(workDir, "logs", "service.log");
    let id = "";
    {
      await using service = await new ServiceContainer(image).withSeed(7).withLogFile(logFile).start();
      id = service.containerId;
      seen.push(id);
      expect(await existingContainers([id])).toEqual([id]);
      expect(new URL(service.apiUrl).hostname).toBe("127.0.0.1");
      expect(new URL(service.controlUrl).hostname).toBe("127.0.0.1");

      const products = await getProducts(service);
      expect(products.status).toBe(200);
      expect(products.headers.get("content-type")).toMatch(/application\/json/);
      expect(products.headers.get(HEADERS.rateLimitLimit)).toBe("400");
      await products.json();

      const health = await fetch(`${service.controlUrl}/__control/health`, { headers: service.controlHeaders() });
      expect(health.status).toBe(200);
      await health.body?.cancel();

      const withoutToken = await fetch(`${service.controlUrl}/__control/health`);
      expect(withoutToken.status).not.toBe(200);
      await withoutToken.body?.cancel();

      const { stdout } = await run("docker", [
        "inspect",
        "--format",
        "{{.HostConfig.NetworkMode}} {{.Config.User}}",
        id,
      ]);
      expect(stdout.trim()).toBe("host node");
    }
    // Leaving the `await using` block stopped and removed the container and flushed its log.
    expect(await existingContainers([id])).toEqual([]);
    const log = await readFile(logFile, "utf8");
    expect(log).toMatch(/"event":"listening"/);
  });

  it("should pass the rate limit through to the service", async () => {
    await using service = await new ServiceContainer(image).withRateLimit(2, 60).start();
    seen.push(service.containerId);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await getProducts(service);
      statuses.push(response.status);
      if (i < 2) expect(response.headers.get(HEADERS.rateLimitLimit)).toBe("2");
      else expect(Number(response.headers.get(HEADERS.retryAfter))).toBeGreaterThanOrEqual(1);
      await response.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("should fail with a clear message when the image is missing", async () => {
    await expect(new ServiceContainer("atd-harness/service:missing").start()).rejects.toThrow(
      /^Failed to start the service container: the image atd-harness\/service:missing is not present.*Please build it/s,
    );
  });

  it("should fail with the service's own words when it cannot start, and remove the container", async () => {
    const start = new ServiceContainer(image).withRateLimit(0, 60).withStartupTimeout(20_000).start();
    await expect(start).rejects.toThrow(/^Failed to start the service container: .*--rate-limit.*Please /s);
    expect(await newLabelled()).toEqual([]);
  });

  it("should leave none of the containers it started", async () => {
    expect(seen.length).toBe(2);
    expect(await existingContainers(seen)).toEqual([]);
  });
});
