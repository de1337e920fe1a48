/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
/**
 * The conformance defects of issue 20 through HTTP: each breaks its one rule (the correct answer first, then the
 * defect's), and leaves the answers the other rules judge as they were.
 */
import { describe, expect, it } from "vitest";
import type { StartedService } from "../../service/app.ts";
import type { DefectName } from "../../service/defects/index.ts";
import { api, book, bookingBody, control, dateFromToday, pickType, start, withSeats, type Res } from "./helpers.ts";

async function setDefect(svc: StartedService, name: DefectName, on: boolean): Promise<void> {
  const res = await control(svc, "/__control/defects", { method: "PUT", body: { [name]: on } });
  expect(res.status).toBe(200);
}

function expectEnvelope(res: Res, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(res.body.error).toMatchObject({ code, http_code: status });
  expect(typeof res.body.error.message).toBe("string");
  expect(res.body.links).toEqual(expect.arrayContaining([expect.objectContaining({ rel: "self" })]));
  expect(typeof res.body.timestamp).toBe("string");
}

/** An approved booking of an instant type and the href of its voucher file. */
async function voucherHref(svc: StartedService): Promise<string> {
  const t = await withSeats(svc, pickType(svc, { instant: true }));
  const uuid = await book(svc, t);
  expect((await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" })).body.data.status).toBe("approved");
  const vouchers = await api(svc, `/v2/bookings/${uuid}/vouchers`);
  return vouchers.body.data[0].links[0].href as string;
}

describe("conformance defects: authentication (spec 5)", () => {
  it("should answer a missing or invalid key with the 401 envelope, and a text/plain line under conformance-401-plain-text", async () => {
    await using svc = await start();
    for (const key of [null, "not-a-key"])
      expectEnvelope(await api(svc, "/v2/products", { key }), 401, "GEN-UNAUTHORIZED");
    await setDefect(svc, "conformance-401-plain-text", true);
    const res = await api(svc, "/v2/products", { key: null });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(res.body).toBeUndefined();
    // Other failures keep their envelope, and a valid key still gets in.
    expectEnvelope(await api(svc, "/v2/no-such-path"), 404, "not_found");
    expect((await api(svc, "/v2/products")).status).toBe(200);
  });

  it("should answer 401 with GEN-UNAUTHORIZED, and `unauthorized` (envelope kept) under conformance-401-wrong-code", async () => {
    await using svc = await start();
    await setDefect(svc, "conformance-401-wrong-code", true);
    for (const key of [null, "not-a-key"]) {
      const res = await api(svc, "/v2/config", { key });
      expectEnvelope(res, 401, "unauthorized");
    }
    expectEnvelope(await api(svc, "/v2/no-such-path"), 404, "not_found");
  });

  it("should refuse OPTIONS without a key, and describe the path anyway under conformance-options-without-key", async () => {
    await using svc = await start();
    expectEnvelope(await api(svc, "/v2/products", { method: "OPTIONS", key: null }), 401, "GEN-UNAUTHORIZED");
    await setDefect(svc, "conformance-options-without-key", true);
    const res = await api(svc, "/v2/products", { method: "OPTIONS", key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("allow")).toContain("GET");
    // Only OPTIONS leaks: a GET without the key and OPTIONS of a path that does not exist stay refused.
    expectEnvelope(await api(svc, "/v2/products", { key: null }), 401, "GEN-UNAUTHORIZED");
    expectEnvelope(await api(svc, "/v2/nothing", { method: "OPTIONS", key: null }), 401, "GEN-UNAUTHORIZED");
  });

  it("should refuse a voucher file without the key, and hand it out under conformance-voucher-download-without-key", async () => {
    await using svc = await start();
    const href = await voucherHref(svc);
    expect((await api(svc, href)).status).toBe(200);
    expectEnvelope(await api(svc, href, { key: null }), 401, "GEN-UNAUTHORIZED");
    await setDefect(svc, "conformance-voucher-download-without-key", true);
    const res = await api(svc, href, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.text).toContain("%PDF");
    // Every other path still needs the key.
    expectEnvelope(await api(svc, href.replace(/\/file$/, ""), { key: null }), 401, "GEN-UNAUTHORIZED");
    expectEnvelope(await api(svc, "/v2/bookings", { key: null }), 401, "GEN-UNAUTHORIZED");
  });
});

describe("conformance defects: error answers (docs/contract-gaps.md, Wire format and error codes)", () => {
  it("should answer 404 in the envelope, and as an HTML page under conformance-404-html", async () => {
    await using svc = await start();
    const missing = "/v2/products/00000000-0000-4000-8000-000000000000";
    expectEnvelope(await api(svc, missing), 404, "not_found");
    await setDefect(svc, "conformance-404-html", true);
    for (const path of [missing, "/v2/no-such-path"]) {
      const res = await api(svc, path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("text/html");
    }
    expectEnvelope(await api(svc, "/v2/products", { method: "DELETE" }), 405, "method_not_allowed");
  });

  it("should answer 404 with a timestamp, and without one (code and links kept) under conformance-404-without-timestamp", async () => {
    await using svc = await start();
    const missing = "/v2/products/00000000-0000-4000-8000-000000000000";
    await setDefect(svc, "conformance-404-without-timestamp", true);
    const res = await api(svc, missing);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "not_found", http_code: 404 });
    expect(res.body.links).toEqual([expect.objectContaining({ rel: "self" })]);
    expect(res.body).not.toHaveProperty("timestamp");
    // Other failures keep the whole envelope.
    expectEnvelope(await api(svc, "/v2/products", { method: "DELETE" }), 405, "method_not_allowed");
    await setDefect(svc, "conformance-404-without-timestamp", false);
    expectEnvelope(await api(svc, missing), 404, "not_found");
  });

  it("should answer a method the path lacks with 405 and Allow, and 404 under conformance-405-as-404", async () => {
    await using svc = await start();
    const allowed = await api(svc, "/v2/products", { method: "DELETE" });
    expectEnvelope(allowed, 405, "method_not_allowed");
    expect(allowed.headers.get("allow")).toBe("GET, OPTIONS");
    await setDefect(svc, "conformance-405-as-404", true);
    const res = await api(svc, "/v2/products", { method: "DELETE" });
    expectEnvelope(res, 404, "not_found");
    expect(res.headers.get("allow")).toBeNull();
  });

  it("should answer a body over 64 KiB with 413, and 500 under conformance-payload-too-large-500", async () => {
    await using svc = await start();
    const rawBody = JSON.stringify({ padding: "x".repeat(70 * 1024) });
    expectEnvelope(await api(svc, "/v2/bookings", { method: "POST", rawBody }), 413, "payload_too_large");
    await setDefect(svc, "conformance-payload-too-large-500", true);
    expectEnvelope(await api(svc, "/v2/bookings", { method: "POST", rawBody }), 500, "internal_error");
    // A body under the limit is still parsed and judged: malformed JSON stays 400.
    expectEnvelope(await api(svc, "/v2/bookings", { method: "POST", rawBody: "{" }), 400, "malformed_json");
  });

  it("should answer malformed JSON with 400 malformed_json, and 500 under conformance-malformed-json-500", async () => {
    await using svc = await start();
    expectEnvelope(await api(svc, "/v2/bookings", { method: "POST", rawBody: '{"adults": 1,' }), 400, "malformed_json");
    await setDefect(svc, "conformance-malformed-json-500", true);
    expectEnvelope(await api(svc, "/v2/bookings", { method: "POST", rawBody: '{"adults": 1,' }), 500, "internal_error");
    const t = pickType(svc);
    const invalid = bookingBody(svc, t, 10, { adults: "two" });
    expectEnvelope(await api(svc, "/v2/bookings", { method: "POST", body: invalid }), 400, "invalid_params");
  });

  it("should answer a malformed booking field with 400 invalid_params, and 500 under conformance-validation-500", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const invalid = bookingBody(svc, t, 10, { adults: "two" });
    expectEnvelope(await api(svc, "/v2/bookings", { method: "POST", body: invalid }), 400, "invalid_params");
    await setDefect(svc, "conformance-validation-500", true);
    expectEnvelope(await api(svc, "/v2/bookings", { method: "POST", body: invalid }), 500, "internal_error");
    // Malformed JSON and a request that cannot be booked keep their own answers; a valid one is still booked.
    expectEnvelope(await api(svc, "/v2/bookings", { method: "POST", rawBody: "{" }), 400, "malformed_json");
    const unknownType = bookingBody(svc, t, 10, { productTypeUuid: "00000000-0000-4000-8000-000000000000" });
    expectEnvelope(await api(svc, "/v2/bookings", { method: "POST", body: unknownType }), 422, "invalid_data");
    expect((await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, t) })).status).toBe(201);
  });
});

