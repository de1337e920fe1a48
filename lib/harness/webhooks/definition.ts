/**
 * The webhook sink: when the run gets it and how it is set up, from the run's --webhook-* settings and, when --chaos
 * proxies the webhooks link, the route prepare-chaos.ts fixed (the sink's listen port and the proxy as its URL).
 */
import { scenariosNeeding } from "../../contract/scenarios.ts";
import { DEFAULT_SLO } from "../../contract/slo.ts";
import { onByDefault, scenarioNeeding, type ExtensionDefinition, type ExtensionPlan } from "../extension-plan.ts";
import { WebhookSinkExtension } from "./extension.ts";

/**
 * Whether the run has the webhook sink: always for a scenario that needs it (webhooks), else the flag, else the
 * scenarios' default. A run split over k6 processes (--segments) gets no sink by default: each runner numbers the keys
 * of its own slice from 0, so the booking expectations it logs would name another partner's endpoint than the one
 * that was called.
 */
export function webhooksOn(scenarios: readonly string[], enabled: boolean | undefined, segments = 1): boolean {
  if (scenariosNeeding(scenarios, "webhooks").length > 0) return true;
  return enabled ?? (segments <= 1 && onByDefault(scenarios, "webhooks"));
}

function webhookSink(plan: ExtensionPlan): WebhookSinkExtension {
  const values = plan.values ?? {};
  // The scenario that needs the sink triggers every webhook kind and measures retries.
  const webhookScenario = scenarioNeeding(plan, "webhooks") !== undefined;
  const route = plan.chaos ?? { webhookListen: values.webhookListen ?? "127.0.0.1:0", webhookUrl: values.webhookUrl };
  const waitSeconds = values.webhookRegistrationWait;
  return new WebhookSinkExtension({
    listen: route.webhookListen,
    publicUrl: route.webhookUrl,
    misbehaveShare: values.webhookMisbehave ?? (webhookScenario ? 0.2 : 0),
    refusals: values.webhookRefusals ?? ["500", "429"],
    expectAllKinds: webhookScenario,
    slo: plan.slo ?? DEFAULT_SLO,
    registerCommand: values.webhookRegisterCmd,
    ...(waitSeconds === undefined ? {} : { registrationWaitMs: waitSeconds * 1000 }),
  });
}

export const webhookSinkDefinition: ExtensionDefinition = {
  enabled: (plan) => webhooksOn(plan.scenarios, plan.values?.webhooks, plan.values?.segments),
  create: webhookSink,
};
