/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import { isErrorEnvelope } from "../../lib/contract/index.ts";
import { api, bookingBody, dateFromToday, pickType, start } from "./helpers.ts";

describe("bad input", () => {
  it("should answer every malformed booking request with a 4xx envelope and create nothing", async () => {
    await using svc = await start();
    const t = pickType(svc, { timeslotted: true, children: false });
    const base = bookingBody(svc, t);
    const cases: [string, Record<string, unknown> | string, number, string][] = [
      ["malformed JSON", "{nope", 400, "malformed_json"],
      ["array body", "[]", 400, "invalid_params"],
      ["adults as string", { ...base, adults: "2" }, 400, "invalid_params"],
      ["adults 0", { ...base, adults: 0 }, 400, "invalid_params"],
      ["adults negative", { ...base, adults: -1 }, 400, "invalid_params"],
      ["adults above maxPax", { ...base, adults: t.maxPax + 1 }, 422, "invalid_data"],
      ["children not sold", { ...base, children: 1 }, 422, "invalid_data"],
      [
        "unknown product type",
        { ...base, productTypeUuid: "00000000-0000-4000-8000-000000000000" },
        422,
        "invalid_data",
      ],
      ["malformed date", { ...base, date: "2030-02-30" }, 400, "invalid_params"],
      ["date in the past", { ...base, date: dateFromToday(svc.state, -3) }, 422, "invalid_data"],
      ["date beyond validity", { ...base, date: dateFromToday(svc.state, 400) }, 422, "invalid_data"],
      ["unknown timeslot", { ...base, timeslot: "03:33" }, 422, "invalid_data"],
      ["missing customer", { ...base, customer: undefined }, 400, "invalid_params"],
      ["bad email", { ...base, customer: { firstName: "a", lastName: "b", email: "nope" } }, 400, "invalid_params"],
      ["options not an array", { ...base, options: "x" }, 400, "invalid_params"],
      ["unknown option", { ...base, options: [{ uuid: "x", value: "y" }] }, 422, "invalid_data"],
    ];
    const required = svc.state.catalogue.productTypes.find((p) => p.options.some((o) => o.required));
    if (required !== undefined)
      cases.push(["missing required option", { ...bookingBody(svc, required), options: [] }, 422, "invalid_data"]);
    for (const [name, body, status, code] of cases) {
      const res = await api(svc, "/v2/bookings", {
        method: "POST",
        rawBody: typeof body === "string" ? body : JSON.stringify(body),
      });
      expect(res.status, name).toBe(status);
      expect(isErrorEnvelope(res.body), name).toBe(true);
      expect(res.body.error.code, name).toBe(code);
    }
    expect(svc.state.bookingCount()).toBe(0);
  });

  it("should refuse an oversized body with 413 and no crash", async () => {
    await using svc = await start();
    const res = await api(svc, "/v2/bookings", { method: "POST", rawBody: JSON.stringify({ x: "a".repeat(200_000) }) });
    expect(res.status).toBe(413);
    expect((await api(svc, "/v2/config")).status).toBe(200);
  });

  it("should answer unknown paths 404, wrong methods 405 with Allow, unknown UUIDs 404", async () => {
    await using svc = await start();
    const e = await api(svc, "/v2/nope");
    expect([e.status, e.body.error.code]).toEqual([404, "not_found"]);
    const m = await api(svc, "/v2/products", { method: "DELETE" });
    expect([m.status, m.body.error.code]).toEqual([405, "method_not_allowed"]);
    expect(m.headers.get("allow")).toBe("GET, OPTIONS");
    for (const path of [
      "/v2/products/00000000-0000-4000-8000-000000000000",
      "/v2/product-types/zzz",
      "/v2/bookings/zzz",
      "/v2/bookings/zzz/vouchers",
    ]) {
      expect((await api(svc, path)).status, path).toBe(404);
    }
  });

  it("should validate query parameters with 400 invalid_params", async () => {
    await using svc = await start();
    const t = pickType(svc);
    const p = svc.state.catalogue.products[0]?.uuid ?? "";
    const d = (n: number) => dateFromToday(svc.state, n);
    for (const path of [
      "/v2/products?per_page=101",
      "/v2/products?page=0",
      "/v2/products?sort=price",
      "/v2/products?language=xx",
      `/v2/products/${p}?fields=nope`,
      `/v2/product-types/${t.uuid}/price-lists`,
      `/v2/product-types/${t.uuid}/price-lists?date_start=${d(1)}&date_end=${d(200)}`,
      `/v2/product-types/${t.uuid}/price-lists?date_start=${d(5)}&date_end=${d(1)}`,
      `/v2/product-types/${t.uuid}/price-lists/2030-13-01`,
      "/v2/bookings?status=paid",
    ]) {
      const res = await api(svc, path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code, path).toBe("invalid_params");
    }
  });
});
