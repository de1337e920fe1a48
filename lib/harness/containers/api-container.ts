/**
 * Any image of the partner API as a testcontainers module, the way testcontainers' own modules are built: a
 * GenericContainer with `with...` builders and a Started type. It runs on host networking, so the ports the API and
 * its test hooks listen on are the container's own ports on 127.0.0.1 (no mapping, traffic stays on loopback).
 *
 *   await using api = await new ApiContainer("registry.example/partner-api:rc-42")
 *     .withApiPort(8080)
 *     .withControl(8081, "secret")                 // the hooks' port and X-Control-Token, when the image has them
 *     .withEnvironment({ DATABASE_URL: "..." })
 *     .withHttpWait("/health", 200)                // or .withLogWait(/listening/); default: the API port answers HTTP
 *     .withLogFile("reports/<run>/service.log")
 *     .start();
 *   await fetch(`${api.apiUrl}/v2/products`, { headers: { "X-Authorization": key } });
 *
 * Ready means: the wait above passed and, with a control port, GET /__control/health answered 200 with the token,
 * all within the startup timeout (default 60 s); a container that exits first fails at once with its exit code and
 * last output. A container that never became ready is removed by testcontainers; a started one by stop() or by
 * leaving `await using`. The reference service's module (ServiceContainer) is a subclass that only fills in defaults.
 */
import {
  AbstractStartedContainer,
  GenericContainer,
  ImageName,
  Wait,
  type ContainerRuntimeClient,
  type StartedTestContainer,
  type StopOptions,
  type StoppedTestContainer,
  type WaitStrategy,
} from "testcontainers";
import { HEADERS } from "../../contract/endpoints.ts";
import { OWNER, OWNER_LABEL, ownContainers, throwIfInterrupted } from "../interrupt.ts";
import { ContainerLogs } from "./container-logs.ts";
import { containerRuntime, disableRyukWhenUnavailable } from "./container-runtime.ts";
import { ContainerStartError } from "./container-start-error.ts";
import { exitCodeOf } from "./exit-code-of.ts";
import { HostHttpWaitStrategy } from "./host-http-wait-strategy.ts";
import { LogLineWaitStrategy } from "./log-line-wait-strategy.ts";
import { NotReadyError } from "./not-ready-error.ts";

/** Label on every container the harness starts, so a run (or a person) can find leftovers: docker ps -f label=... */
export const TARGET_CONTAINER_LABEL = "atd-harness.role";

/**
 * The required hook every implementation has (docs/contract-gaps.md, Control API (test hooks)): the control side is up
 * when it answers 200.
 */
export const CONTROL_HEALTH_PATH = "/__control/health";

const DEFAULT_STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 2_000;

/** How readiness is told, before the control health check: --wait-http or --wait-log. */
export type ReadyWhen = { kind: "http"; path: string; status: number | undefined } | { kind: "log"; pattern: RegExp };

export interface StartedApiParts {
  apiUrl: string;
  controlUrl: string | undefined;
  controlToken: string | undefined;
  logs: ContainerLogs;
  /** Takes the container off the last resorts (it is removed). */
  disown: () => void;
}

export class ApiContainer extends GenericContainer {
  readonly #image: string;
  #apiPort: number | undefined;
  #control: { port: number; token: string } | undefined;
  #readyWhen: ReadyWhen | undefined;
  #logFile: string | undefined;
  #timeoutMs = DEFAULT_STARTUP_TIMEOUT_MS;
  #signal: AbortSignal | undefined;
  #createdId: string | undefined;

  constructor(image: string) {
    super(image);
    this.#image = image;
    // The owner label lets a last resort find the container of a harness that must end now (lib/harness/interrupt.ts).
    this.withNetworkMode("host").withLabels({ [TARGET_CONTAINER_LABEL]: "target", [OWNER_LABEL]: OWNER });
  }

  /**
   * A signal that abandons the start (Ctrl-C, SIGTERM): the readiness waits stop at once, the container is removed,
   * and start() rejects with the signal's reason.
   */
  withSignal(signal: AbortSignal | undefined): this {
    this.#signal = signal;
    return this;
  }

