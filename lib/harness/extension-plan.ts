/**
 * What the run's extensions are chosen and made from (extensions.ts): the run's scenarios, its settings as layered and
 * the files they named, read and checked before anything starts. Each extension's definition (its folder's
 * definition.ts) says when the run gets it and reads its own settings here, so a new flag of an extension touches
 * the settings table and that extension, not the code that hands the plan over.
 */
import { scenariosNeeding, type ScenarioExtension } from "../contract/scenarios.ts";
import type { SloTable } from "../contract/slo.ts";
import type { PreparedChaos } from "./chaos/prepare-chaos.ts";
import type { ScenarioPlan } from "./plan/scenario-plan.ts";
import type { RunExtension } from "./run-extension.ts";
import type { SettingValues } from "./run-file/run-file-schema.ts";
import type { RunSettings } from "./run-settings.ts";
import { traitsOf } from "./scenario-traits.ts";

export interface ExtensionPlan {
  scenarios: readonly string[];
  /**
   * The run's settings (flag > HARNESS_* > run file > default), each switch read with its HARNESS_* mirror
   * (withSwitches; undefined: the scenarios' default). Absent ones take the table's defaults.
   */
  values?: Partial<SettingValues>;
  /** The run's SLO table (--slo merged, read once by run-settings.ts): extensions judge by the same table as k6. */
  slo?: SloTable;
  /** Each scenario's length (run-plan.ts). */
  lengths?: ReadonlyMap<string, Pick<ScenarioPlan, "seconds">>;
  /** The files the settings named, read and checked once (run-settings.ts: --churn-config, --soak-config). */
  checked?: Partial<Pick<RunSettings, "churn" | "soakRules">>;
  /** --chaos prepared (chaos/prepare-chaos.ts): the plan, and the sink's route when the webhooks link is proxied. */
  chaos?: PreparedChaos;
}

/** One extension as the run sees it: when the run gets it, and the extension for that run. */
export interface ExtensionDefinition {
  enabled(plan: ExtensionPlan): boolean;
  /** Called only when enabled(plan). */
  create(plan: ExtensionPlan): RunExtension;
}

/** The run's first scenario that always runs with the extension (the registry's `extensions`), if any. */
export function scenarioNeeding(plan: ExtensionPlan, extension: ScenarioExtension): string | undefined {
  return scenariosNeeding(plan.scenarios, extension)[0];
}

/** Whether a scenario of the run has the extension on by default (the registry's defaultExtensions). */
export function onByDefault(scenarios: readonly string[], extension: "webhooks" | "churn"): boolean {
  return scenarios.some((s) => traitsOf(s).defaultExtensions?.includes(extension) === true);
}

/** An extension the run gets exactly when a scenario of it needs one (the registry's `extensions`), made for it. */
export function neededBy(
  extension: ScenarioExtension,
  create: (plan: ExtensionPlan, scenario: string) => RunExtension,
): ExtensionDefinition {
  return {
    enabled: (plan) => scenarioNeeding(plan, extension) !== undefined,
    create: (plan) => {
      const scenario = scenarioNeeding(plan, extension);
      if (scenario === undefined) throw new Error(`no scenario of the run needs the ${extension} extension`);
      return create(plan, scenario);
    },
  };
}
