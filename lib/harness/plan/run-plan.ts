/**
 * The run's plan, derived once from its checked settings (run-settings.ts readRunSettings) and the values the table
 * layered (flag > HARNESS_* > run file > default): per scenario its profile, executor, seconds and k6 bound; the merged
 * SLO table and traffic model as objects with their ids; the target; the settings every k6 process gets. `harness run`
 * (its RunRequest), --dry-run and the comparison identity of --baseline read these facts here instead of deriving
 * them again from the flags.
 */
import type { K6Settings } from "../../contract/run-protocol.ts";
import type { SloTable } from "../../contract/slo.ts";
import type { TrafficModel } from "../../contract/traffic-model.ts";
import type { PlannedRun } from "../compare/compare-command.ts";
import type { SettingValues } from "../run-file/run-file-schema.ts";
import type { RunSettings } from "../run-settings.ts";
import type { ComposeSpec, ContainerSpec } from "../targets/target-spec.ts";
import { scenarioPlanOf, type ScenarioPlan } from "./scenario-plan.ts";
import { CURVE_SCENARIO, curveReplayOfRun, type CurveValues } from "./curve-replay-plan.ts";

/** The target as the plan knows it before it starts: its kind and spec, its URLs and the hooks' token. */
export interface TargetPlan {
  kind: SettingValues["target"];
  container: ContainerSpec | undefined;
  compose: ComposeSpec | undefined;
  baseUrl: string | undefined;
  controlUrl: string | undefined;
  controlToken: string | undefined;
}

export interface RunPlan {
  scenarios: string[];
  /** --profile and --duration as given (a scenario with its own profile runs that one: `lengths`). */
  profile: string;
  duration: string | undefined;
  capacityRates: readonly number[] | undefined;
  /** Each scenario's length, derived once (scenario-plan.ts). */
  lengths: ReadonlyMap<string, ScenarioPlan>;
  /** The SLO table and the traffic model, each merged once in Node, with what a comparison calls them. */
  slo: SloTable;
  traffic: TrafficModel;
  ids: { sloTable: string; trafficModel: string };
  target: TargetPlan;
  /** Settings for every k6 process beyond the common ones (the rate-limit rules, the capacity steps). */
  k6Settings: Partial<K6Settings>;
}

/** What the plan reads of the checked settings (readRunSettings; `harness k8s` reads only the SLO table of them). */
export type PlanSettings = Pick<RunSettings, "slo" | "traffic" | "ids" | "container" | "compose">;

/** The layered values the plan reads (flag > HARNESS_* > run file > default). */
export type PlanValues = Pick<
  SettingValues,
  "profile" | "duration" | "capacityRates" | "target" | "baseUrl" | "controlUrl" | "controlToken"
> &
  Partial<Pick<SettingValues, "rateWindow" | "expectAlgorithm" | "rateOutsideList">> &
  Partial<CurveValues>;

/** What the plan is derived from beyond the checked settings: the layered values and the run file's token. */
export interface PlanInput {
  scenarios: readonly string[];
  values: PlanValues;
  /** The control token from the run file's secret source (--control-token wins). */
  controlToken?: string | undefined;
}

/** Derives the run's plan once; the settings were checked before (a bad --duration never gets here). */
export function derivePlan(settings: PlanSettings, input: PlanInput): RunPlan {
  const { values } = input;
  const lengthSettings = { profile: values.profile, duration: values.duration, capacityRates: values.capacityRates };
  const curveReplay = curveReplayOfRun(values, settings.traffic);
  return {
    scenarios: [...input.scenarios],
    profile: values.profile,
    duration: values.duration,
    capacityRates: values.capacityRates,
    lengths: new Map(
      input.scenarios.map((s) => [
        s,
        scenarioPlanOf(s, s === CURVE_SCENARIO ? { ...lengthSettings, curveReplay } : lengthSettings),
      ]),
    ),
    slo: settings.slo,
    traffic: settings.traffic,
    ids: settings.ids,
    target: {
      kind: values.target,
      container: settings.container,
      compose: settings.compose,
      baseUrl: values.baseUrl,
      controlUrl: values.controlUrl,
      controlToken: values.controlToken ?? input.controlToken,
    },
    k6Settings: {
      // Checked before: --rate-window by readRunSettings, the two choices by commander.
      rateWindowSeconds: values.rateWindow?.trim() ? Number(values.rateWindow) : undefined,
      rateAlgorithm: values.expectAlgorithm,
      rateOutsideList: values.rateOutsideList,
      capacityRates: values.capacityRates,
      arrivalCurve: curveReplay && {
        timeCompression: curveReplay.timeCompression,
        rateMultiplier: curveReplay.rateMultiplier,
      },
    },
  };
}

/** What a comparison knows of the run before it starts (compare-command.ts prepareBaseline): from the plan. */
export function plannedRunOf(plan: RunPlan): PlannedRun {
  return { scenarios: plan.scenarios, profile: plan.profile, ids: plan.ids, targetKind: plan.target.kind };
}
