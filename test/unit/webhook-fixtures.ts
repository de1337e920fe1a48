/** Deliveries and expectations for the webhook unit tests: plain data with defaults, overridden per case. */
import type { Delivery, Expectation } from "../../lib/harness/webhooks/types.ts";

export const T0 = 1_800_000_000_000;

export function delivery(over: Partial<Delivery> = {}): Delivery {
  const type = over.type ?? "booking_status_updated";
  const resource = over.resource ?? "b1";
  const eventTime = over.eventTime ?? T0;
  return {
    endpoint: 0,
    webhookId: "msg_1",
    timestamp: Math.floor((over.arrivedAt ?? T0) / 1000),
    arrivedAt: T0 + 10,
    answeredAt: (over.arrivedAt ?? T0 + 10) + 1,
    status: 200,
    signatureValid: true,
    timestampValid: true,
    type,
    resource,
    bookingStatus: "reserved",
    eventTime,
    body: JSON.stringify({ type, resource, eventTime, status: over.bookingStatus ?? "reserved" }),
    ...over,
  };
}

export function expectation(over: Partial<Expectation> = {}): Expectation {
  return { type: "booking_status_updated", resource: "b1", at: T0, key: 0, status: "reserved", ...over };
}
