/**
 * The harness's reading of the scenario registry (lib/contract/scenarios.ts): a scenario's traits, an unknown name
 * being a usage error, and how a run's keys are split between its scenarios.
 */
import { scenarioSpec, UnknownScenarioError, type ScenarioTraits } from "../contract/scenarios.ts";
import { EXIT, HarnessError } from "./exit-codes.ts";

export type { ScenarioTraits } from "../contract/scenarios.ts";

/** The scenario's traits; exit 2 for a name the registry does not hold (never defaults). */
export function traitsOf(scenario: string): ScenarioTraits {
  try {
    return scenarioSpec(scenario).traits;
  } catch (error) {
    if (!(error instanceof UnknownScenarioError)) throw error;
    throw new HarnessError(
      `Failed to plan the run: ${error.message}. Please use one of them (harness list).`,
      EXIT.usage,
    );
  }
}

/**
 * Splits the run's keys: each scenario with dedicated keys gets its own from the end of the list, the others share
 * the rest (who need one more only when there are such others). Refuses a split that leaves a scenario without keys.
 */
export function partitionKeys(scenarios: readonly string[], keys: readonly string[]): Map<string, string[]> {
  const pool = [...keys];
  const byScenario = new Map<string, string[]>();
  const sharing = scenarios.some((s) => traitsOf(s).dedicatedKeys === 0);
  for (const scenario of scenarios) {
    const n = traitsOf(scenario).dedicatedKeys;
    if (n === 0) continue;
    if (pool.length < n + (sharing ? 1 : 0)) {
      throw new HarnessError(
        `Failed to hand out API keys: ${scenario} needs ${n} keys of its own${sharing ? " and the other scenarios at least one more" : ""}, but the run has ${keys.length}. Please pass more keys (--keys).`,
        EXIT.usage,
      );
    }
    byScenario.set(scenario, pool.splice(pool.length - n, n));
  }
  for (const scenario of scenarios) if (!byScenario.has(scenario)) byScenario.set(scenario, pool);
  return byScenario;
}
