/**
 * A compose stack as the target (--target compose): the service under test with what it needs beside it (a database,
 * a cache, a gateway in front), started through testcontainers' DockerComposeEnvironment with the pinned Docker
 * Compose v2 (scripts/ensure-compose). --service names the service whose --port serves the partner API,
 * --control-service the one whose --control-port serves the test hooks (default: the same). With network_mode: host
 * in the file every port is the container's own on 127.0.0.1. Every service's output goes to
 * compose-<service>.log in the run directory; the whole stack is taken down (containers, networks, volumes) at the
 * end, on Ctrl-C (the run stops its target in a finally) and when it fails to come up.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import {
  DockerComposeEnvironment,
  getContainerRuntimeClient,
  type StartedDockerComposeEnvironment,
  type WaitStrategy,
} from "testcontainers";
import type { ComposeOptions } from "testcontainers/build/container-runtime/clients/compose/types.js";
import { HooksClient } from "../hooks/hooks-client.ts";
import { CONTROL_HEALTH_PATH } from "../containers/api-container.ts";
import { resolveCompose } from "../containers/compose-binary.ts";
import { ComposeServiceWaitStrategy } from "../containers/compose-service-wait-strategy.ts";
import { containerRuntime, disableRyukWhenUnavailable } from "../containers/container-runtime.ts";
import { ContainerStartError } from "../containers/container-start-error.ts";
import { HostHttpWaitStrategy } from "../containers/host-http-wait-strategy.ts";
import { LogLineWaitStrategy } from "../containers/log-line-wait-strategy.ts";
import { NotReadyError } from "../containers/not-ready-error.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { ownContainers, throwIfInterrupted } from "../interrupt.ts";
import { HEADERS } from "../../contract/endpoints.ts";
import type { StartedTarget } from "./started-target.ts";
import type { ComposeSpec } from "./target-spec.ts";
import { watchTarget, type TargetWatch } from "./watch-target.ts";

/** The label compose puts on each container of a project. */
export const COMPOSE_PROJECT_LABEL = "com.docker.compose.project";
const COMPOSE_SERVICE_LABEL = "com.docker.compose.service";
/** Seconds compose gives each container to stop before it kills it (docker-compose down -t). */
const DOWN_TIMEOUT_MS = 2_000;

export class ComposeTarget {
  readonly #spec: ComposeSpec;
  #logDir = ".";
  #say: (line: string) => void = () => undefined;
  #signal: AbortSignal | undefined;

  constructor(spec: ComposeSpec) {
    this.#spec = spec;
  }

  /** A signal that abandons the start (Ctrl-C, SIGTERM): the waits stop, the stack is taken down, start() rejects. */
  withSignal(signal: AbortSignal): this {
    this.#signal = signal;
    return this;
  }

  /** Where compose-<service>.log files go (the run directory). */
  withLogDir(dir: string): this {
    this.#logDir = dir;
    return this;
  }

  /** Progress lines (a first build of docker-compose takes minutes). */
  withProgress(say: (line: string) => void): this {
    this.#say = say;
    return this;
  }

