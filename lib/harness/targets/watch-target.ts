/**
 * Watches a started target so that one that dies mid-run ends the run with a reason instead of a hang: every two
 * seconds `probe` says whether it is dead (a container that exited), and, with a control API, health answers missed
 * three times in a row count as dead too.
 */
import type { HooksClient } from "../hooks/hooks-client.ts";

const WATCH_INTERVAL_MS = 2_000;
/** Health answers missed in a row before the target counts as dead. */
const MISSES_TO_DIE = 3;

export interface TargetWatch {
  readonly died: Promise<string>;
  stop(): void;
}

export function watchTarget(options: {
  /** A reason when the target is dead, undefined while it lives. */
  probe: () => Promise<string | undefined>;
  control: HooksClient | undefined;
  /** What the health message calls the target, e.g. "the service container 3f2a...". */
  name: string;
}): TargetWatch {
  let stopped = false;
  let misses = 0;
  let report: (why: string) => void = () => undefined;
  const died = new Promise<string>((resolve) => {
    report = (why) => {
      if (!stopped) resolve(why);
    };
  });
  const health = async (): Promise<string | undefined> => {
    if (options.control === undefined) return undefined;
    try {
      await options.control.request("GET", "/__control/health");
      misses = 0;
      return undefined;
    } catch {
      misses += 1;
      return misses >= MISSES_TO_DIE ? `${options.name} stopped answering its health check` : undefined;
    }
  };
  let busy = false;
  const timer = setInterval(() => {
    if (stopped || busy) return;
    busy = true;
    void (async () => {
      const why = (await options.probe().catch(() => undefined)) ?? (await health());
      if (why !== undefined) report(why);
    })().finally(() => {
      busy = false;
    });
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return {
    died,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
