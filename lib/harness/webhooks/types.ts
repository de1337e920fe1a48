/** What the webhook sink records and what the join works on: plain data, so the pure logic is testable alone. */
import type { ExpectationRecord } from "../../contract/index.ts";

/** How the sink answered one delivery attempt. */
export type SinkAnswer =
  | { kind: "ok" }
  | { kind: "status"; status: 500 | 429 | 410 }
  /** Never answered: held until the sender gave up (its timeout) or the sink's own bound. */
  | { kind: "hang" };

/** One HTTP request that reached the sink: an attempt to deliver one message to one endpoint. */
export interface Delivery {
  /** The partner endpoint (index of the API key in the run's key list). */
  endpoint: number;
  webhookId: string;
  /** webhook-timestamp, UNIX seconds; undefined when missing or not a number. */
  timestamp: number | undefined;
  /** Epoch milliseconds (monotonic clock mapped to the epoch) when the request reached the sink. */
  arrivedAt: number;
  /** When the sink answered, or when the sender hung up on a held request. */
  answeredAt: number;
  /** The status the sink answered with; 0 when it held the request until the sender gave up. */
  status: number;
  signatureValid: boolean;
  timestampValid: boolean;
  /** From the payload {type, timestamp, data}; undefined when the body is not such an object. */
  type: string | undefined;
  resource: string | undefined;
  /** data.status of booking events. */
  bookingStatus: string | undefined;
  /** The payload's timestamp (when the service says the event happened), epoch ms. */
  eventTime: number | undefined;
  /** The raw body: attempts of one message carry the same body whatever their webhook-id. */
  body: string;
}

/**
 * A delivery the sink did not read whole, so could neither verify nor join: larger than it keeps (answered 413 as soon
 * as that is known), not complete within its bound (answered 408, then closed), or cut off by the sender mid-body.
 */
export interface RefusedDelivery {
  endpoint: number;
  /** webhook-id as sent ("" when missing). */
  webhookId: string;
  /** Epoch milliseconds when the request reached the sink. */
  arrivedAt: number;
  reason: "too large" | "too slow" | "cut off";
  /** Body bytes received before the sink stopped reading. */
  bytes: number;
  /** What the sink answered: 413, 408, or 0 when the sender hung up first. */
  status: number;
}

/** The webhook sink's name as a run extension (its verdict's name in summary.json). */
export const WEBHOOK_SINK_EXTENSION = "webhook sink";

/** What the run expects to arrive: what k6 and the churn log recorded, and what follows from it (follow-ons.ts). */
export interface Expectation extends ExpectationRecord {
  /**
   * A consequence the service brings about later on its own (a supplier decision, the vouchers it issues, a
   * cancellation's approval): it has no sound trigger time, so only its loss is judged, never its latency.
   */
  followOn?: boolean;
}

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;

/** The kinds a partner's own booking calls cause (the other five are catalogue events). */
export const BOOKING_EVENT_TYPES = [
  "booking_status_updated",
  "booking_data_updated",
  "booking_tickets_updated",
] as const;

export const isBookingEvent = (type: string | undefined): boolean =>
  (BOOKING_EVENT_TYPES as readonly (string | undefined)[]).includes(type);
