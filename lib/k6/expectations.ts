/**
 * The k6 side of webhook expectations: every operation that must cause a webhook logs one line (EXPECTATION_MARKER)
 * with the time taken just before its request, and the webhook sink (lib/harness/webhooks) joins those lines with
 * what it received. Recording is off unless the run turns it on (ATD_RECORD_EXPECTATIONS=1, set by the sink's run
 * extension, K6Config.recordExpectations), so the load scenarios' hot path pays one boolean test per call and nothing else.
 */
import {
  EXPECTATION_MARKER,
  OWN_BOOKING_MARKER,
  isRecord,
  type EndpointName,
  type ExpectationRecord,
} from "../contract/index.ts";

/** One line per operation, on the channel check failures use (the k6 side logs nothing at info level). */
export function recordExpectation(record: ExpectationRecord): void {
  console.warn(`${EXPECTATION_MARKER}${JSON.stringify(record)}`);
}

/** What a booking call answered, as much as the recorder needs (an ApiResponse fits). */
export interface BookingCallResult {
  endpoint: EndpointName;
  status: number;
  data: unknown;
}

export interface ExpectationRecorder {
  /** Called by the client after every call; records the events of a successful booking create, confirm or cancel. */
  afterCall(result: BookingCallResult, sentAt: number): void;
}

const BOOKING_CALLS: ReadonlySet<string> = new Set(["bookingCreate", "bookingConfirm", "bookingCancel"]);

/** The booking a successful booking call answered with, or undefined (a refusal, a body without a uuid). */
function bookingOf(result: BookingCallResult): { uuid: string; status: string | undefined } | undefined {
  if (result.status < 200 || result.status >= 300 || !isRecord(result.data)) return undefined;
  const { uuid, status } = result.data;
  return typeof uuid === "string" ? { uuid, status: typeof status === "string" ? status : undefined } : undefined;
}

/**
 * The recorder for one partner key. Which events a booking call causes follows docs/contract-gaps.md (Booking states):
 * a confirm emits the status it answers with, plus the tickets when that status is `approved`; a cancel emits
 * booking_data_updated (the cancellation request). A create may emit the `reserved` status or nothing
 * (docs/contract-freedoms.md, webhooks-event-on-create): its expectation is optional.
 */
export function expectationRecorder(keyIndex: number): ExpectationRecorder {
  return {
    afterCall(result, sentAt) {
      // Only booking calls cause events; reading `data` parses the body, so other answers are left alone.
      if (!BOOKING_CALLS.has(result.endpoint)) return;
      const booking = bookingOf(result);
      if (booking === undefined) return;
      const { uuid: resource, status } = booking;
      const base = { resource, at: sentAt, key: keyIndex };
      switch (result.endpoint) {
        case "bookingCreate":
          recordExpectation({ ...base, type: "booking_status_updated", status: status ?? "reserved", optional: true });
          return;
        case "bookingConfirm":
          if (status === undefined) return;
          recordExpectation({ ...base, type: "booking_status_updated", status });
          if (status === "approved") recordExpectation({ ...base, type: "booking_tickets_updated" });
          return;
        case "bookingCancel":
          recordExpectation({ ...base, type: "booking_data_updated" });
          return;
        default:
          return;
      }
    },
  };
}

/**
 * The recorder for the run's own key: its bookings are competing demand that no webhook is expected of, so it records
 * only what each create made (OWN_BOOKING_MARKER), for the reservation cleanup to cancel whatever is left of them.
 */
export function ownBookingRecorder(): ExpectationRecorder {
  return {
    afterCall(result) {
      const booking = result.endpoint === "bookingCreate" ? bookingOf(result) : undefined;
      if (booking !== undefined) console.warn(`${OWN_BOOKING_MARKER}${JSON.stringify({ uuid: booking.uuid })}`);
    },
  };
}