describe("conformance defects: booking states (spec 3)", () => {
  it("should answer a new booking as reserved, and approved under conformance-created-as-approved", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: false }));
    const ok = await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, t) });
    expect(ok.body.data.status).toBe("reserved");
    await setDefect(svc, "conformance-created-as-approved", true);
    const res = await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, t) });
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe("approved");
    // Only the create answer lies: the booking is reserved, and confirm and cancel work as they should.
    const uuid = res.body.data.uuid as string;
    expect((await api(svc, `/v2/bookings/${uuid}`)).body.data.status).toBe("reserved");
    expect((await api(svc, `/v2/bookings/${uuid}/cancel`, { method: "PUT" })).status).toBe(200);
  });

  it("should refuse confirming a booking being cancelled with 409, which booking-confirm-after-cancel lets through", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const refused = await book(svc, t);
    expect((await api(svc, `/v2/bookings/${refused}/cancel`, { method: "PUT" })).status).toBe(200);
    expectEnvelope(await api(svc, `/v2/bookings/${refused}/confirm`, { method: "PUT" }), 409, "invalid_action");
    expect((await api(svc, `/v2/bookings/${refused}`)).body.data).toMatchObject({
      status: "reserved",
      cancellationRequestStatus: "pending",
    });
    await setDefect(svc, "booking-confirm-after-cancel", true);
    const letThrough = await book(svc, t);
    await api(svc, `/v2/bookings/${letThrough}/cancel`, { method: "PUT" });
    const res = await api(svc, `/v2/bookings/${letThrough}/confirm`, { method: "PUT" });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("approved");
  });
});

