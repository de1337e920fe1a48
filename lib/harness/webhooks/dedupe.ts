/**
 * De-duplication by webhook-id (Standard Webhooks: the id is stable across the attempts of one message), per partner
 * endpoint. A message is every delivery of one id (or of one body) to one endpoint; it arrived when its first attempt
 * did. An arrival of a message the sink had already answered with 2xx is a duplicate: the partner acknowledged it and
 * got it again.
 */
import { isSuccess, type Delivery } from "./types.ts";

export interface Message {
  endpoint: number;
  webhookId: string;
  /** The first attempt: its arrival is the message's arrival. */
  first: Delivery;
  attempts: Delivery[];
}

export interface DedupeResult {
  /** In order of first arrival. */
  messages: Message[];
  /** Arrivals of an id after the sink had answered it with 2xx. */
  duplicates: Delivery[];
}

const byArrival = (a: Delivery, b: Delivery): number => a.arrivedAt - b.arrivedAt;

export function dedupe(deliveries: readonly Delivery[]): DedupeResult {
  const byId = new Map<string, Message>();
  // A sender that changes the id between attempts (a defect the retry check names) still re-sends the same body:
  // folding those attempts into the first message keeps them out of the loss, order and unexpected figures.
  const byBody = new Map<string, Message>();
  const messages: Message[] = [];
  const duplicates: Delivery[] = [];
  for (const delivery of [...deliveries].sort(byArrival)) {
    const idKey = `${delivery.endpoint}\u0000${delivery.webhookId}`;
    const bodyKey = `${delivery.endpoint}\u0000${delivery.body}`;
    const message = byId.get(idKey) ?? byBody.get(bodyKey);
    if (message === undefined) {
      const created = {
        endpoint: delivery.endpoint,
        webhookId: delivery.webhookId,
        first: delivery,
        attempts: [delivery],
      };
      byId.set(idKey, created);
      byBody.set(bodyKey, created);
      messages.push(created);
      continue;
    }
    byId.set(idKey, message);
    if (message.attempts.some((a) => isSuccess(a.status) && a.answeredAt <= delivery.arrivedAt)) {
      duplicates.push(delivery);
    }
    message.attempts.push(delivery);
  }
  return { messages, duplicates };
}

/**
 * The attempts of each message as the sender made them, grouped by endpoint and body rather than by id: retries
 * carry the same body, so a sender that changes the id between attempts still lands in one group.
 */
export function attemptsByBody(deliveries: readonly Delivery[]): Delivery[][] {
  const groups = new Map<string, Delivery[]>();
  for (const delivery of [...deliveries].sort(byArrival)) {
    const key = `${delivery.endpoint}\u0000${delivery.body}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [delivery]);
    else group.push(delivery);
  }
  return [...groups.values()];
}
