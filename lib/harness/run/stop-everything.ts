/** The last phase of every run, whatever happened before: what started is stopped. */
import type { Outcome } from "./exit-code-of.ts";
import { unexpected, type RunState } from "./run-state.ts";

/**
 * Everything started is stopped, each on its own: one that fails to stop does not keep the others running. Each
 * failure is in `errors` and is a stop-crashed outcome.
 */
export async function stopEverything(state: RunState): Promise<Outcome[]> {
  const stops: [string, () => Promise<void>][] = [
    ...[...state.started].reverse().map((e): [string, () => Promise<void>] => [`stop ${e.name}`, () => e.stop()]),
    ["stop the target", () => state.target?.stop() ?? Promise.resolve()],
  ];
  const outcomes: Outcome[] = [];
  for (const [what, stop] of stops) {
    try {
      await stop();
    } catch (error) {
      state.errors.push(await unexpected(state.runDir, what, error));
      outcomes.push({ kind: "stop-crashed" });
    }
  }
  return outcomes;
}