describe("conformance defects: the bookings list (spec 4.3)", () => {
  async function twoBookings(svc: StartedService) {
    const t = await withSeats(svc, await withSeats(svc, pickType(svc, { instant: true })), 12);
    const customer = (n: string) => ({ firstName: `F${n}`, lastName: `L${n}`, email: `${n}@x.io`, phone: `+${n}` });
    const a = await book(svc, t, 10, { partnerReference: "ref-a", customer: customer("1") });
    const b = await book(svc, t, 12, { partnerReference: "ref-b", customer: customer("2") });
    const c = await book(svc, t, 12, { partnerReference: "ref-c", customer: customer("1") });
    return { a, b, c };
  }
  const uuids = (res: Res): string[] => (res.body.data as { uuid: string }[]).map((x) => x.uuid);

  it("should filter by status, and return every status under conformance-bookings-status-filter-ignored", async () => {
    await using svc = await start();
    const { a } = await twoBookings(svc);
    expect(uuids(await api(svc, "/v2/bookings?partner_reference=ref-a&status=reserved"))).toEqual([a]);
    expect(uuids(await api(svc, "/v2/bookings?partner_reference=ref-a&status=cancelled"))).toEqual([]);
    await setDefect(svc, "conformance-bookings-status-filter-ignored", true);
    expect(uuids(await api(svc, "/v2/bookings?partner_reference=ref-a&status=cancelled"))).toEqual([a]);
    // The other filters still filter, and a status outside the enum is still refused.
    const d12 = dateFromToday(svc.state, 12);
    expect(uuids(await api(svc, `/v2/bookings?partner_reference=ref-a&date_start=${d12}`))).toEqual([]);
    expect(uuids(await api(svc, "/v2/bookings?first_name=F2"))).toHaveLength(1);
    expect((await api(svc, "/v2/bookings?status=lost")).status).toBe(400);
  });

  it("should count every match in total, and only the page's items under conformance-pagination-total-wrong", async () => {
    await using svc = await start();
    const { a, c } = await twoBookings(svc);
    const first = await api(svc, "/v2/bookings?first_name=F1&per_page=1");
    expect(first.body.meta.pagination).toMatchObject({ total: 2, count: 1, per_page: 1, total_pages: 2 });
    const second = await api(svc, "/v2/bookings?first_name=F1&per_page=1&page=2");
    expect([...uuids(first), ...uuids(second)]).toEqual([a, c]);
    await setDefect(svc, "conformance-pagination-total-wrong", true);
    const wrong = await api(svc, "/v2/bookings?first_name=F1&per_page=1");
    expect(wrong.body.meta.pagination).toMatchObject({ total: 1, count: 1, total_pages: 1 });
    // The pages themselves are unchanged, and so are the filters.
    expect(uuids(await api(svc, "/v2/bookings?first_name=F1&per_page=1&page=2"))).toEqual([c]);
    expect(uuids(await api(svc, "/v2/bookings?partner_reference=ref-a"))).toEqual([a]);
  });
});

describe("conformance defects: a failure of the service (docs/contract-gaps.md, 500 internal_error)", () => {
  it("should answer an injected failure with the 500 envelope, and an HTML page under conformance-500-html", async () => {
    await using svc = await start();
    expect(
      (await control(svc, "/__control/faults", { method: "PUT", body: { routes: { config: { errorRate: 1 } } } }))
        .status,
    ).toBe(200);
    expectEnvelope(await api(svc, "/v2/config"), 500, "internal_error");
    await setDefect(svc, "conformance-500-html", true);
    const res = await api(svc, "/v2/config");
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toContain("text/html");
    // Other failures keep their envelope.
    expectEnvelope(await api(svc, "/v2/products/00000000-0000-4000-8000-000000000000"), 404, "not_found");
  });
});
