import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_FIELDS, parseCombinedLine } from "../../lib/harness/model/log-formats.ts";
import { parseServiceArgs } from "../../service/options.ts";
import { start } from "./helpers.ts";

describe("the service's access log", () => {
  it("should write one combined line per API request, with the key in the user field, once stopped", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "access-log-")), "access.log");
    const service = await start({ accessLog: file, partners: 120 });
    const before = Date.now();
    const ok = await fetch(`${service.apiUrl}/v2/products?page=1`, {
      headers: { "X-Authorization": "atd-partner-120" },
    });
    const refused = await fetch(`${service.apiUrl}/v2/bookings/x"y`);
    await Promise.all([ok.text(), refused.text()]);
    expect([ok.status, refused.status]).toEqual([200, 401]);
    await service.stop();
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^127\.0\.0\.1 - atd-partner-120 \[\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2}\.\d{3} \+0000\] "GET \/v2\/products\?page=1 HTTP\/1\.1" 200 - "-" "[^"]*"$/,
    );
    const record = parseCombinedLine(lines[0] ?? "", DEFAULT_FIELDS.combined);
    expect(record).toMatchObject({ method: "GET", path: "/v2/products", status: 200, client: "atd-partner-120" });
    expect(record?.timeMs).toBeGreaterThanOrEqual(before - 1);
    // No key: "-"; the quote in the path escaped as nginx does, so the line stays one field per field.
    expect(lines[1]).toContain(" - - [");
    expect(lines[1]).toContain('"GET /v2/bookings/x%22y HTTP/1.1" 401');
  });

  it("should refuse an empty --access-log and a --partners out of range", () => {
    expect(() => parseServiceArgs(["--access-log", " "], {})).toThrow(/--access-log must not be empty/);
    expect(() => parseServiceArgs(["--partners", "0"], {})).toThrow(/--partners must be an integer from 1 to 10000/);
    expect(parseServiceArgs(["--partners", "400"], {}).partners).toBe(400);
  });
});
