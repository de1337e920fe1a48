/**
 * The service image as the target: built offline from service/Dockerfile (scripts/build-service-image), started
 * with testcontainers on host networking (loopback only), its logs saved in the run directory, and always removed
 * at the end. Watched like the embedded process: a container that stops answering ends the run.
 */
import { ControlClient } from "../control-client.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { buildServiceImage, ServiceContainer, type StartedServiceContainer } from "../service-container.ts";
import type { StartedTarget } from "./started-target.ts";

const WATCH_INTERVAL_MS = 2_000;
/** Health answers missed in a row before the container counts as dead. */
const MISSES_TO_DIE = 3;

/** Service flags ("--rate-limit 20") as the ATD_SERVICE_* variables the image reads. */
export function serviceArgsToEnvironment(args: readonly string[]): Record<string, string> {
  const environment: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const flag = /^--([a-z][a-z-]*)$/.exec(args[i] ?? "")?.[1];
    const value = args[i + 1];
    if (!flag || value === undefined || value.startsWith("--")) {
      throw new HarnessError(
        `Failed to pass service flags to the container: "${args.join(" ")}" is not a list of --flag value pairs. Please write them as --rate-limit 20.`,
        EXIT.usage,
      );
    }
    environment[`ATD_SERVICE_${flag.replace(/-/g, "_").toUpperCase()}`] = value;
    i++;
  }
  return environment;
}

export class ContainerTarget {
  #seed: number | undefined;
  #logFile: string | undefined;
  #args: string[] = [];
  #cpus: number | undefined;

  withSeed(seed: number): this {
    this.#seed = seed;
    return this;
  }

  withLogFile(file: string): this {
    this.#logFile = file;
    return this;
  }

  withServiceArgs(args: readonly string[]): this {
    this.#args = [...this.#args, ...args];
    return this;
  }

  /** Docker's --cpus for the service container. */
  withCpuBudget(cores: number): this {
    this.#cpus = cores;
    return this;
  }

  async start(): Promise<StartedContainerTarget> {
    const environment = serviceArgsToEnvironment(this.#args);
    let container: StartedServiceContainer;
    try {
      const image = await buildServiceImage();
      const builder = new ServiceContainer(image).withEnvironment(environment);
      if (this.#seed !== undefined) builder.withSeed(this.#seed);
      if (this.#logFile) builder.withLogFile(this.#logFile);
      if (this.#cpus !== undefined) builder.withCpus(this.#cpus);
      container = await builder.start();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new HarnessError(
        message.startsWith("Failed") ? message : `Failed to start the service container: ${message}`,
        EXIT.target,
      );
    }
    return new StartedContainerTarget(container);
  }
}

export class StartedContainerTarget implements StartedTarget {
  readonly kind = "container";
  readonly apiUrl: string;
  readonly control: ControlClient;
  readonly died: Promise<string>;
  readonly containerId: string;
  readonly #container: StartedServiceContainer;
  readonly #watch: NodeJS.Timeout;
  #stopping = false;

  constructor(container: StartedServiceContainer) {
    this.#container = container;
    this.containerId = container.containerId;
    this.apiUrl = container.apiUrl;
    this.control = new ControlClient(container.controlUrl, container.controlToken);
    let misses = 0;
    let report: (why: string) => void = () => undefined;
    this.died = new Promise((resolve) => {
      report = resolve;
    });
    this.#watch = setInterval(() => {
      if (this.#stopping) return;
      this.control
        .request("GET", "/__control/health")
        .then(() => {
          misses = 0;
        })
        .catch(() => {
          misses += 1;
          if (misses >= MISSES_TO_DIE && !this.#stopping) {
            report(`the service container ${this.containerId.slice(0, 12)} stopped answering its health check`);
          }
        });
    }, WATCH_INTERVAL_MS);
    this.#watch.unref();
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#watch);
    await this.#container.stop();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}
