import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { endpointOf } from "../../lib/harness/model/endpoint-of-path.ts";
import {
  DEFAULT_FIELDS,
  lineParser,
  parseCombinedLine,
  parseJsonLine,
  parseTimeLocal,
} from "../../lib/harness/model/log-formats.ts";
import { hashClient, readLogs, type KeptRequest } from "../../lib/harness/model/read-log.ts";
import { fieldsOf } from "../../lib/harness/model/fit-command.ts";
import { escapeLogged, logTime } from "../../service/access-log.ts";

const SERVICE_LINE =
  '127.0.0.1 - atd-partner-07 [27/Nov/2026:23:43:20.461 +0000] "GET /v2/products?page=1&per_page=60 HTTP/1.1" 200 - "-" "Grafana k6/2.2.0"';

describe("access log formats", () => {
  it("should read the service's combined line: key from the user field, time to the millisecond, no query", () => {
    expect(parseCombinedLine(SERVICE_LINE, DEFAULT_FIELDS.combined)).toEqual({
      timeMs: Date.UTC(2026, 10, 27, 23, 43, 20, 461),
      method: "GET",
      path: "/v2/products",
      status: 200,
      client: "atd-partner-07",
    });
  });

  it("should read $time_local without a fraction and with an offset", () => {
    expect(parseTimeLocal("27/Nov/2026:23:43:20 +0100")).toBe(Date.UTC(2026, 10, 27, 22, 43, 20));
    expect(parseTimeLocal(logTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
  });

  it("should read extra fields after combined's nine by --field and --client-id", () => {
    const line =
      '10.1.1.1 - - [27/Nov/2026:23:43:20 +0000] "PUT /v2/bookings/b1/confirm HTTP/1.1" 200 12 "-" "curl" "key-9" 1795822400.250';
    const fields = fieldsOf("combined", "time=extra2", "extra1");
    expect(parseCombinedLine(line, fields)).toMatchObject({ client: "key-9", timeMs: 1795822400250, method: "PUT" });
    // Without them: the user field is "-", no client, not a request the fit can place.
    expect(parseCombinedLine(line, DEFAULT_FIELDS.combined)).toBeUndefined();
  });

  it("should read JSON lines with a field map, and a request field in place of method and path", () => {
    const fields = fieldsOf("json", "time=ts,path=uri,method=verb,status=code", "api_key");
    expect(
      parseJsonLine(
        '{"ts":"2026-11-27T23:00:00.5Z","uri":"/v2/bookings?x=1","verb":"post","code":201,"api_key":"k"}',
        fields,
      ),
    ).toEqual({
      timeMs: Date.UTC(2026, 10, 27, 23, 0, 0, 500),
      method: "POST",
      path: "/v2/bookings",
      status: 201,
      client: "k",
    });
    const nginxJson = '{"time":1795820400,"request":"GET /v2/config HTTP/2.0","status":"200","client":"k"}';
    expect(parseJsonLine(nginxJson, DEFAULT_FIELDS.json)).toMatchObject({ path: "/v2/config", timeMs: 1795820400000 });
  });

  it("should refuse lines that are not requests without throwing", () => {
    const combined = lineParser("combined", DEFAULT_FIELDS.combined);
    const json = lineParser("json", DEFAULT_FIELDS.json);
    for (const line of [
      "",
      "garbage",
      SERVICE_LINE.slice(0, 60),
      SERVICE_LINE.replace("200", "999"),
      SERVICE_LINE.replace("27/Nov", "27/Foo"),
    ])
      expect(combined(line)).toBeUndefined();
    for (const line of ["{", "[]", "null", '{"time":"x","method":"GET","path":"/v2/config","status":200,"client":"k"}'])
      expect(json(line)).toBeUndefined();
  });

  it("should escape what would break a logged field as nginx does, and read the line back", () => {
    expect(escapeLogged('a"b\\c\n\u00e9\u20ac')).toBe("a\\x22b\\x5Cc\\x0A\\xE9%E2%82%AC");
    const line = SERVICE_LINE.replace("Grafana k6/2.2.0", escapeLogged('odd "agent"'));
    expect(parseCombinedLine(line, DEFAULT_FIELDS.combined)).toMatchObject({ path: "/v2/products", status: 200 });
  });

  it("should refuse a --field that names no field of the record", () => {
    expect(() => fieldsOf("json", "colour=red", undefined)).toThrow(/Failed to read --field: "colour=red"/);
    expect(() => fieldsOf("json", "time", undefined)).toThrow(/Please write e\.g\. --field time=ts/);
  });

  it("should place paths on the endpoint table by method, behind any prefix, and nothing else", () => {
    expect(endpointOf("GET", "/v2/products")).toBe("products");
    expect(endpointOf("POST", "/v2/bookings")).toBe("bookingCreate");
    expect(endpointOf("GET", "/v2/bookings")).toBe("bookings");
    expect(endpointOf("GET", "/api/v2/product-types/t1/price-lists/2026-12-01")).toBe("priceListDate");
    expect(endpointOf("GET", "/v2/bookings/b1/vouchers/v1/file")).toBe("voucherFile");
    expect(endpointOf("GET", "/__control/reset")).toBeUndefined();
    expect(endpointOf("DELETE", "/v2/bookings/b1")).toBeUndefined();
    expect(endpointOf("GET", "/health")).toBeUndefined();
  });
});

describe("reading logs", () => {
  it("should stream plain and gzip files, count malformed lines with where they are, and hash the keys", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "model-read-"));
    const plain = path.join(dir, "a.log");
    const gz = path.join(dir, "b.log.gz");
    writeFileSync(plain, `${SERVICE_LINE}\nnot a line\n\n${SERVICE_LINE.replace("/v2/products", "/health")}\n`);
    writeFileSync(gz, gzipSync(`${SERVICE_LINE}\n{"half json\n`));
    const kept: KeptRequest[] = [];
    const counts = await readLogs([plain, gz], lineParser("combined", DEFAULT_FIELDS.combined), (r) => kept.push(r));
    expect(counts).toEqual({ lines: 5, malformed: 2, kept: 2, malformedExamples: [`${plain}:2`, `${gz}:2`] });
    expect(kept.map((r) => r.endpoint)).toEqual(["products", "products"]);
    expect(kept[0]?.clientHash).toBe(hashClient("atd-partner-07"));
    expect(kept[0]?.clientHash).not.toContain("atd-partner");
  });

  it("should refuse a file that is not gzip though named .gz, as a read error", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "model-read-"));
    const bad = path.join(dir, "c.log.gz");
    writeFileSync(bad, "plain text");
    await expect(readLogs([bad], lineParser("combined", DEFAULT_FIELDS.combined), () => undefined)).rejects.toThrow(
      /c\.log\.gz/,
    );
  });
});
