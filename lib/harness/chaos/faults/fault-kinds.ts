/** Every fault kind a chaos file may schedule, by Toxiproxy toxic type. */
import { BANDWIDTH } from "./bandwidth.ts";
import type { FaultKind } from "./fault-kind.ts";
import { LATENCY } from "./latency.ts";
import { RESET_PEER } from "./reset-peer.ts";
import { SLOW_CLOSE } from "./slow-close.ts";
import { TIMEOUT } from "./timeout.ts";

export const FAULT_KINDS: Readonly<Record<string, FaultKind>> = Object.fromEntries(
  [LATENCY, BANDWIDTH, TIMEOUT, RESET_PEER, SLOW_CLOSE].map((kind) => [kind.type, kind]),
);
