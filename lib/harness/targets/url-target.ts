/** An existing deployment given by URL: nothing to start, but it must answer before k6 is pointed at it. */
import { HooksClient } from "../hooks/hooks-client.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { throwIfInterrupted } from "../interrupt.ts";
import type { StartedTarget } from "./started-target.ts";
import { describeFetchError } from "../describe-fetch-error.ts";

const REACH_TIMEOUT_MS = 10_000;

export class UrlTarget {
  readonly #baseUrl: string;
  #control: { url: string; token: string } | undefined;
  #signal: AbortSignal | undefined;

  constructor(baseUrl: string) {
    this.#baseUrl = baseUrl.replace(/\/+$/, "");
  }

  /** A signal that abandons the reachability check (Ctrl-C, SIGTERM): start() rejects with its reason. */
  withSignal(signal: AbortSignal): this {
    this.#signal = signal;
    return this;
  }

  withControl(url: string | undefined, token: string | undefined): this {
    if (url && token) this.#control = { url, token };
    return this;
  }

  async start(): Promise<StartedTarget> {
    let parsed: URL;
    try {
      parsed = new URL(this.#baseUrl);
    } catch {
      throw new HarnessError(
        `Failed to use --base-url "${this.#baseUrl}": not a URL. Please give one such as http://127.0.0.1:8080.`,
        EXIT.usage,
      );
    }
    try {
      // Any HTTP answer (401 without a key included) proves the deployment is there.
      const timeout = AbortSignal.timeout(REACH_TIMEOUT_MS);
      await fetch(new URL("/v2/config", parsed), {
        signal: this.#signal ? AbortSignal.any([timeout, this.#signal]) : timeout,
      });
    } catch (error) {
      throwIfInterrupted(this.#signal);
      const cause = describeFetchError(error);
      throw new HarnessError(
        `Failed to reach the target at ${this.#baseUrl}: ${cause}. Please check --base-url and that the service is up.`,
        EXIT.target,
      );
    }
    const control = this.#control ? new HooksClient(this.#control.url, this.#control.token) : undefined;
    return {
      kind: "url",
      apiUrl: this.#baseUrl,
      control,
      died: new Promise<string>(() => undefined),
      stop: () => Promise.resolve(),
      [Symbol.asyncDispose]: () => Promise.resolve(),
    };
  }
}
