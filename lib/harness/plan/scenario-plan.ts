/**
 * A scenario's length, derived once from the profile it runs and --duration: its k6 arrival executor, its seconds and
 * the bound its k6 process gets. The run (lib/harness/run/run-k6.ts), the request estimate of --dry-run
 * (request-estimate.ts) and the soak's planned length (scripts/run-command.ts) all read it from here.
 */
import { scenarioSeconds } from "../../contract/durations.ts";
import { arrivalOf, type LengthSettings, type Scenario as ArrivalScenario } from "../../contract/profiles.ts";
import { traitsOf } from "../scenario-traits.ts";

/** Time k6 gets beyond the profile's own length: VU start-up, graceful stop, setup/teardown and handleSummary. */
export const K6_OVERHEAD_SECONDS = 120;

/** What a scenario's length is derived from: the run's --profile, --duration and --capacity-rates. */
export type { LengthSettings };

export interface ScenarioPlan {
  /** The profile the scenario runs: its own (soak, capacity), else --profile. */
  profile: string;
  /** Its k6 arrival-rate executor, as lib/k6/options.ts builds it. */
  arrival: ArrivalScenario;
  /** The executor's whole length. */
  seconds: number;
  /** How long its k6 process may run: its own bound when it does not follow the profile, else its length, + overhead. */
  boundSeconds: number;
}

/**
 * The scenario's length, its executor built as k6 builds it (lib/contract/profiles.ts arrivalOf). Throws a SettingsError for an unknown profile
 * or a --duration the profile cannot take (the settings are checked before a run: run-settings.ts checkDuration).
 */
export function scenarioPlanOf(scenario: string, settings: LengthSettings): ScenarioPlan {
  const traits = traitsOf(scenario);
  const { profile, arrival } = arrivalOf(traits.profile, settings);
  const seconds = scenarioSeconds(arrival);
  return { profile, arrival, seconds, boundSeconds: (traits.ownDurationSeconds ?? seconds) + K6_OVERHEAD_SECONDS };
}
