/** Network chaos, when --chaos gave a plan (prepared with the webhooks route: prepare-chaos.ts). */
import type { ExtensionDefinition } from "../extension-plan.ts";
import { NetworkChaosExtension } from "./network-chaos-extension.ts";

export const networkChaos: ExtensionDefinition = {
  enabled: (plan) => plan.chaos?.chaos !== undefined,
  create: (plan) => {
    const chaos = plan.chaos?.chaos;
    if (chaos === undefined) throw new Error("network chaos made for a run without --chaos");
    return new NetworkChaosExtension(chaos);
  },
};
