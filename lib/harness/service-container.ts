/**
 * The reference service in a container, started with testcontainers: used by the containers tests and by the
 * harness's container target.
 *
 *   const image = await buildServiceImage();          // scripts/build-service-image, offline
 *   await using service = await new ServiceContainer(image).withSeed(7).start();
 *   await fetch(`${service.apiUrl}/v2/products`, { headers: { "X-Authorization": "atd-partner-01" } });
 *
 * Containers run with host networking and bind 127.0.0.1 only. The service is asked for port 0 by default and reports
 * the ports it got in its `listening` line, so there is no free-port race. Ryuk (testcontainers' reaper) is turned
 * off when its image is not present locally, since nothing can be pulled here; stop() or `await using` removes the
 * container instead.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Readable } from "node:stream";
import {
  GenericContainer,
  ImageName,
  Wait,
  getContainerRuntimeClient,
  type ContainerRuntimeClient,
  type StartedTestContainer,
} from "testcontainers";
import { getReaperImage } from "testcontainers/build/reaper/reaper.js";
import { HEADERS } from "../contract/endpoints.ts";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BUILD_SERVICE_IMAGE = path.join(REPO_ROOT, "scripts", "build-service-image");

/** The tag scripts/build-service-image always (re)points at the newest build. */
export const SERVICE_IMAGE = "atd-harness/service:local";

/** Label on every service container, so a harness run (or a person) can find leftovers: docker ps -f label=... */
export const SERVICE_CONTAINER_LABEL = "atd-harness.role";

const LISTENING = /"event"\s*:\s*"listening"/;
const RECENT_LOG_LINES = 40;

export interface BuildServiceImageOptions {
  /** Rebuild even when an image with the same content hash exists. */
  force?: boolean;
  /** Default 10 minutes (the first build also imports the offline base image). */
  timeoutMs?: number;
}

/**
 * Builds the service image offline with scripts/build-service-image (starting a Docker engine first when needed) and
 * resolves to the content-hash tag it printed, e.g. "atd-harness/service:3f2a...".
 */
export async function buildServiceImage(options: BuildServiceImageOptions = {}): Promise<string> {
  const args = options.force === true ? ["--force"] : [];
  const { stdout, stderr, error } = await new Promise<{ stdout: string; stderr: string; error: Error | null }>(
    (resolve) => {
      execFile(
        BUILD_SERVICE_IMAGE,
        args,
        { cwd: REPO_ROOT, timeout: options.timeoutMs ?? 600_000, maxBuffer: 16 * 1024 * 1024 },
        (err, out, errOut) => {
          resolve({ stdout: out, stderr: errOut, error: err });
        },
      );
    },
  );
  const tag = stdout.trim().split("\n").at(-1)?.trim() ?? "";
  if (error !== null || !tag.startsWith("atd-harness/service:")) {
    const detail = lastLines(stderr, 8) || (error?.message ?? "no output");
    throw new Error(
      `Failed to build the service image: ${detail}. Please run scripts/build-service-image by hand to see the whole ` +
        `output (it needs a Docker engine: scripts/ensure-docker).`,
    );
  }
  return tag;
}

export interface ServiceContainerOptions {
  image: string;
  host: string;
  apiPort: number;
  controlPort: number;
  controlToken: string;
  seed: number | undefined;
  rateLimit: { limit: number; windowSeconds: number } | undefined;
  logFile: string | undefined;
  startupTimeoutMs: number;
  environment: Record<string, string>;
  /** Docker's --cpus; undefined: no limit. */
  cpus: number | undefined;
}

/** A testcontainers-style builder for the service container. Every with... returns this. */
export class ServiceContainer {
  readonly #options: ServiceContainerOptions;

