/**
 * Order per resource: which messages about one booking or product reached a partner after a later event about it (by
 * the payload's timestamp). No rule: the contract promises no order (docs/contract-freedoms.md,
 * webhooks-delivery-order), so the verdict reports these as a finding, never as a failed check. Only first attempts
 * count: a retry is late by design. Equal timestamps are not an order (the service may stamp two events of one
 * operation alike).
 */
import type { Message } from "./dedupe.ts";

export interface OutOfOrder {
  endpoint: number;
  resource: string;
  /** The message that arrived after a later event about the same resource. */
  webhookId: string;
  type: string | undefined;
  eventTime: number;
  /** The latest event time that had already arrived for the resource. */
  afterEventTime: number;
}

export function outOfOrder(messages: readonly Message[]): OutOfOrder[] {
  const latest = new Map<string, number>();
  const found: OutOfOrder[] = [];
  const ordered = [...messages].sort((a, b) => a.first.arrivedAt - b.first.arrivedAt);
  for (const message of ordered) {
    const { resource, eventTime, type } = message.first;
    if (resource === undefined || eventTime === undefined) continue;
    const key = `${message.endpoint}\u0000${resource}`;
    const seen = latest.get(key);
    if (seen !== undefined && eventTime < seen) {
      found.push({
        endpoint: message.endpoint,
        resource,
        webhookId: message.webhookId,
        type,
        eventTime,
        afterEventTime: seen,
      });
    }
    if (seen === undefined || eventTime > seen) latest.set(key, eventTime);
  }
  return found;
}
