/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
/**
 * The conformance defects of the booking states, the booking request and the booking errors through HTTP: each breaks
 * its one rule (the correct answer first, then the defect's), and leaves the answers the other rules judge as they
 * were.
 */
import { describe, expect, it } from "vitest";
import type { StartedService } from "../../service/app.ts";
import type { DefectName } from "../../service/defects/index.ts";
import {
  ALT_KEY,
  api,
  book,
  bookingBody,
  control,
  dateFromToday,
  pickType,
  setInventory,
  start,
  withSeats,
  type Res,
} from "./helpers.ts";

async function setDefect(svc: StartedService, name: DefectName, on: boolean): Promise<void> {
  const res = await control(svc, "/__control/defects", { method: "PUT", body: { [name]: on } });
  expect(res.status).toBe(200);
}

function expectError(res: Res, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, http_code: status });
}

const put = (svc: StartedService, path: string, key?: string) => api(svc, path, { method: "PUT", key });
const post = (svc: StartedService, body: unknown, path = "/v2/bookings") => api(svc, path, { method: "POST", body });

describe("conformance defects: booking states (docs/contract-gaps.md Booking states)", () => {
  it("should list statuses in lower case, and upper-cased under conformance-list-status-upper-case", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const uuid = await book(svc, t, 10, { partnerReference: "ref-upper" });
    expect((await api(svc, "/v2/bookings?partner_reference=ref-upper")).body.data[0].status).toBe("reserved");
    await setDefect(svc, "conformance-list-status-upper-case", true);
    expect((await api(svc, "/v2/bookings?partner_reference=ref-upper")).body.data[0].status).toBe("RESERVED");
    // The detail, the filters and the transitions' answers are untouched.
    expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.status).toBe("reserved");
    expect((await api(svc, "/v2/bookings?partner_reference=ref-upper&status=reserved")).body.data).toHaveLength(1);
    expect((await put(svc, `/v2/bookings/${uuid}/confirm`)).body.data.status).toBe("approved");
  });

  it("should confirm a non-instant type into waiting, and approve it at once under conformance-confirm-waiting-as-approved", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: false }));
    expect((await put(svc, `/v2/bookings/${await book(svc, t)}/confirm`)).body.data.status).toBe("waiting");
    await setDefect(svc, "conformance-confirm-waiting-as-approved", true);
    const uuid = await book(svc, t);
    expect((await put(svc, `/v2/bookings/${uuid}/confirm`)).body.data.status).toBe("approved");
    expect((await api(svc, `/v2/bookings/${uuid}/vouchers`)).body.data).toHaveLength(1);
    // Instant types are approved as before.
    const instant = await withSeats(svc, pickType(svc, { instant: true }));
    expect((await put(svc, `/v2/bookings/${await book(svc, instant)}/confirm`)).body.data.status).toBe("approved");
  });

  it("should answer a cancel with a pending request, and cancel at once under conformance-cancel-at-once", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const pending = await put(svc, `/v2/bookings/${await book(svc, t)}/cancel`);
    expect(pending.body.data).toMatchObject({ status: "reserved", cancellationRequestStatus: "pending" });
    await setDefect(svc, "conformance-cancel-at-once", true);
    const uuid = await book(svc, t);
    const res = await put(svc, `/v2/bookings/${uuid}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "cancelled", cancellationRequestStatus: "approved" });
    expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.status).toBe("cancelled");
  });

  it("should refuse PUT .../approve with 404, and confirm under conformance-approve-segment-confirms", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const uuid = await book(svc, t);
    expectError(await put(svc, `/v2/bookings/${uuid}/approve`), 404, "not_found");
    expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.status).toBe("reserved");
    await setDefect(svc, "conformance-approve-segment-confirms", true);
    const res = await put(svc, `/v2/bookings/${uuid}/approve`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("approved");
    // Other unknown paths stay 404, and confirm and cancel answer as before.
    expectError(await put(svc, `/v2/bookings/${uuid}/reject`), 404, "not_found");
    expect((await put(svc, `/v2/bookings/${uuid}/cancel`)).body.data.cancellationRequestStatus).toBe("pending");
  });
});

describe("conformance defects: the booking request (docs/contract-gaps.md Booking request, spec 1, 2.10, 9)", () => {
  it("should refuse a 101-character partnerReference, and book it under conformance-partner-reference-unbounded", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { timeslotted: true }));
    const long = { partnerReference: "r".repeat(101) };
    expectError(await post(svc, bookingBody(svc, t, 10, long)), 400, "invalid_params");
    await setDefect(svc, "conformance-partner-reference-unbounded", true);
    expect((await post(svc, bookingBody(svc, t, 10, long))).status).toBe(201);
    // The required fields are still required.
    expectError(await post(svc, bookingBody(svc, t, 10, { date: undefined })), 400, "invalid_params");
    expectError(await post(svc, bookingBody(svc, t, 10, { timeslot: undefined })), 422, "invalid_data");
  });

  it("should echo the customer in the detail, and drop its salutation under conformance-customer-salutation-dropped", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const uuid = await book(svc, t);
    expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.customer.salutation).toBe("Ms");
    await setDefect(svc, "conformance-customer-salutation-dropped", true);
    const customer = (await api(svc, `/v2/bookings/${uuid}`)).body.data.customer as Record<string, unknown>;
    expect(customer).not.toHaveProperty("salutation");
    expect(customer).toMatchObject({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });
    // The filters still find the booking by each contact field.
    expect((await api(svc, "/v2/bookings?phone=%2B6612345")).body.data).toHaveLength(1);
  });

  it("should refuse a body with pax and no adults, and book pax adults under conformance-pax-accepted", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const paxBody = bookingBody(svc, t, 10, { adults: undefined, pax: 2 });
    expectError(await post(svc, paxBody), 400, "invalid_params");
    await setDefect(svc, "conformance-pax-accepted", true);
    const res = await post(svc, paxBody);
    expect(res.status).toBe(201);
    expect(res.body.data.adults).toBe(2);
    // adults wins when both are sent.
    expect((await post(svc, { ...paxBody, adults: 1 })).body.data.adults).toBe(1);
  });

  it("should refuse a booking without a required option, and book it under conformance-required-options-ignored", async () => {
    await using svc = await start();
    const t = svc.state.catalogue.productTypes.find((x) => x.options.some((o) => o.required));
    if (t === undefined) throw new Error("the seeded catalogue has no type with a required option");
    await withSeats(svc, t);
    expectError(await post(svc, bookingBody(svc, t, 10, { options: [] })), 422, "invalid_data");
    await setDefect(svc, "conformance-required-options-ignored", true);
    expect((await post(svc, bookingBody(svc, t, 10, { options: [] }))).status).toBe(201);
    // An option of another type is still refused.
    const foreign = { options: [{ uuid: "00000000-0000-4000-8000-000000000000", value: "x" }] };
    expectError(await post(svc, bookingBody(svc, t, 10, foreign)), 422, "invalid_data");
  });

  it("should answer adults above maxPax with 422 invalid_data, and 400 under conformance-over-max-pax-400", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const over = bookingBody(svc, t, 10, { adults: t.maxPax + 1 });
    expectError(await post(svc, over), 422, "invalid_data");
    await setDefect(svc, "conformance-over-max-pax-400", true);
    expectError(await post(svc, over), 400, "invalid_params");
    // Below minPax and an unknown type keep their 422.
    const unknown = bookingBody(svc, t, 10, { productTypeUuid: "00000000-0000-4000-8000-000000000000" });
    expectError(await post(svc, unknown), 422, "invalid_data");
  });
});

describe("conformance defects: keys and removed operations (spec 5, spec 9)", () => {
  it("should hide a booking from another key, and show it under conformance-bookings-shared-across-keys", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const uuid = await book(svc, t, 10, { partnerReference: "ref-key" });
    expectError(await api(svc, `/v2/bookings/${uuid}`, { key: ALT_KEY }), 404, "not_found");
    expectError(await put(svc, `/v2/bookings/${uuid}/cancel`, ALT_KEY), 404, "not_found");
    await setDefect(svc, "conformance-bookings-shared-across-keys", true);
    expect((await api(svc, `/v2/bookings/${uuid}`, { key: ALT_KEY })).status).toBe(200);
    expect((await put(svc, `/v2/bookings/${uuid}/confirm`, ALT_KEY)).body.data.status).toBe("approved");
    // The list is still the key's own.
    expect((await api(svc, "/v2/bookings?partner_reference=ref-key", { key: ALT_KEY })).body.data).toEqual([]);
  });

  it("should answer POST /v2/bookings/check with 405, and 200 under conformance-booking-check-kept", async () => {
    await using svc = await start();
    const t = pickType(svc, { instant: true });
    expectError(await post(svc, bookingBody(svc, t), "/v2/bookings/check"), 405, "method_not_allowed");
    await setDefect(svc, "conformance-booking-check-kept", true);
    const res = await post(svc, bookingBody(svc, t), "/v2/bookings/check");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ available: true });
    // GET of the same path is still the booking route's 404.
    expectError(await api(svc, "/v2/bookings/check"), 404, "not_found");
  });
});

describe("conformance defects: what the hooks show (failed confirm, supplier decision, cancellation approval)", () => {
  const advance = (svc: StartedService, seconds: number) =>
    control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: seconds } });

  it("should answer a confirm of a sold-out slot with 422 prices_mismatch, and 409 under conformance-confirm-failure-as-409", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true, timeslotted: false }));
    const date = dateFromToday(svc.state, 10);
    const soldOut = async () => {
      const uuid = await book(svc, t);
      await setInventory(svc, t.uuid, date, { remaining: 0 });
      return uuid;
    };
    expectError(await put(svc, `/v2/bookings/${await soldOut()}/confirm`), 422, "prices_mismatch");
    await setDefect(svc, "conformance-confirm-failure-as-409", true);
    await setInventory(svc, t.uuid, date, { remaining: 50 });
    expectError(await put(svc, `/v2/bookings/${await soldOut()}/confirm`), 409, "invalid_action");
    // A confirm that can be fulfilled still approves.
    await setInventory(svc, t.uuid, date, { remaining: 50 });
    expect((await put(svc, `/v2/bookings/${await book(svc, t)}/confirm`)).body.data.status).toBe("approved");
  });

  it("should have the supplier approve a waiting booking, and put it back to reserved under conformance-waiting-decided-back-to-reserved", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: false }));
    const decided = async () => {
      const uuid = await book(svc, t);
      expect((await put(svc, `/v2/bookings/${uuid}/confirm`)).body.data.status).toBe("waiting");
      expect((await advance(svc, 120)).status).toBe(200);
      return (await api(svc, `/v2/bookings/${uuid}`)).body.data.status as string;
    };
    expect(await decided()).toBe("approved");
    await setDefect(svc, "conformance-waiting-decided-back-to-reserved", true);
    expect(await decided()).toBe("reserved");
    // A rejection is still a rejection.
    const rejected = await book(svc, t, 10, { partnerReference: "reject-me" });
    await put(svc, `/v2/bookings/${rejected}/confirm`);
    await advance(svc, 120);
    expect((await api(svc, `/v2/bookings/${rejected}`)).body.data.status).toBe("rejected");
  });

  it("should give a cancelled booking's seats back, and keep them under conformance-cancel-keeps-seats", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true, timeslotted: false }));
    const date = dateFromToday(svc.state, 10);
    const remaining = async () =>
      (await control(svc, `/__control/inventory/${t.uuid}?date_start=${date}&date_end=${date}`)).body.data.days[0]
        .remaining as number;
    const cancelled = async () => {
      const uuid = await book(svc, t);
      expect((await put(svc, `/v2/bookings/${uuid}/cancel`)).body.data.cancellationRequestStatus).toBe("pending");
      await advance(svc, 120);
      expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.status).toBe("cancelled");
    };
    await cancelled();
    expect(await remaining()).toBe(50);
    await setDefect(svc, "conformance-cancel-keeps-seats", true);
    await cancelled();
    expect(await remaining()).toBe(49);
  });
});
