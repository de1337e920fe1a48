/**
 * Ready when an HTTP port of the container answers on 127.0.0.1. testcontainers' own Wait.forHttp asks for the port
 * Docker mapped, and a container on host networking has none (its ports are its own), so it would wait until the
 * timeout; this one asks 127.0.0.1:<port> directly. It also stops waiting as soon as the container exits.
 */
import { AbstractWaitStrategy } from "testcontainers/build/wait-strategies/wait-strategy.js";
import type { WaitStrategy } from "testcontainers";
import { throwIfInterrupted } from "../interrupt.ts";
import { describeFetchError } from "../describe-fetch-error.ts";
import { exitCodeOf } from "./exit-code-of.ts";
import { NotReadyError } from "./not-ready-error.ts";

type DockerContainer = Parameters<WaitStrategy["waitUntilReady"]>[0];

const POLL_MS = 250;
const REQUEST_TIMEOUT_MS = 2_000;

export class HostHttpWaitStrategy extends AbstractWaitStrategy {
  readonly #url: string;
  #status: number | undefined;
  #headers: Record<string, string> = {};
  #signal: AbortSignal | undefined;

  /** `path` on 127.0.0.1:`port`, e.g. (8080, "/health"). */
  constructor(port: number, path: string) {
    super();
    this.#url = `http://127.0.0.1:${String(port)}${path}`;
  }

  /** Ready only on this status. Without it any HTTP answer will do: the port is up and speaks HTTP. */
  forStatusCode(status: number): this {
    this.#status = status;
    return this;
  }

  withHeaders(headers: Record<string, string>): this {
    this.#headers = { ...this.#headers, ...headers };
    return this;
  }

  /** Stops waiting at once (Interrupted) when the run is interrupted; testcontainers then removes the container. */
  withSignal(signal: AbortSignal | undefined): this {
    this.#signal = signal;
    return this;
  }

  override async waitUntilReady(container: DockerContainer): Promise<void> {
    const deadline = Date.now() + this.startupTimeoutMs;
    const expected = this.#status === undefined ? "any HTTP answer" : `HTTP ${String(this.#status)}`;
    let last = "no answer";
    // Bounded by the deadline, a pause of POLL_MS between tries, and the run's signal.
    for (;;) {
      throwIfInterrupted(this.#signal);
      const exited = await exitCodeOf(container);
      if (exited !== undefined) {
        throw new NotReadyError(`it exited with code ${String(exited)} before ${this.#url} gave ${expected}`);
      }
      try {
        const timeout = AbortSignal.timeout(Math.max(1, Math.min(REQUEST_TIMEOUT_MS, deadline - Date.now())));
        const response = await fetch(this.#url, {
          headers: this.#headers,
          signal: this.#signal ? AbortSignal.any([timeout, this.#signal]) : timeout,
        });
        await response.body?.cancel();
        if (this.#status === undefined || response.status === this.#status) return;
        last = `HTTP ${String(response.status)}`;
      } catch (error) {
        throwIfInterrupted(this.#signal);
        last = describeFetchError(error);
      }
      if (Date.now() + POLL_MS >= deadline) break;
      await pause(POLL_MS, this.#signal);
    }
    throw new NotReadyError(
      `${this.#url} did not give ${expected} within ${String(this.startupTimeoutMs)} ms (last: ${last})`,
    );
  }
}

/** Waits `ms`, or less when the signal aborts (the loop then stops on it). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
