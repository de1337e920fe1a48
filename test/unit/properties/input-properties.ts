/** Every input's properties, each taking the scale of its runs (1: the default tier). */
import { chaosFileProperties } from "./chaos-file-properties.ts";
import { churnConfigProperties } from "./churn-config-properties.ts";
import { compareInputsProperties } from "./compare-inputs-properties.ts";
import { flagProperties } from "./flag-properties.ts";
import { runFileProperties } from "./run-file-properties.ts";
import { sloFileProperties } from "./slo-file-properties.ts";
import { soakRulesProperties } from "./soak-rules-properties.ts";
import { tolerancesFileProperties } from "./tolerances-file-properties.ts";
import { trafficModelProperties } from "./traffic-model-properties.ts";
import { webhookSinkProperties } from "./webhook-sink-properties.ts";

export const INPUT_PROPERTIES: readonly ((scale: number) => void)[] = [
  sloFileProperties,
  trafficModelProperties,
  churnConfigProperties,
  soakRulesProperties,
  chaosFileProperties,
  tolerancesFileProperties,
  compareInputsProperties,
  runFileProperties,
  flagProperties,
  webhookSinkProperties,
];
