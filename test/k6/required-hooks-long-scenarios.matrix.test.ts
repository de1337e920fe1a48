/**
 * The two longest scenarios against the service posing as another implementation (required hooks only, other keys,
 * a smaller catalogue, every variation), as test/k6/required-hooks-target.test.ts runs the others in the default
 * tier: soak and capacity pass there as on the reference service, nothing skipped but by design.
 */
import { describe, it } from "vitest";
import { tempFile } from "./harness-process.ts";
import { expectPassOnRequiredHooks, type RequiredHooksRun } from "./required-hooks-service.ts";

/** The soak's p95 tolerance on a shared two-core host, as in soak.matrix.test.ts. */
const LOOSE_SOAK_RULES = tempFile("soak-rules.json", { p95ToleranceMs: 50 });

const LONG_RUNS: RequiredHooksRun[] = [
  {
    scenarios: ["soak"],
    service: ["--time-scale", "120"],
    harness: ["--duration", "15s", "--soak-config", LOOSE_SOAK_RULES],
  },
  {
    scenarios: ["capacity"],
    service: ["--rate-limit", "1000000"],
    harness: ["--duration", "2s", "--capacity-rates", "100,200,400"],
  },
];

describe("soak and capacity on a target that offers only the required hooks", { timeout: 200_000 }, () => {
  it.each(LONG_RUNS)("should pass $scenarios with nothing skipped", (run) => expectPassOnRequiredHooks(run));
});
