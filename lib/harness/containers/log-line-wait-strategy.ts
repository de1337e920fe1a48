/**
 * Ready when the container prints a line matching a pattern (--wait-log), as testcontainers' Wait.forLogMessage, but
 * failing with the reason in words (NotReadyError): the container exited first (with its exit code), or the line
 * did not come in time.
 */
import { getContainerRuntimeClient, type WaitStrategy } from "testcontainers";
import { AbstractWaitStrategy } from "testcontainers/build/wait-strategies/wait-strategy.js";
import { throwIfInterrupted } from "../interrupt.ts";
import { exitCodeOf } from "./exit-code-of.ts";
import { NotReadyError } from "./not-ready-error.ts";

type DockerContainer = Parameters<WaitStrategy["waitUntilReady"]>[0];

export class LogLineWaitStrategy extends AbstractWaitStrategy {
  readonly #pattern: RegExp;
  #signal: AbortSignal | undefined;

  constructor(pattern: RegExp) {
    super();
    // A global or sticky pattern keeps state between test() calls; the line test must not.
    this.#pattern = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""));
  }

  /** Stops waiting at once (Interrupted) when the run is interrupted; testcontainers then removes the container. */
  withSignal(signal: AbortSignal | undefined): this {
    this.#signal = signal;
    return this;
  }

  override async waitUntilReady(container: DockerContainer, _ports: unknown, startTime?: Date): Promise<void> {
    const client = await getContainerRuntimeClient();
    const stream = await client.container.logs(container, { since: startTime ? startTime.getTime() / 1000 : 0 });
    const pattern = this.#pattern;
    const timeoutMs = this.startupTimeoutMs;
    const signal = this.#signal;
    const outcome = await new Promise<"seen" | "ended" | "timeout" | "interrupted">((resolve) => {
      let partial = "";
      const finish = (how: "seen" | "ended" | "timeout" | "interrupted") => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(how);
      };
      const timer = setTimeout(() => {
        finish("timeout");
      }, timeoutMs);
      const onAbort = () => {
        finish("interrupted");
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (signal?.aborted) onAbort();
      stream.on("data", (chunk: string | Buffer) => {
        const lines = (partial + chunk.toString()).split("\n");
        partial = lines.pop() ?? "";
        if (lines.some((line) => pattern.test(line))) finish("seen");
      });
      stream.on("end", () => {
        finish(pattern.test(partial) ? "seen" : "ended");
      });
      stream.on("error", () => {
        finish("ended");
      });
    });
    stream.destroy();
    if (outcome === "interrupted") throwIfInterrupted(signal);
    if (outcome === "seen") return;
    if (outcome === "timeout") {
      throw new NotReadyError(`it printed no line matching ${String(pattern)} within ${String(timeoutMs)} ms`);
    }
    const exited = await exitCodeOf(container).catch(() => undefined);
    throw new NotReadyError(
      `it ${exited === undefined ? "stopped" : `exited with code ${String(exited)}`} before it printed a line matching ${String(pattern)}`,
    );
  }
}
