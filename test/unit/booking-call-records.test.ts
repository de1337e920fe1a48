import { afterEach, describe, expect, it, vi } from "vitest";
import { EXPECTATION_MARKER, OWN_BOOKING_MARKER } from "../../lib/contract/index.ts";
import { expectationRecorder, ownBookingRecorder } from "../../lib/k6/expectations.ts";

const UUID = "0f8fad5b-d9cb-469f-a165-70867728950e";

function logged(): string[] {
  return (console.warn as unknown as { mock: { calls: unknown[][] } }).mock.calls.map((c) => String(c[0]));
}

describe("what booking calls record for the harness", () => {
  afterEach(() => vi.restoreAllMocks());

  it("should record a booking the run's own key created, and nothing of a refusal or of other calls", () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const recorder = ownBookingRecorder();
    recorder.afterCall({ endpoint: "bookingCreate", status: 201, data: { uuid: UUID, status: "reserved" } }, 0);
    recorder.afterCall({ endpoint: "bookingCreate", status: 422, data: { uuid: "refused" } }, 0);
    recorder.afterCall({ endpoint: "bookingCancel", status: 200, data: { uuid: UUID } }, 0);
    expect(logged()).toEqual([`${OWN_BOOKING_MARKER}{"uuid":"${UUID}"}`]);
  });

  it("should record a partner's create as the optional `reserved` event of its key, and no own-booking line", () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expectationRecorder(3).afterCall({ endpoint: "bookingCreate", status: 201, data: { uuid: UUID } }, 1000);
    // Optional: whether a create emits is the service's choice (docs/contract-freedoms.md, webhooks-event-on-create).
    expect(logged()).toEqual([
      `${EXPECTATION_MARKER}${JSON.stringify({ resource: UUID, at: 1000, key: 3, type: "booking_status_updated", status: "reserved", optional: true })}`,
    ]);
  });
});
