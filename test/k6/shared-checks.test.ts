/**
 * The shared checks fail in real k6 on the defect each is there for, and pass on a good answer: the load path records
 * a check's conditions as plain booleans in one check() call and reads headers and list items the way k6 hands them
 * over (Go's header spelling, gjson paths), so the unit tests' shims alone cannot prove it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { k6BuildOptions } from "../../esbuild.config.ts";
import { CHECK_FAILURE_MARKER, PRODUCT_LIST_ITEM_KEYS } from "../../lib/contract/index.ts";
import { resolveK6 } from "../../lib/harness/k6-binary.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";

const links = [{ rel: "self", href: "/v2/x", method: "GET" }];
const pagination = { total: 3, count: 3, per_page: 10, current_page: 1, total_pages: 1 };
const product = Object.fromEntries(PRODUCT_LIST_ITEM_KEYS.map((k) => [k, k === "links" ? links : "v"]));
const types = [1, 2, 3].map((i) => ({ uuid: `t${i}`, title: "t", links }));
const rateLimit = { "X-RateLimit-Limit": "400", "X-RateLimit-Remaining": "399" };

/** Each endpoint's answer: status, headers, body. */
function answer(url: string): [number, Record<string, string>, unknown] {
  if (url.startsWith("/v2/products?")) {
    const renamed = { ...product, name: "v" } as Record<string, unknown>;
    delete renamed.title;
    return [200, rateLimit, { data: [product, renamed], meta: { pagination }, links }];
  }
  if (url === "/v2/products/p1/product-types") {
    return [200, { "X-RateLimit-Limit": "400" }, { data: types, meta: { pagination }, links }];
  }
  if (url === "/v2/product-types/t1") return [200, rateLimit, { data: { uuid: "t1" } }];
  if (url.startsWith("/v2/product-types/t1/price-lists/")) {
    return [500, rateLimit, { error: { code: "GEN-INTERNAL", message: "m", http_code: 500 }, links }];
  }
  if (url.startsWith("/v2/product-types/t2/price-lists")) {
    // Available as true, as false, as the text "true", and without a date.
    const days = [true, false, "true", true].map((available, i) => ({ date: `2030-01-0${i + 1}`, available }));
    delete (days[3] as { date?: string }).date;
    return [200, rateLimit, { data: days, meta: { pagination }, links }];
  }
  if (url === "/v2/bookings/b1") {
    const booking = { uuid: "b1", status: "reserved", adults: 1, options: [], partner_reference: "r", guests: [] };
    return [200, {}, { data: booking, links }];
  }
  if (url === "/v2/config") return [200, {}, { data: { currency: "EUR" }, links }];
  return [404, {}, { error: { code: "GEN-NOT-FOUND", message: url, http_code: 404 }, links }];
}

let stub: ReturnType<typeof createServer>;
let stubUrl = "";

beforeAll(async () => {
  stub = createServer((req: IncomingMessage, res: ServerResponse) => {
    const [status, headers, body] = answer(req.url ?? "");
    res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => stub.close(resolve));
});

interface CheckResult {
  name: string;
  passes: number;
  fails: number;
}

async function runFixture(): Promise<{ checks: Map<string, CheckResult>; problems: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), "atd-shared-checks-"));
  await build({
    ...k6BuildOptions,
    absWorkingDir: REPO_ROOT,
    outdir: dir,
    entryPoints: ["test/k6/fixtures/shared-checks.ts"],
  });
  const summary = path.join(dir, "summary.json");
  const { stderr } = await promisify(execFile)(
    await resolveK6(),
    ["run", "--quiet", "--summary-export", summary, path.join(dir, "shared-checks.js")],
    { env: { ...process.env, K6_NO_USAGE_REPORT: "true", STUB_URL: stubUrl } },
  );
  const data = JSON.parse(readFileSync(summary, "utf8")) as { root_group: { checks: Record<string, CheckResult> } };
  const problems = stderr
    .split("\n")
    .filter((line) => line.includes(CHECK_FAILURE_MARKER))
    .map((line) => line.replaceAll('\\"', '"'));
  return { checks: new Map(Object.values(data.root_group.checks).map((c) => [c.name, c])), problems };
}