  /** Called by GenericContainer once the container exists: from then on a failed start removes it by its id. */
  protected override containerCreated(containerId: string): Promise<void> {
    this.#createdId = containerId;
    return Promise.resolve();
  }

  /** The port the partner API listens on, inside the container and so on 127.0.0.1 (host networking). */
  withApiPort(port: number): this {
    this.#apiPort = port;
    return this;
  }

  /** The port of the test hooks (control API) and the X-Control-Token they require. */
  withControl(port: number, token: string): this {
    this.#control = { port, token };
    return this;
  }

  /** Ready when GET `path` on the API port answers `status` (any status when undefined). */
  withHttpWait(path: string, status?: number): this {
    this.#readyWhen = { kind: "http", path, status };
    return this;
  }

  /** Ready when the container prints a line matching `pattern`. */
  withLogWait(pattern: RegExp): this {
    this.#readyWhen = { kind: "log", pattern };
    return this;
  }

  /** Readiness as the command line gives it (undefined: the API port answers HTTP). */
  withReadyWhen(readyWhen: ReadyWhen | undefined): this {
    this.#readyWhen = readyWhen;
    return this;
  }

  override withStartupTimeout(startupTimeoutMs: number): this {
    this.#timeoutMs = startupTimeoutMs;
    return super.withStartupTimeout(startupTimeoutMs);
  }

  /** Saves the container's stdout and stderr to this file (directories are created; the file is overwritten). */
  withLogFile(file: string): this {
    this.#logFile = file;
    return this;
  }

  /** A CPU budget in cores (Docker's --cpus: a CFS quota over Docker's 100 ms period). */
  withCpus(cores: number): this {
    this.hostConfig.NanoCpus = Math.round(cores * 1e9);
    return this;
  }

  /** A memory limit in bytes (Docker's --memory; at least 6 MiB). */
  withMemory(bytes: number): this {
    this.hostConfig.Memory = Math.round(bytes);
    return this;
  }

  /** The image this container runs. */
  get image(): string {
    return this.#image;
  }

  /** What an error message calls this container. */
  protected describe(): string {
    return `the container ${this.#image}`;
  }

  /** Settles what start() needs before the container is created (a subclass fills in its defaults here). */
  protected prepare(): Promise<void> {
    return Promise.resolve();
  }

  override async start(): Promise<StartedApiContainer> {
    const { container, parts } = await this.launch();
    return new StartedApiContainer(container, parts);
  }

