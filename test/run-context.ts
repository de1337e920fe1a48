/**
 * A RunContext for tests of one run extension's start or finish: the fields a test does not name take values no
 * extension reads as meaningful (public API level, one key, no control API).
 */
import type { PublicApiFacts, RunContext } from "../lib/harness/run-extension.ts";
import type { StartedTarget } from "../lib/harness/targets/started-target.ts";

type Overrides = Omit<Partial<RunContext>, "publicApi" | "target"> & {
  /** Only what the test needs of the target (apiUrl, control). */
  target?: Partial<StartedTarget>;
  publicApi?: Partial<PublicApiFacts>;
};

export function runContext(overrides: Overrides = {}): RunContext {
  const { target, publicApi, ...rest } = overrides;
  return {
    runId: "test",
    runDir: "/tmp",
    keys: ["k"],
    scenarios: [],
    seed: 1,
    say: () => undefined,
    level: "public-api",
    harnessKey: undefined,
    ...rest,
    target: { apiUrl: "http://127.0.0.1:1", control: undefined, ...target } as StartedTarget,
    publicApi: { alternativesKeys: undefined, reservationHoldSeconds: undefined, timeScale: 1, ...publicApi },
  };
}
