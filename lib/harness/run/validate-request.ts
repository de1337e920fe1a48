/** What runHarness checks of its request before it makes the run directory (exit 2). */
import { SettingsError } from "../../contract/index.ts";
import { profileNamed } from "../../contract/profiles.ts";
import { parseDuration, scenarioSeconds } from "../../contract/durations.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { scenarioPlanOf, type ScenarioPlan } from "../plan/scenario-plan.ts";
import { traitsOf } from "../scenario-traits.ts";
import type { RunRequest } from "./run-request.ts";

/**
 * The profiles and --duration read, and --segments only for scenarios that can be split: each scenario's length, as
 * the run's plan derived it (lib/harness/plan/run-plan.ts).
 */
export function validateRequest(request: RunRequest): ReadonlyMap<string, ScenarioPlan> {
  try {
    scenarioSeconds(profileNamed(request.profile).scenario(request.duration));
    // Each scenario's own profile too (soak, capacity): its k6 bound comes from it. `harness run` hands in the plan's
    // (derivePlan); a request made by hand (tests, embedders) gets them derived the same way here.
    const plans = request.lengths ?? new Map(request.scenarios.map((s) => [s, scenarioPlanOf(s, request)] as const));
    if (request.duration) parseDuration(request.duration);
    const unsplittable = request.scenarios.filter((s) => !traitsOf(s).splittable);
    if ((request.segments ?? 1) > 1 && unsplittable.length) {
      throw new HarnessError(
        `Failed to split the run: ${unsplittable.join(", ")} must see every request of its keys in one k6 process. Please run it without --segments.`,
        EXIT.usage,
      );
    }
    return plans;
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw new HarnessError(
      error instanceof SettingsError
        ? error.message
        : `Failed to read --duration: ${String(error)}. Please use k6 syntax such as 30s.`,
      EXIT.usage,
    );
  }
}