describe("shared checks in k6", () => {
  it("should fail each check on its defect, naming the problem, and pass the rest", async () => {
    const { checks, problems } = await runFixture();
    const verdicts = Object.fromEntries([...checks.values()].map((c) => [c.name, c.fails > 0 ? "fail" : "pass"]));
    expect(verdicts).toEqual({
      "products: rate-limit headers": "pass",
      "products: status 200": "pass",
      "products: list envelope with links": "pass",
      "2.1-product-list-keys: products keys match the spec": "fail",
      "productTypes: rate-limit headers": "fail",
      "productTypes: status 200": "pass",
      "productTypes: list envelope with links": "pass",
      "2.3-product-type-summary-keys: productTypes keys match the spec": "pass",
      "productType: rate-limit headers": "pass",
      "productType: status 200": "pass",
      "productType: detail envelope with links": "fail",
      "priceListDate: rate-limit headers": "pass",
      "priceListDate: status 200": "fail",
      "rate-limit: X-RateLimit-Limit constant per key": "pass",
      "rate-limit: X-RateLimit-Remaining below the limit on a 200": "pass",
      "rate-limit: X-RateLimit-Remaining never rises within a window": "pass",
      "booking: status 200": "pass",
      "booking: detail envelope with links": "pass",
      "2.8-booking-detail-keys: booking keys match the spec": "fail",
      "config: status 200": "pass",
      "config: detail envelope with links": "pass",
      // The cheap conformance rules: the products stub's values are "v" (dates, uuid, updatedAt), the types' uuids
      // t1-t3; the 500 has no timestamp and its code is not internal_error.
      "1-links-self: top-level links are {rel, href, method}, self among them": "pass",
      "gaps-formats-dates: dates are YYYY-MM-DD": "fail",
      "gaps-error-envelope: a failure is {error: {code, message, http_code}, links, timestamp}": "fail",
      "gaps-error-500: a 500 is internal_error in the error envelope": "fail",
      "gaps-formats-uuids: uuid and *Uuid values are UUIDs": "fail",
      "gaps-formats-timestamps: timestamps are ISO 8601 in UTC": "fail",
      "2-keys-camel-case: keys are camelCase": "pass",
      "9-version-prefix: every link is under /v2/": "pass",
      "gaps-lists-envelope: a list's pagination is five whole numbers, the vouchers answer has none": "pass",
      // The products stub's titleTranslated is "v", not text by language code.
      "2.12-nested-shapes: timeslots items, options and *Translated have the published shapes": "fail",
      "gaps-states-status-values: a booking's status is one of the six states": "pass",
      "header: read under Go's spelling": "pass",
      "itemAt: item by index modulo the length": "pass",
      "itemAt: nothing from a detail": "pass",
      "data: whole list after itemAt": "pass",
      "valuesWhere: the dates whose flag is true, read in Go (the text true too)": "pass",
      "valuesWhere: the dates whose flag is the boolean true, once parsed": "pass",
    });
    const text = problems.join("\n");
    expect(text).toContain("item 1: missing title; unexpected name");
    expect(text).toMatch(/products: item 0: titleTranslated is \W+v\W+ not text by language code/);
    expect(text).toContain("X-RateLimit-Remaining is null, expected an integer from 0 to 400");
    expect(text).toContain("body is not a detail envelope");
    expect(text).toContain("status 500 (GEN-INTERNAL: m), expected 200");
    expect(text).toContain("data: forbidden guests");
    expect(text).toMatch(/products item 0\.validFrom is \W+v\W+ expected a YYYY-MM-DD date/);
    expect(text).toContain("priceListDate 500: timestamp is not a string");
    // The first of the item's identifiers in k6's key order: uuid or typeUuid, both "v".
    expect(text).toMatch(/products: data\[0\]\.(uuid|typeUuid) is \W+v\W+ not a UUID/);
    expect(text).toMatch(/priceListDate 500: error\.code is \W+GEN-INTERNAL\W+ expected internal_error/);
  });
});
