/**
 * `harness k8s`'s plan: its settings checked as `harness run` checks them (the same words, exit 2) and derived by the
 * same derivePlan, so the manifests carry the profile, duration, merged SLO table and traffic model a local run would
 * use.
 */
import { DEFAULT_SLO } from "../../contract/slo.ts";
import { DEFAULT_TRAFFIC_MODEL } from "../../contract/traffic-model.ts";
import { settingsTextId } from "../compare/settings-text-id.ts";
import { derivePlan, type RunPlan } from "../plan/run-plan.ts";
import { checkDuration, readSloFile, readTrafficFile } from "../run-settings.ts";

/** The settings `harness k8s` shares with `harness run`, as the table parsed them. */
export interface K8sSettings {
  baseUrl: string;
  profile: string;
  duration?: string | undefined;
  /** --slo: the override file; undefined: the default table (and no slo.json in the ConfigMap). */
  slo?: string | undefined;
  /** --traffic: the traffic model override; undefined: the default model (and no traffic.json in the ConfigMap). */
  traffic?: string | undefined;
}

/** The scenario's plan for the cluster: the runner pods reach the target at --base-url (a url target). */
export async function k8sPlanOf(
  scenario: string,
  settings: K8sSettings,
  resolve: (file: string) => string,
): Promise<RunPlan> {
  checkDuration({
    scenarios: [scenario],
    profile: settings.profile,
    duration: settings.duration,
    capacityRates: undefined,
  });
  const slo = settings.slo === undefined ? undefined : await readSloFile(resolve(settings.slo));
  const traffic = settings.traffic === undefined ? undefined : await readTrafficFile(resolve(settings.traffic));
  const defaultId = settingsTextId(undefined);
  return derivePlan(
    {
      slo: slo?.slo ?? DEFAULT_SLO,
      traffic: traffic?.traffic ?? DEFAULT_TRAFFIC_MODEL,
      ids: { sloTable: slo?.id ?? defaultId, trafficModel: traffic?.id ?? defaultId },
      container: undefined,
      compose: undefined,
    },
    {
      scenarios: [scenario],
      values: {
        profile: settings.profile,
        duration: settings.duration,
        capacityRates: undefined,
        target: "url",
        baseUrl: settings.baseUrl,
        controlUrl: undefined,
        controlToken: undefined,
      },
    },
  );
}
