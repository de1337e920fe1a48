/**
 * The one wait strategy a compose stack is started with (DockerComposeEnvironment.withDefaultWaitStrategy): for every
 * container of the stack it first starts saving the container's output to <dir>/compose-<service>.log, then runs that
 * service's own waits (the API service's --wait-http/--wait-log, the control service's health check; none for the
 * others). testcontainers hands each container to its wait strategy as soon as `compose up` returns and removes the
 * whole stack when one wait fails, so this is the moment every service's output can be kept, the failing one's too.
 */
import path from "node:path";
import { Wait, getContainerRuntimeClient, type WaitStrategy } from "testcontainers";
import { AbstractWaitStrategy } from "testcontainers/build/wait-strategies/wait-strategy.js";
import { ContainerLogs } from "./container-logs.ts";
import { NotReadyError } from "./not-ready-error.ts";

type DockerContainer = Parameters<WaitStrategy["waitUntilReady"]>[0];
type BoundPorts = Parameters<WaitStrategy["waitUntilReady"]>[1];

/** The label compose puts on each container: which service of the file it runs. */
const SERVICE_LABEL = "com.docker.compose.service";

export class ComposeServiceWaitStrategy extends AbstractWaitStrategy {
  readonly #logDir: string;
  readonly #waits: ReadonlyMap<string, readonly WaitStrategy[]>;
  /** Each service's output, by service name (saved whether the stack came up or not). */
  readonly logs = new Map<string, ContainerLogs>();

  /** `waits`: the waits of each service that has any, by service name. */
  constructor(logDir: string, waits: ReadonlyMap<string, readonly WaitStrategy[]>) {
    super();
    this.#logDir = logDir;
    this.#waits = waits;
  }

  /** The log file of a service. */
  logFile(service: string): string {
    return path.join(this.#logDir, `compose-${service}.log`);
  }

  override async waitUntilReady(container: DockerContainer, ports: BoundPorts, startTime?: Date): Promise<void> {
    const service = (await container.inspect()).Config.Labels[SERVICE_LABEL] ?? container.id.slice(0, 12);
    const client = await getContainerRuntimeClient();
    const logs = new ContainerLogs(this.logFile(service));
    this.logs.set(service, logs);
    logs.consume(await client.container.logs(container));
    const waits = this.#waits.get(service) ?? [];
    if (waits.length === 0) return;
    const wait = waits.length === 1 ? (waits[0] as WaitStrategy) : Wait.forAll([...waits]);
    wait.withStartupTimeout(this.startupTimeoutMs);
    try {
      await wait.waitUntilReady(container, ports, startTime);
    } catch (error) {
      // Which service failed, and what it said, belong in the reason.
      const reason = error instanceof NotReadyError ? error.reason : String(error);
      throw new NotReadyError(`service ${service}: ${reason}${logs.describe()}`);
    }
  }
}
