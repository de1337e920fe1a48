/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped JSON read by the assertions */
/**
 * The wire and HTTP variations of the reference service (service/variations/): each writes its answers as it says,
 * read off the wire with node:http (fetch would decode and canonicalise what these tests look at), beside the same
 * request to the service without it.
 */
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { StartedService } from "../../service/app.ts";
import type { VariationName } from "../../service/variations/index.ts";
import { KEY, api, book, bookingBody, pickType, start, withSeats } from "./helpers.ts";

interface RawAnswer {
  status: number;
  /** Header names as sent, with their values. */
  rawHeaders: [string, string][];
  header(name: string): string | undefined;
  bytes: Buffer;
  /** The body as JSON, gunzipped when it says gzip. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  /** The body's text as sent (decoded from gzip). */
  text: string;
}

function raw(svc: StartedService, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${svc.apiUrl}${path}`, { headers: { "X-Authorization": KEY, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const bytes = Buffer.concat(chunks);
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          pairs.push([res.rawHeaders[i] ?? "", res.rawHeaders[i + 1] ?? ""]);
        const text = (res.headers["content-encoding"] === "gzip" ? gunzipSync(bytes) : bytes).toString("utf8");
        resolve({
          status: res.statusCode ?? 0,
          rawHeaders: pairs,
          header: (name) => pairs.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
          bytes,
          json: JSON.parse(text) as unknown,
          text,
        });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** The service with one variation, and the reference without it; both seeded alike. */
async function pair(variation: VariationName) {
  const varied = await start({ variations: [variation] });
  const plain = await start();
  return {
    varied,
    plain,
    async [Symbol.asyncDispose]() {
      await varied[Symbol.asyncDispose]();
      await plain[Symbol.asyncDispose]();
    },
  };
}

const productOf = (svc: StartedService) => svc.state.catalogue.products[0]?.uuid ?? "";

describe("the HTTP variations", () => {
  it("should gzip an answer to a request that accepts gzip under http-gzip, and only then", async () => {
    await using both = await pair("http-gzip");
    const path = `/v2/products/${productOf(both.varied)}`;
    const gzipped = await raw(both.varied, path, { "Accept-Encoding": "gzip, deflate" });
    expect(gzipped.header("Content-Encoding")).toBe("gzip");
    expect(gzipped.header("Vary")).toBe("Accept-Encoding");
    expect(gzipped.bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(Number(gzipped.header("Content-Length"))).toBe(gzipped.bytes.length);
    expect(gzipped.json).toEqual((await raw(both.plain, path, { "Accept-Encoding": "gzip" })).json);
    const refusals: Record<string, string>[] = [{}, { "Accept-Encoding": "gzip;q=0, *" }, { "Accept-Encoding": "br" }];
    for (const refused of refusals) {
      const plain = await raw(both.varied, path, refused);
      expect(plain.header("Content-Encoding"), JSON.stringify(refused)).toBeUndefined();
      expect(plain.json.data.uuid).toBe(productOf(both.varied));
    }
    expect((await raw(both.varied, path, { "Accept-Encoding": "*" })).header("Content-Encoding")).toBe("gzip");
    // Failures too: a 404 in its envelope.
    const missing = await raw(both.varied, "/v2/nowhere", { "Accept-Encoding": "gzip" });
    expect([missing.status, missing.header("Content-Encoding"), missing.json.error.code]).toEqual([
      404,
      "gzip",
      "not_found",
    ]);
  });

  it("should send answers in chunks without Content-Length under http-chunked", async () => {
    await using both = await pair("http-chunked");
    const varied = await raw(both.varied, "/v2/products?per_page=3");
    expect(varied.header("Transfer-Encoding")).toBe("chunked");
    expect(varied.header("Content-Length")).toBeUndefined();
    const plain = await raw(both.plain, "/v2/products?per_page=3");
    expect(plain.header("Transfer-Encoding")).toBeUndefined();
    expect(Number(plain.header("Content-Length"))).toBe(plain.bytes.length);
    expect(varied.json).toEqual(plain.json);
  });

  it("should write its own header names in lower case under http-header-case", async () => {
    await using both = await pair("http-header-case");
    const names = async (svc: StartedService) =>
      (await raw(svc, "/v2/products?per_page=1")).rawHeaders.map(([name]) => name);
    const varied = await names(both.varied);
    expect(varied).toEqual(expect.arrayContaining(["content-type", "x-ratelimit-limit", "x-ratelimit-remaining"]));
    expect(varied.filter((n) => n.startsWith("X-") || n.startsWith("Content-"))).toEqual([]);
    expect(await names(both.plain)).toEqual(expect.arrayContaining(["Content-Type", "X-RateLimit-Limit"]));
  });

  it("should say charset=utf-8 on JSON under http-json-charset", async () => {
    await using both = await pair("http-json-charset");
    expect((await raw(both.varied, "/v2/config")).header("Content-Type")).toBe("application/json; charset=utf-8");
    expect((await raw(both.plain, "/v2/config")).header("Content-Type")).toBe("application/json");
  });
});

describe("the wire-format variations", () => {
  it("should add null, empty and nested keys where the key set is open under wire-extra-keys", async () => {
    await using svc = await start({ variations: ["wire-extra-keys"] });
    const t = await withSeats(svc, pickType(svc, { timeslotted: false }));
    const detail = (await api(svc, `/v2/bookings/${await book(svc, t)}`)).body;
    expect(detail.data).toMatchObject({
      timeslotUuid: null,
      supplierReference: "",
      tags: [],
      attributes: {},
      pickup: { meetingPointUuid: null, notes: "", window: { from: null, until: null } },
    });
    expect(detail.data.links[0].note).toBeNull();
    expect(detail.links[0].note).toBeNull();
    expect((await api(svc, "/v2/config")).body.data.timeslotUuid).toBeNull();
    expect((await api(svc, `/v2/products/${productOf(svc)}/restrictions`)).body.data.tags).toEqual([]);
    // An exact key set keeps its keys; its nested objects get one more.
    const product = (await api(svc, `/v2/products/${productOf(svc)}`)).body.data;
    expect(product.timeslotUuid).toBeUndefined();
    expect([product.photos[0].note, product.categories[0].note, product.locations[0].note]).toEqual([null, null, null]);
    // A failure is left as it is.
    const missing = (await api(svc, "/v2/bookings/00000000-0000-4000-8000-000000000000")).body;
    expect(missing.links[0].note).toBeUndefined();
  });

  it("should write every object's keys in reverse under wire-json-keys-reversed", async () => {
    await using both = await pair("wire-json-keys-reversed");
    const path = `/v2/products/${productOf(both.plain)}`;
    const varied = await raw(both.varied, path);
    const plain = await raw(both.plain, path);
    const keysOf = (value: unknown) => Object.keys(value as object);
    expect(keysOf(varied.json)).toEqual(keysOf(plain.json).reverse());
    expect(keysOf(varied.json.data)).toEqual(keysOf(plain.json.data).reverse());
    expect(keysOf(varied.json.data.locations[0])).toEqual(keysOf(plain.json.data.locations[0]).reverse());
    expect(varied.text.startsWith('{"links":')).toBe(true);
    expect(varied.json).toEqual(plain.json);
  });

  it("should write money with as few decimals as it needs under wire-money-shortest", async () => {
    await using both = await pair("wire-money-shortest");
    const t = pickType(both.plain);
    const path = `/v2/product-types/${t.uuid}`;
    const varied = (await raw(both.varied, path)).json.data;
    const plain = (await raw(both.plain, path)).json.data;
    expect(plain.adultParityPrice).toMatch(/^\d+\.\d\d$/);
    expect(varied.adultParityPrice).toBe(String(Number(plain.adultParityPrice)));
    expect(varied.recommendedMarkup).toBe("15");
    const products = (await raw(both.varied, `/v2/products?per_page=50`)).json.data as { basePrice: string }[];
    expect(products.every((p) => /^\d+(\.\d?[1-9])?$/.test(p.basePrice))).toBe(true);
  });

  it("should leave out the booking detail's null keys but partner_reference under wire-optional-keys-omitted", async () => {
    await using svc = await start({ variations: ["wire-optional-keys-omitted"] });
    const t = await withSeats(svc, pickType(svc, { timeslotted: false }));
    const created = await api(svc, "/v2/bookings", {
      method: "POST",
      body: bookingBody(svc, t, 10, { partnerReference: undefined }),
    });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect("timeslot" in data || "cancellationRequestStatus" in data).toBe(false);
    expect(data.partner_reference).toBeNull();
    expect(data.expiresAt).toMatch(/Z$/);
    const cancelled = (await api(svc, `/v2/bookings/${data.uuid}/cancel`, { method: "PUT" })).body.data;
    expect(cancelled.cancellationRequestStatus).toBe("pending");
  });

  it("should write timestamps with +00:00 and microseconds under wire-timestamps-plus-zero-offset", async () => {
    await using svc = await start({ variations: ["wire-timestamps-plus-zero-offset"] });
    const t = await withSeats(svc, pickType(svc));
    const detail = (await api(svc, `/v2/bookings/${await book(svc, t)}`)).body.data;
    expect(detail.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
    expect(Date.parse(String(detail.createdAt))).toBe(
      svc.state.bookings.store.byUuid.get(String(detail.uuid))?.createdAt,
    );
    // Seeded times are whole seconds: no fraction at all, as Python's isoformat writes them.
    expect((await api(svc, `/v2/products/${productOf(svc)}`)).body.data.updatedAt).toMatch(/:\d\d\+00:00$/);
    expect((await api(svc, "/v2/nowhere")).body.timestamp).toMatch(/\+00:00$/);
  });

  it("should write timestamps to the whole second under wire-timestamps-whole-seconds", async () => {
    await using svc = await start({ variations: ["wire-timestamps-whole-seconds"] });
    const t = await withSeats(svc, pickType(svc));
    const detail = (await api(svc, `/v2/bookings/${await book(svc, t)}`)).body.data;
    for (const at of [detail.createdAt, detail.updatedAt, (await api(svc, "/v2/nowhere")).body.timestamp])
      expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("should give the catalogue, bookings and vouchers version-7 UUIDs under wire-uuids-v7", async () => {
    await using svc = await start({ variations: ["wire-uuids-v7"] });
    const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const products = (await api(svc, "/v2/products?per_page=5")).body.data;
    for (const p of products) expect(p.uuid).toMatch(V7);
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const uuids = [await book(svc, t), await book(svc, t)];
    for (const uuid of uuids) {
      expect(uuid).toMatch(V7);
      // The first 48 bits are the service's time of creation, in ms.
      const ms = parseInt(uuid.replaceAll("-", "").slice(0, 12), 16);
      expect(Math.abs(ms - svc.state.now())).toBeLessThan(60_000);
    }
    const codes = await Promise.all(
      uuids.map(async (u) => String((await api(svc, `/v2/bookings/${u}`)).body.data.code)),
    );
    expect(new Set(codes).size).toBe(2);
    await api(svc, `/v2/bookings/${uuids[0] ?? ""}/confirm`, { method: "PUT" });
    const vouchers = (await api(svc, `/v2/bookings/${uuids[0] ?? ""}/vouchers`)).body.data;
    expect(vouchers.length).toBeGreaterThan(0);
    for (const v of vouchers) expect(v.uuid).toMatch(V7);
  });
});