  async start(): Promise<StartedComposeTarget> {
    const spec = this.#spec;
    const projectName = `atd-harness-${randomBytes(4).toString("hex")}`;
    const waits = new ComposeServiceWaitStrategy(this.#logDir, this.#serviceWaits());
    let options: ComposeOptions | undefined;
    // Until it is taken down, a harness that must end at once removes the stack's containers.
    const disown = ownContainers(COMPOSE_PROJECT_LABEL, projectName);
    try {
      throwIfInterrupted(this.#signal);
      const executablePath = await resolveCompose(this.#say);
      await disableRyukWhenUnavailable(await containerRuntime("the compose stack"));
      options = {
        filePath: path.dirname(spec.file),
        files: path.basename(spec.file),
        projectName,
        environment: spec.environment,
        composeOptions: spec.envFile === undefined ? [] : ["--env-file", spec.envFile],
        executable: { executablePath, standalone: true },
      };
      let environment = new DockerComposeEnvironment(options.filePath, options.files)
        .withProjectName(projectName)
        .withEnvironment(spec.environment)
        .withClientOptions({ executable: options.executable })
        .withDefaultWaitStrategy(waits)
        .withStartupTimeout(spec.startupTimeoutMs);
      if (spec.envFile !== undefined) environment = environment.withEnvironmentFile(spec.envFile);
      this.#say(`  compose project ${projectName} (${path.basename(spec.file)})`);
      const started = await environment.up();
      throwIfInterrupted(this.#signal);
      return await StartedComposeTarget.from(started, spec, projectName, waits, options, disown);
    } catch (error) {
      // testcontainers takes the stack down when `up` or a wait fails; this also covers a failure after that.
      if (options !== undefined) await downStack(options).catch(() => undefined);
      disown();
      await Promise.all([...waits.logs.values()].map((logs) => logs.close()));
      throwIfInterrupted(this.#signal);
      if (error instanceof HarnessError) throw error;
      const reason =
        error instanceof NotReadyError ? error.reason : error instanceof Error ? error.message.trim() : String(error);
      throw new HarnessError(
        error instanceof ContainerStartError
          ? error.message
          : `Failed to start the compose stack ${spec.file}: ${reason}. Please fix what its output says (the ` +
              `compose-<service>.log files in the run directory), check --port/--control-port against the ports its ` +
              `services listen on, and give it more time with --startup-timeout if it is only slow.`,
        EXIT.target,
      );
    }
  }

  /** --wait-http/--wait-log on --service, the control health check on --control-service. */
  #serviceWaits(): Map<string, WaitStrategy[]> {
    const spec = this.#spec;
    const waits = new Map<string, WaitStrategy[]>();
    const add = (service: string, wait: WaitStrategy) => {
      waits.set(service, [...(waits.get(service) ?? []), wait]);
    };
    const ready = spec.readyWhen;
    if (ready?.kind === "log") add(spec.service, new LogLineWaitStrategy(ready.pattern).withSignal(this.#signal));
    else {
      const http = new HostHttpWaitStrategy(spec.apiPort, ready?.path ?? "/").withSignal(this.#signal);
      add(spec.service, ready?.status === undefined ? http : http.forStatusCode(ready.status));
    }
    if (spec.controlPort !== undefined && spec.controlToken !== undefined) {
      add(
        spec.controlService,
        new HostHttpWaitStrategy(spec.controlPort, CONTROL_HEALTH_PATH)
          .withHeaders({ [HEADERS.control]: spec.controlToken })
          .forStatusCode(200)
          .withSignal(this.#signal),
      );
    }
    return waits;
  }
}

/** `docker-compose down` of a project, whatever state it is in (a no-op for a project with nothing left). */
async function downStack(options: ComposeOptions): Promise<void> {
  const client = await getContainerRuntimeClient();
  await client.compose.down(options, { removeVolumes: true, timeout: DOWN_TIMEOUT_MS });
}

export class StartedComposeTarget implements StartedTarget {
  readonly kind = "compose";
  readonly apiUrl: string;
  readonly control: HooksClient | undefined;
  readonly died: Promise<string>;
  readonly projectName: string;
  readonly logHint: string;
  readonly #environment: StartedDockerComposeEnvironment;
  readonly #waits: ComposeServiceWaitStrategy;
  readonly #options: ComposeOptions;
  readonly #watch: TargetWatch;
  readonly #disown: () => void;
  #stopped: Promise<void> | undefined;

  private constructor(parts: {
    environment: StartedDockerComposeEnvironment;
    spec: ComposeSpec;
    projectName: string;
    waits: ComposeServiceWaitStrategy;
    options: ComposeOptions;
    containerIds: ReadonlyMap<string, string>;
    disown: () => void;
  }) {
    const { spec } = parts;
    this.#disown = parts.disown;
    this.#environment = parts.environment;
    this.#waits = parts.waits;
    this.#options = parts.options;
    this.projectName = parts.projectName;
    this.apiUrl = `http://127.0.0.1:${String(spec.apiPort)}`;
    this.control =
      spec.controlPort !== undefined && spec.controlToken !== undefined
        ? new HooksClient(`http://127.0.0.1:${String(spec.controlPort)}`, spec.controlToken)
        : undefined;
    this.logHint = "compose-*.log";
    // The services the run talks to are watched; a dependency that exits shows through them.
    const watched = [...new Set([spec.service, spec.controlService])];
    this.#watch = watchTarget({
      name: `the compose stack ${parts.projectName}`,
      control: this.control,
      probe: async () => {
        const client = await getContainerRuntimeClient();
        for (const service of watched) {
          const id = parts.containerIds.get(service);
          if (id === undefined) continue;
          const state = (await client.container.inspect(client.container.getById(id))).State;
          if (!state.Running) return `the compose service ${service} exited with code ${String(state.ExitCode)}`;
        }
        return undefined;
      },
    });
    this.died = this.#watch.died;
  }

  /** The started stack, once the services the run needs are found running in it. */
  static async from(
    environment: StartedDockerComposeEnvironment,
    spec: ComposeSpec,
    projectName: string,
    waits: ComposeServiceWaitStrategy,
    options: ComposeOptions,
    disown: () => void,
  ): Promise<StartedComposeTarget> {
    const client = await getContainerRuntimeClient();
    const containers = (await client.container.list()).filter((c) => c.Labels[COMPOSE_PROJECT_LABEL] === projectName);
    const containerIds = new Map(containers.map((c) => [c.Labels[COMPOSE_SERVICE_LABEL] ?? c.Id, c.Id]));
    for (const service of new Set([spec.service, spec.controlService])) {
      if (!containerIds.has(service)) {
        throw new ContainerStartError(
          `Failed to start the compose stack ${spec.file}: its service ${service} is not running after compose up ` +
            `(running: ${[...containerIds.keys()].join(", ") || "none"}). Please check that service in the file ` +
            `(a profile, a one-shot command, a failed start: see compose-${service}.log in the run directory).`,
        );
      }
    }
    return new StartedComposeTarget({ environment, spec, projectName, waits, options, containerIds, disown });
  }

  /** Takes the whole stack down (containers, networks, volumes), then closes the log files. Safe twice. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.#watch.stop();
      try {
        await this.#environment.down({ timeout: DOWN_TIMEOUT_MS, removeVolumes: true });
      } catch {
        // A stack whose down failed once is asked again, in case compose was interrupted.
        await downStack(this.#options);
      } finally {
        this.#disown();
        await Promise.all([...this.#waits.logs.values()].map((logs) => logs.close()));
      }
    })();
    return this.#stopped;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}
