/**
 * Ctrl-C and SIGTERM during `harness run`. The first signal aborts the run's AbortSignal with an Interrupted reason:
 * every phase stops at once (k6 interrupted, the target's start abandoned, the judging skipped), what started is
 * stopped, and the reports are written with the run marked interrupted (exit 130 for SIGINT, 143 for SIGTERM). A
 * second signal, or a stop that takes longer than STOP_DEADLINE_MS, ends the process at once with the same code,
 * after the synchronous last resorts: the child processes the harness owns (k6, the embedded service, Toxiproxy...)
 * are killed, and the containers it labelled are removed by a detached `docker rm -f`, so nothing outlives it.
 *
 * Children are registered with ownChild() in the same tick as their spawn, and the handlers are installed before the
 * run spawns anything, so no signal can fall between a spawn and its registration; the same last resorts run at
 * every exit of the process (process.on("exit")).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { EXIT } from "./exit-codes.ts";

export type StopSignal = "SIGINT" | "SIGTERM";

/** The exit code of a run each signal ended. */
export const EXIT_BY_SIGNAL = { SIGINT: EXIT.interrupted, SIGTERM: EXIT.terminated } as const;

/** How long the stop after a first signal may take before the process ends anyway (the promise: gone within 10 s). */
export const STOP_DEADLINE_MS = 8_000;

/** The reason of an aborted run: which signal stopped it. Thrown by a phase that stops because of it. */
export class Interrupted extends Error {
  override name = "Interrupted";
  readonly signal: StopSignal;

  constructor(signal: StopSignal) {
    super(`interrupted by ${signal}`);
    this.signal = signal;
  }
}

/**
 * The signal that interrupted the run once its AbortSignal is aborted: the Interrupted reason's, or SIGINT for a run
 * aborted by its caller in another way (as Ctrl-C would).
 */
export function interruptionOf(signal: AbortSignal | undefined): StopSignal | undefined {
  if (!signal?.aborted) return undefined;
  return signal.reason instanceof Interrupted ? signal.reason.signal : "SIGINT";
}

/** Whether an error is the run's interruption itself (its signal's reason), not a failure of its own. */
export function isInterruption(error: unknown, signal: AbortSignal | undefined): boolean {
  return error instanceof Interrupted || (signal?.aborted === true && error === signal.reason);
}

/** Throws the run's Interrupted (the signal's reason) once a signal came. */
export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  signal?.throwIfAborted();
}

/**
 * The promise's outcome, or the signal's reason (Interrupted) as soon as a signal comes. What the promise was doing
 * is left to finish on its own (the process exits once the run has written its reports); its children die with the
 * process (ownChild).
 */
export function unlessInterrupted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason as Error);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => {
      signal.removeEventListener("abort", onAbort);
    });
  });
}

const lastResorts = new Set<() => void>();
let exitHookInstalled = false;

/** Runs every last resort once (each on its own: one that throws does not keep the others from running). */
export function runLastResorts(): void {
  for (const resort of [...lastResorts]) {
    lastResorts.delete(resort);
    try {
      resort();
    } catch {
      // A last resort is best effort: the process is ending.
    }
  }
}

/** A synchronous cleanup for when the process must end now; returns its removal, for when it is no longer needed. */
export function onLastResort(resort: () => void): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", runLastResorts);
  }
  lastResorts.add(resort);
  return () => lastResorts.delete(resort);
}

/**
 * A child process of the harness's own: killed (SIGKILL) if the process ends while it runs; `group`: a child spawned
 * detached, whose whole process group is killed. Call right after spawn.
 */
export function ownChild<T extends ChildProcess>(child: T, group = false): T {
  const remove = onLastResort(() => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (group && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  });
  child.once("exit", remove);
  child.once("error", remove);
  return child;
}

/** The label every container this process starts carries, so a last resort can find one whose start was cut short. */
export const OWNER_LABEL = "atd-harness.owner";
/** This process's value of OWNER_LABEL. */
export const OWNER = `${String(process.pid)}-${randomBytes(4).toString("hex")}`;

/**
 * Containers with this label (e.g. OWNER_LABEL=OWNER, or a compose project's) are removed by a detached
 * `docker rm -f` if the process must end before it removed them itself; returns the removal of that resort.
 */
export function ownContainers(label: string, value: string): () => void {
  return onLastResort(() => {
    const filter = `label=${label}=${value}`;
    spawn("sh", ["-c", `docker ps -aq --filter '${filter}' | xargs -r docker rm -f`], {
      detached: true,
      stdio: "ignore",
    }).unref();
  });
}

export interface StopSignals {
  /** Aborted (with Interrupted) by the first signal. */
  readonly signal: AbortSignal;
  /**
   * The run is over (its reports written): a signal from now on ends the process at once with its code, and an
   * interrupted run ends now (what it abandoned, e.g. a target's start cut short, is not waited for).
   */
  finished(): void;
}

/**
 * Installs the SIGINT and SIGTERM handlers of a run: the first aborts `signal` and says so, a second one (or the
 * deadline) runs the last resorts and exits at once with the signal's code.
 */
export function handleStopSignals(write: (line: string) => void): StopSignals {
  const controller = new AbortController();
  let first: StopSignal | undefined;
  let over = false;
  let deadline: NodeJS.Timeout | undefined;
  const endNow = (signal: StopSignal, why: string) => {
    if (why) write(why);
    runLastResorts();
    process.exit(EXIT_BY_SIGNAL[signal]);
  };
  const handler = (signal: StopSignal) => {
    if (over) endNow(signal, "");
    if (first !== undefined) {
      endNow(first, `\n${signal} again: ending now (k6 and the service killed, the run's containers removed).\n`);
      return;
    }
    first = signal;
    write(
      `\nStopping on ${signal}: k6 and the target are being stopped, and the reports written (exit ${String(EXIT_BY_SIGNAL[signal])}). A second signal ends the harness at once.\n`,
    );
    deadline = setTimeout(() => {
      endNow(signal, `\nStopping took more than ${String(STOP_DEADLINE_MS / 1000)} s: ending now.\n`);
    }, STOP_DEADLINE_MS);
    controller.abort(new Interrupted(signal));
  };
  process.on("SIGINT", () => {
    handler("SIGINT");
  });
  process.on("SIGTERM", () => {
    handler("SIGTERM");
  });
  return {
    signal: controller.signal,
    finished: () => {
      over = true;
      clearTimeout(deadline);
      if (first !== undefined) endNow(first, "");
    },
  };
}