  constructor(image: string = SERVICE_IMAGE) {
    this.#options = {
      image,
      host: "127.0.0.1",
      apiPort: 0,
      controlPort: 0,
      controlToken: randomBytes(16).toString("hex"),
      seed: undefined,
      rateLimit: undefined,
      logFile: undefined,
      startupTimeoutMs: 60_000,
      environment: {},
      cpus: undefined,
    };
  }

  withImage(image: string): this {
    this.#options.image = image;
    return this;
  }

  /** Fixed ports on 127.0.0.1 (host networking). Without it, the service picks free ones (port 0). */
  withPorts(apiPort: number, controlPort: number): this {
    this.#options.apiPort = apiPort;
    this.#options.controlPort = controlPort;
    return this;
  }

  /** The X-Control-Token the control API requires. Default: a random one, readable on the started container. */
  withControlToken(token: string): this {
    this.#options.controlToken = token;
    return this;
  }

  withSeed(seed: number): this {
    this.#options.seed = seed;
    return this;
  }

  /** The per-key allowance of the rate-limited GET endpoints (default 400 per 60 s). */
  withRateLimit(limit: number, windowSeconds: number): this {
    this.#options.rateLimit = { limit, windowSeconds };
    return this;
  }

  /** Saves the container's stdout and stderr to this file (directories are created; the file is overwritten). */
  withLogFile(file: string): this {
    this.#options.logFile = file;
    return this;
  }

  /** A CPU budget in cores (Docker's --cpus, CFS quota over Docker's 100 ms period). */
  withCpus(cores: number): this {
    this.#options.cpus = cores;
    return this;
  }

  withStartupTimeout(ms: number): this {
    this.#options.startupTimeoutMs = ms;
    return this;
  }

  /** Any other service option, as ATD_SERVICE_<FLAG> variables (e.g. ATD_SERVICE_PRODUCTS). */
  withEnvironment(environment: Record<string, string>): this {
    Object.assign(this.#options.environment, environment);
    return this;
  }

  async start(): Promise<StartedServiceContainer> {
    const o = { ...this.#options, environment: { ...this.#options.environment } };
    const client = await runtimeClient();
    if (!(await client.image.exists(ImageName.fromString(o.image)))) {
      throw startError(
        `the image ${o.image} is not present and no registry can be reached`,
        "build it first with scripts/build-service-image (or buildServiceImage() from lib/harness/service-container.ts)",
      );
    }
    await disableRyukWhenUnavailable(client);

    // Everything goes in as ATD_SERVICE_* variables, not flags: the token stays out of process listings.
    const environment: Record<string, string> = {
      ...o.environment,
      ATD_SERVICE_HOST: o.host,
      ATD_SERVICE_PORT: String(o.apiPort),
      ATD_SERVICE_CONTROL_PORT: String(o.controlPort),
      ATD_SERVICE_CONTROL_TOKEN: o.controlToken,
    };
    if (o.seed !== undefined) environment.ATD_SERVICE_SEED = String(o.seed);
    if (o.rateLimit !== undefined) {
      environment.ATD_SERVICE_RATE_LIMIT = String(o.rateLimit.limit);
      environment.ATD_SERVICE_RATE_WINDOW_SECONDS = String(o.rateLimit.windowSeconds);
    }

    const logs = new LogCollector(o.logFile);
    let container: StartedTestContainer;
    try {
      const generic = new GenericContainer(o.image);
      if (o.cpus !== undefined) generic.withResourcesQuota({ cpu: o.cpus });
      container = await generic
        .withNetworkMode("host")
        .withEnvironment(environment)
        .withLabels({ [SERVICE_CONTAINER_LABEL]: "service" })
        .withLogConsumer((stream) => {
          logs.consume(stream);
        })
        .withWaitStrategy(Wait.forLogMessage(LISTENING))
        .withStartupTimeout(o.startupTimeoutMs)
        .start();
    } catch (error) {
      // testcontainers has already stopped and removed a container that never became ready.
      await logs.close();
      const message = errorMessage(error);
      const reason = message.startsWith("Log stream ended")
        ? "the service exited before it was ready"
        : message.includes("not received after")
          ? `the service printed no listening line within ${o.startupTimeoutMs} ms`
          : message;
      throw startError(
        `${reason}${logs.describe()}`,
        "fix what the service's output says (its options come from the ServiceContainer with... calls), or rebuild " +
          "the image with scripts/build-service-image",
      );
    }

    let listening: ListeningLine;
    try {
      listening = await logs.listeningLine(5_000);
    } catch (error) {
      await container.stop({ timeout: 0, remove: true }).catch(() => undefined);
      await logs.close();
      throw startError(`${errorMessage(error)}${logs.describe()}`, "check the service's start-up output above");
    }

    const started = new StartedServiceContainer({ container, logs, controlToken: o.controlToken, ...listening });
    try {
      await waitForHealth(started, Math.max(5_000, o.startupTimeoutMs / 2));
    } catch (error) {
      await started.stop();
      throw startError(
        `${errorMessage(error)}${logs.describe()}`,
        "check that the service binds 127.0.0.1 and that nothing else holds its ports",
      );
    }
    return started;
  }
}

/** A running service container. stop() (or leaving an `await using` block) stops and removes it. */
export class StartedServiceContainer implements AsyncDisposable {
  readonly #container: StartedTestContainer;
  readonly #logs: LogCollector;
  #stopped: Promise<void> | undefined;
  /** Base URL of the public API, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly apiUrl: string;
  /** Base URL of the control API; requests need the X-Control-Token header (controlHeaders()). */
  readonly controlUrl: string;
  readonly controlToken: string;

  /** Made by ServiceContainer.start(). */
  constructor(parts: {
    container: StartedTestContainer;
    logs: LogCollector;
    controlToken: string;
    api: string;
    control: string;
  }) {
    this.#container = parts.container;
    this.#logs = parts.logs;
    this.controlToken = parts.controlToken;
    this.apiUrl = parts.api.replace(/\/+$/, "");
    this.controlUrl = parts.control.replace(/\/+$/, "");
  }

  get containerId(): string {
    return this.#container.getId();
  }

  /** The headers the control API requires. */
  controlHeaders(): Record<string, string> {
    return { [HEADERS.control]: this.controlToken };
  }

  /** The container's most recent output lines (all of it is in the log file, when one was asked for). */
  recentLogs(): string[] {
    return this.#logs.recent();
  }

  /** Stops and removes the container, then flushes the log file. Safe to call more than once. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      try {
        await this.#container.stop({ timeout: 2_000, remove: true });
      } finally {
        await this.#logs.close();
      }
    })();
    return this.#stopped;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}

interface ListeningLine {
  api: string;
  control: string;
}

/** Keeps the last lines of the container's output, saves all of it to a file if asked, and finds the ready line. */
class LogCollector {
  readonly #lines: string[] = [];
  readonly #file: WriteStream | undefined;
  #partial = "";
  #ended: Promise<void> = Promise.resolve();
  #listening: ListeningLine | undefined;
  readonly #waiters = new Set<() => void>();

  constructor(file: string | undefined) {
    if (file !== undefined) {
      mkdirSync(path.dirname(file), { recursive: true });
      this.#file = createWriteStream(file, { flags: "w" });
    }
  }

  consume(stream: Readable): void {
    this.#ended = new Promise((resolve) => {
      stream.on("data", (chunk: string | Buffer) => {
        const text = chunk.toString();
        this.#file?.write(text);
        this.#addText(text);
      });
      stream.on("end", resolve);
      stream.on("close", resolve);
      stream.on("error", () => {
        resolve();
      });
    });
  }

  #addText(text: string): void {
    const parts = (this.#partial + text).split("\n");
    this.#partial = parts.pop() ?? "";
    for (const line of parts) this.#addLine(line.replace(/\r$/, ""));
  }

  #addLine(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > RECENT_LOG_LINES) this.#lines.shift();
    if (this.#listening === undefined && LISTENING.test(line)) {
      this.#listening = parseListening(line);
      for (const wake of this.#waiters) wake();
    }
  }

  recent(): string[] {
    return this.#partial === "" ? [...this.#lines] : [...this.#lines, this.#partial];
  }

  /** The parsed listening line; it has already been seen by the wait strategy, so this is normally immediate. */
  async listeningLine(timeoutMs: number): Promise<ListeningLine> {
    if (this.#listening === undefined) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        const waiters = this.#waiters;
        function done(): void {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        }
        waiters.add(done);
      });
    }
    if (this.#listening === undefined) {
      throw new Error('the service printed no usable {"event":"listening","api":...,"control":...} line');
    }
    return this.#listening;
  }

  /** ", its last output: ..." for error messages, or "" when there was none. */
  describe(): string {
    const lines = this.recent().filter((line) => line.trim() !== "");
    return lines.length === 0 ? "" : `; its last output: ${lines.slice(-5).join(" | ").replace(/\.$/, "")}`;
  }

  /** Waits (briefly) for the log stream to end, then flushes and closes the file. */
  async close(): Promise<void> {
    await Promise.race([this.#ended, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    if (this.#partial !== "") {
      this.#addLine(this.#partial);
      this.#partial = "";
    }
    const file = this.#file;
    if (file !== undefined && !file.closed) {
      await new Promise<void>((resolve) => {
        file.end(resolve);
      });
    }
  }
}