  /** Starts the container and waits until it is ready; for start() and the start() of subclasses. */
  protected async launch(): Promise<{ container: StartedTestContainer; parts: StartedApiParts }> {
    await this.prepare();
    const apiPort = this.#apiPort;
    if (apiPort === undefined) {
      throw this.#startError("no API port was given", "name the port the image's API listens on (withApiPort)");
    }
    const client = await containerRuntime(this.describe());
    await disableRyukWhenUnavailable(client);

    const waits: WaitStrategy[] = [readinessOf(this.#readyWhen, apiPort, this.#signal)];
    if (this.#control !== undefined) {
      waits.push(
        new HostHttpWaitStrategy(this.#control.port, CONTROL_HEALTH_PATH)
          .withHeaders({ [HEADERS.control]: this.#control.token })
          .forStatusCode(200)
          .withSignal(this.#signal),
      );
    }
    const logs = new ContainerLogs(this.#logFile);
    let container: StartedTestContainer;
    throwIfInterrupted(this.#signal);
    // Until it is stopped, a harness that must end at once removes it (docker rm -f by its owner label).
    const disown = ownContainers(OWNER_LABEL, OWNER);
    try {
      this.withLogConsumer((stream) => {
        logs.consume(stream);
      })
        .withWaitStrategy(waits.length === 1 ? (waits[0] as WaitStrategy) : Wait.forAll(waits))
        .withStartupTimeout(this.#timeoutMs);
      // GenericContainer's own start: this class's start() is the one that calls launch().
      container = await super.start();
    } catch (error) {
      // testcontainers has already stopped and removed a container that never became ready; one that failed
      // between its creation and the waits (or whose start was interrupted there) is removed here.
      await removeContainer(client, this.#createdId);
      disown();
      await logs.close();
      throwIfInterrupted(this.#signal);
      const reason = error instanceof NotReadyError ? error.reason : errorMessage(error);
      throw this.#startError(`${reason}${logs.describe()}`, this.fixAdvice());
    }
    return {
      container,
      parts: {
        disown,
        apiUrl: `http://127.0.0.1:${String(apiPort)}`,
        controlUrl: this.#control === undefined ? undefined : `http://127.0.0.1:${String(this.#control.port)}`,
        controlToken: this.#control?.token,
        logs,
      },
    };
  }

  /** The "Please ..." of a failed start. */
  protected fixAdvice(): string {
    return (
      "fix what the container's output says, check --port/--control-port against the ports the image listens on, " +
      "and give it more time with --startup-timeout if it is only slow"
    );
  }

  /** Whether the image is in the local store (nothing needs to be pulled). */
  protected async imagePresent(): Promise<boolean> {
    const client = await containerRuntime(this.describe());
    return client.image.exists(ImageName.fromString(this.#image));
  }

  #startError(reason: string, fix: string): ContainerStartError {
    return new ContainerStartError(`Failed to start ${this.describe()}: ${reason}. Please ${fix}.`);
  }
}

function readinessOf(readyWhen: ReadyWhen | undefined, apiPort: number, signal: AbortSignal | undefined): WaitStrategy {
  if (readyWhen?.kind === "log") return new LogLineWaitStrategy(readyWhen.pattern).withSignal(signal);
  const wait = new HostHttpWaitStrategy(apiPort, readyWhen?.path ?? "/").withSignal(signal);
  return readyWhen?.status === undefined ? wait : wait.forStatusCode(readyWhen.status);
}

/** Removes a container by id if it is still there (force: a running one too); quiet when it is gone. */
async function removeContainer(client: ContainerRuntimeClient, id: string | undefined): Promise<void> {
  if (id === undefined) return;
  await client.container
    .getById(id)
    .remove({ force: true, v: true })
    .catch(() => undefined);
}

/** A running API container. stop() (or leaving an `await using` block) stops and removes it, then saves its log. */
export class StartedApiContainer extends AbstractStartedContainer {
  /** Base URL of the partner API, e.g. http://127.0.0.1:8080 (no trailing slash). */
  readonly apiUrl: string;
  /** Base URL of the test hooks, when the container has them. */
  readonly controlUrl: string | undefined;
  readonly controlToken: string | undefined;
  readonly #logs: ContainerLogs;
  readonly #disown: () => void;
  #stopped: Promise<StoppedTestContainer> | undefined;

  constructor(container: StartedTestContainer, parts: StartedApiParts) {
    super(container);
    this.apiUrl = parts.apiUrl;
    this.controlUrl = parts.controlUrl;
    this.controlToken = parts.controlToken;
    this.#logs = parts.logs;
    this.#disown = parts.disown;
  }

  get containerId(): string {
    return this.getId();
  }

  /** The headers the test hooks require (none when the container has no hooks). */
  controlHeaders(): Record<string, string> {
    return this.controlToken === undefined ? {} : { [HEADERS.control]: this.controlToken };
  }

  /** The container's most recent output lines (all of it is in the log file, when one was asked for). */
  recentLogs(): string[] {
    return this.#logs.recent();
  }

  /** The exit code once the container has stopped on its own; undefined while it runs. */
  async exitCode(): Promise<number | undefined> {
    const client = await containerRuntime("the container");
    return exitCodeOf(client.container.getById(this.getId()));
  }

  /** Stops and removes the container (a 2 s grace), then flushes its log file. Safe to call more than once. */
  override stop(options?: Partial<StopOptions>): Promise<StoppedTestContainer> {
    this.#stopped ??= (async () => {
      try {
        const stopped = await super.stop({ timeout: STOP_TIMEOUT_MS, remove: true, ...options });
        this.#disown();
        return stopped;
      } finally {
        await this.#logs.close();
      }
    })();
    return this.#stopped;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
