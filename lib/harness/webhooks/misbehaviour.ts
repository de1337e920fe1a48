/**
 * The sink misbehaving on purpose, so that the sender's retries can be measured: for a share of messages it refuses
 * the first attempt (and half of those the second too) with 500, 429 + Retry-After or by holding the request past the
 * sender's timeout; and chosen endpoints answer 410 once they have taken `goneAfter` deliveries, after which the
 * sender must stop. Decisions hash the endpoint and the webhook-id, so a run is reproducible and a retry's fate does
 * not depend on timing. The endpoint is in the hash because a sender may give one event the same webhook-id at every
 * endpoint (docs/contract-freedoms.md, webhooks-shared-id): hashed on the id alone, such an event was refused at
 * every endpoint or at none, and a short run's refusals came in a few lumps of dozens, or not at all.
 */
import type { SinkAnswer } from "./types.ts";

export type RefusalMode = "500" | "429" | "hang";

export interface MisbehaviourOptions {
  /** Share of messages (0-1) whose first attempt is refused. */
  share: number;
  modes: readonly RefusalMode[];
  /** Endpoints that answer 410 after goneAfter deliveries. */
  goneEndpoints: readonly number[];
  goneAfter: number;
}

export const WELL_BEHAVED: MisbehaviourOptions = { share: 0, modes: ["500", "429"], goneEndpoints: [], goneAfter: 0 };

/** FNV-1a of the id, as a number in [0, 1). */
export function idFraction(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 2 ** 32;
}

export interface AttemptFacts {
  endpoint: number;
  webhookId: string;
  /** 1 for the first delivery of this id to this endpoint. */
  attemptOfId: number;
  /** Deliveries this endpoint took before this one. */
  endpointDeliveries: number;
}

export function decideAnswer(facts: AttemptFacts, options: MisbehaviourOptions): SinkAnswer {
  if (options.goneEndpoints.includes(facts.endpoint) && facts.endpointDeliveries >= options.goneAfter) {
    return { kind: "status", status: 410 };
  }
  if (options.share <= 0 || options.modes.length === 0 || facts.attemptOfId > 2) return { kind: "ok" };
  const fraction = idFraction(`${String(facts.endpoint)} ${facts.webhookId}`);
  const share = facts.attemptOfId === 1 ? options.share : options.share / 2;
  if (fraction >= share) return { kind: "ok" };
  const mode = options.modes[Math.floor((fraction / share) * options.modes.length)] ?? "500";
  if (mode === "hang") return { kind: "hang" };
  return { kind: "status", status: mode === "429" ? 429 : 500 };
}