function parseListening(line: string): ListeningLine | undefined {
  try {
    const parsed = JSON.parse(line.slice(line.indexOf("{"))) as Record<string, unknown>;
    if (typeof parsed.api === "string" && typeof parsed.control === "string") {
      return { api: parsed.api, control: parsed.control };
    }
  } catch {
    // Not JSON: listeningLine() reports it.
  }
  return undefined;
}

async function waitForHealth(service: StartedServiceContainer, timeoutMs: number): Promise<void> {
  const url = `${service.controlUrl}/__control/health`;
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { headers: service.controlHeaders(), signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = errorMessage(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the control health endpoint ${url} did not answer 200 within ${timeoutMs} ms (last: ${last})`);
}

async function runtimeClient(): Promise<ContainerRuntimeClient> {
  try {
    return await getContainerRuntimeClient();
  } catch (error) {
    throw startError(`no Docker engine answers (${errorMessage(error)})`, "run scripts/ensure-docker first");
  }
}

/** Ryuk cannot be pulled offline; without it, containers are removed by stop() / `await using`. */
async function disableRyukWhenUnavailable(client: ContainerRuntimeClient): Promise<void> {
  if (process.env.TESTCONTAINERS_RYUK_DISABLED !== undefined) return;
  const available = await client.image.exists(ImageName.fromString(getReaperImage())).catch(() => false);
  if (!available) process.env.TESTCONTAINERS_RYUK_DISABLED = "true";
}

function startError(reason: string, fix: string): Error {
  return new Error(`Failed to start the service container: ${reason}. Please ${fix}.`);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function lastLines(text: string, count: number): string {
  return text.trim().split("\n").slice(-count).join("\n");
}
