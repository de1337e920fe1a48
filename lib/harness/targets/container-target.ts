/**
 * An image as the target (--target container): any image named by --image through ApiContainer, or by default the
 * reference service's image (built offline by scripts/build-service-image) through ServiceContainer, which is an
 * ApiContainer with the reference's ports, flags and fresh token filled in, so both start the same way. Host
 * networking (loopback only), logs saved in the run directory, always removed at the end, also on Ctrl-C (the run
 * stops its target in a finally). Watched: a container that exits or stops answering its health check ends the run.
 */
import { HooksClient } from "../hooks/hooks-client.ts";
import { ApiContainer, type StartedApiContainer } from "../containers/api-container.ts";
import { ContainerStartError } from "../containers/container-start-error.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { throwIfInterrupted } from "../interrupt.ts";
import { buildServiceImage, ServiceContainer, StartedServiceContainer } from "../service-container.ts";
import type { StartedTarget } from "./started-target.ts";
import type { ContainerSpec } from "./target-spec.ts";
import { watchTarget, type TargetWatch } from "./watch-target.ts";

/** The reference image with everything left to its defaults (no --image). */
export const REFERENCE_CONTAINER: ContainerSpec = {
  image: undefined,
  apiPort: undefined,
  controlPort: undefined,
  controlToken: undefined,
  environment: {},
  readyWhen: undefined,
  startupTimeoutMs: 60_000,
  cpus: undefined,
  memoryBytes: undefined,
};

export class ContainerTarget {
  readonly #spec: ContainerSpec;
  #seed: number | undefined;
  #logFile: string | undefined;
  #args: string[] = [];
  #cpus: number | undefined;
  #signal: AbortSignal | undefined;

  constructor(spec: ContainerSpec = REFERENCE_CONTAINER) {
    this.#spec = spec;
  }

  /** The reference service's catalogue seed (not passed to another image: its settings come from --container-env). */
  withSeed(seed: number): this {
    this.#seed = seed;
    return this;
  }

  withLogFile(file: string): this {
    this.#logFile = file;
    return this;
  }

  /** The reference service's flags (--service-args), as ATD_SERVICE_* variables. */
  withServiceArgs(args: readonly string[]): this {
    this.#args = [...this.#args, ...args];
    return this;
  }

  /** A signal that abandons the start (Ctrl-C, SIGTERM): the container is removed and start() rejects with it. */
  withSignal(signal: AbortSignal): this {
    this.#signal = signal;
    return this;
  }

  /** Docker's --cpus for the container (--service-cpus; --cpus is the same budget). */
  withCpuBudget(cores: number): this {
    this.#cpus = cores;
    return this;
  }

  async start(): Promise<StartedContainerTarget> {
    const spec = this.#spec;
    let started: StartedApiContainer;
    try {
      const container = spec.image === undefined ? await this.#reference() : this.#generic(spec.image);
      container.withEnvironment(spec.environment).withStartupTimeout(spec.startupTimeoutMs);
      if (spec.readyWhen !== undefined) container.withReadyWhen(spec.readyWhen);
      const cpus = spec.cpus ?? this.#cpus;
      if (cpus !== undefined) container.withCpus(cpus);
      if (spec.memoryBytes !== undefined) container.withMemory(spec.memoryBytes);
      if (this.#logFile !== undefined) container.withLogFile(this.#logFile);
      started = await container.withSignal(this.#signal).start();
    } catch (error) {
      throwIfInterrupted(this.#signal);
      if (error instanceof HarnessError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new HarnessError(
        error instanceof ContainerStartError
          ? message
          : `Failed to start the container: ${message}. Please check the Docker engine (scripts/ensure-docker).`,
        EXIT.target,
      );
    }
    return new StartedContainerTarget(started, spec.image ?? "the service container");
  }

  /** The reference service: its image built offline, its ports, token and flags filled in by ServiceContainer. */
  async #reference(): Promise<ApiContainer> {
    const spec = this.#spec;
    let image: string;
    try {
      image = await buildServiceImage(this.#signal === undefined ? {} : { signal: this.#signal });
    } catch (error) {
      throw new ContainerStartError((error as Error).message);
    }
    const service = new ServiceContainer(image).withServiceArgs(this.#args);
    if (this.#seed !== undefined) service.withSeed(this.#seed);
    if (spec.controlToken !== undefined) service.withControlToken(spec.controlToken);
    if (spec.apiPort !== undefined || spec.controlPort !== undefined) {
      service.withPorts(spec.apiPort ?? 0, spec.controlPort ?? 0);
    }
    return service;
  }

  #generic(image: string): ApiContainer {
    const spec = this.#spec;
    const container = new ApiContainer(image).withApiPort(spec.apiPort ?? 0);
    if (spec.controlPort !== undefined && spec.controlToken !== undefined) {
      container.withControl(spec.controlPort, spec.controlToken);
    }
    return container;
  }
}

export class StartedContainerTarget implements StartedTarget {
  readonly kind = "container";
  readonly apiUrl: string;
  readonly control: HooksClient | undefined;
  readonly died: Promise<string>;
  readonly containerId: string;
  readonly logHint = "service.log";
  /** The reference service's seeded keys (none for another image: its keys come from --keys). */
  readonly apiKeys: readonly string[];
  readonly #container: StartedApiContainer;
  readonly #watch: TargetWatch;

  constructor(container: StartedApiContainer, image: string) {
    this.#container = container;
    this.containerId = container.containerId;
    this.apiUrl = container.apiUrl;
    this.apiKeys = container instanceof StartedServiceContainer ? container.apiKeys : [];
    this.control =
      container.controlUrl !== undefined && container.controlToken !== undefined
        ? new HooksClient(container.controlUrl, container.controlToken)
        : undefined;
    const name = `the container ${this.containerId.slice(0, 12)} (${image})`;
    this.#watch = watchTarget({
      name,
      control: this.control,
      probe: async () => {
        const code = await container.exitCode();
        return code === undefined ? undefined : `${name} exited with code ${String(code)}`;
      },
    });
    this.died = this.#watch.died;
  }

  async stop(): Promise<void> {
    this.#watch.stop();
    await this.#container.stop();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}
