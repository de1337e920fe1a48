/**
 * The judge of 4.3-pagination-consistent (lib/k6/conformance/pagination-rules.ts) against a small service behind the
 * k6 shims: the products list, a product's product types and the key's bookings, each paginated as the contract says
 * unless the test breaks one. The judge walks each strictly and names the item and pages that do not add up.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import {
  sendRaw,
  type ConformanceContext,
  type FoundProductType,
  type RawRequest,
} from "../../lib/k6/conformance/judge.ts";
import { MAX_PAGES, PAGINATION_JUDGES } from "../../lib/k6/conformance/pagination-rules.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";

const BASE = "http://svc.test";
const KEY = "key-1";
const PROBE = "2030-01-07";
const PRODUCT = "p-0";

type Break = "products-overlap" | "types-total-zero" | "bookings-drop-one" | "products-per-page-ignored";
let broken: Break | undefined;
let products: string[] = [];
let bookings: { uuid: string; firstName: string; cancelled: boolean }[] = [];

function json(status: number, body: unknown): ShimResponse {
  return { status, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

const links = (path: string) => [{ rel: "self", href: path, method: "GET" }];

/** A page of `list` as page and per_page ask; `early` starts every page after the first one item early. */
function page(path: string, query: URLSearchParams, list: readonly string[], early = false, total = list.length) {
  const n = Number(query.get("page") ?? "1");
  const asked = Number(query.get("per_page") ?? "10");
  const perPage = broken === "products-per-page-ignored" && path === "/v2/products" ? 10 : asked;
  const shift = early && n > 1 ? 1 : 0;
  const data = list.slice((n - 1) * perPage - shift, Math.min(list.length, n * perPage) - shift);
  const pagination = {
    total,
    count: data.length,
    per_page: perPage,
    current_page: n,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
  };
  return json(200, { data: data.map((uuid) => ({ uuid })), meta: { pagination }, links: links(path) });
}

function service(method: string, url: string, body: string | null): ShimResponse {
  const { pathname: path, searchParams: query } = new URL(url);
  if (path === "/v2/products") return page(path, query, products, broken === "products-overlap");
  if (path === `/v2/products/${PRODUCT}/product-types`) {
    const types = ["t-0", "t-1", "t-2"];
    return page(path, query, types, false, broken === "types-total-zero" ? 0 : 3);
  }
  if (/\/price-lists\/\d{4}-\d{2}-\d{2}$/.test(path))
    return json(200, { data: { date: PROBE, available: true, timeslots: [] }, links: links(path) });
  if (path === "/v2/bookings" && method === "POST") {
    const sent = JSON.parse(body ?? "{}") as { customer: { firstName: string } };
    const uuid = `b-${String(bookings.length)}`;
    bookings.push({ uuid, firstName: sent.customer.firstName, cancelled: false });
    return json(201, { data: { uuid, status: "reserved" }, links: links(path) });
  }
  if (path === "/v2/bookings") {
    const found = bookings.filter((b) => b.firstName === query.get("first_name")).map((b) => b.uuid);
    const shown = broken === "bookings-drop-one" ? found.slice(1) : found;
    return page(path, query, shown, false, found.length);
  }
  const cancel = /^\/v2\/bookings\/([^/]+)\/cancel$/.exec(path)?.[1];
  if (cancel !== undefined) {
    const b = bookings.find((x) => x.uuid === cancel);
    if (b) b.cancelled = true;
    return json(200, { data: { uuid: cancel, status: "cancelled" }, links: links(path) });
  }
  return json(404, { error: { code: "not_found", message: path, http_code: 404 }, links: links(path) });
}

const type = (uuid: string): FoundProductType => ({
  uuid,
  productUuid: PRODUCT,
  available: true,
  timeslots: [],
  instantConfirmation: true,
  daysInAdvance: 0,
  minPax: 1,
  maxPax: 4,
  categories: ["adults"],
  requiredOptions: [],
  timeslotted: false,
});

function context(): ConformanceContext {
  const client = new ApiClient({
    baseUrl: BASE,
    apiKey: KEY,
    timeout: "5s",
    phase: "setup",
    onThrottle: "return",
    maxThrottleWaitSeconds: 1,
  });
  const raw = (request: RawRequest) => sendRaw(BASE, KEY, request);
  const config = loadConfig({ ATD_BASE_URL: BASE, ATD_API_KEYS: KEY });
  return { config, client, raw, productTypes: [type("t-0"), type("t-1")], probeDate: PROBE, hooks: false };
}

const judge = () => PAGINATION_JUDGES["4.3-pagination-consistent"]?.(context());
const asked = (path: string) =>
  k6State.requests
    .filter((r) => new URL(r.url).pathname === path && r.method === "GET")
    .map((r) => new URL(r.url).search);

beforeEach(() => {
  k6State.reset();
  k6State.handler = service;
  broken = undefined;
  products = Array.from({ length: 23 }, (_, i) => `p-${String(i)}`);
  bookings = [];
});

describe("4.3-pagination-consistent", () => {
  it("should walk the products a few pages long, the product types one to a page and the bookings, and pass", () => {
    expect(judge()).toEqual({ problem: undefined });
    // 23 products: one of one to learn the total, then five pages of five.
    expect(asked("/v2/products")).toEqual([
      "?per_page=1",
      ...[1, 2, 3, 4, 5].map((n) => `?page=${String(n)}&per_page=5`),
    ]);
    expect(asked(`/v2/products/${PRODUCT}/product-types`)).toEqual(
      [1, 2, 3].map((n) => `?page=${String(n)}&per_page=1`),
    );
    expect(bookings.every((b) => b.cancelled)).toBe(true);
  });

  it("should name the product on two pages and the one then on no page", () => {
    broken = "products-overlap";
    expect((judge() as { problem: string }).problem).toBe(
      "GET /v2/products: item p-4 is on pages 1 and 2 (per_page 5) (total 23 on both); GET /v2/products: 22 distinct items on its 5 pages, total says 23",
    );
  });

  it("should fail a product-types total of 0 over a page that holds a type", () => {
    broken = "types-total-zero";
    expect((judge() as { problem: string }).problem).toBe(
      "GET /v2/products/p-0/product-types page 1 (per_page 1): 1 items where total 0 puts 0 on it; GET /v2/products/p-0/product-types: 1 distinct items on its 1 pages, total says 0",
    );
  });

  it("should fail a per_page the list does not honour", () => {
    broken = "products-per-page-ignored";
    expect((judge() as { problem: string }).problem).toMatch(/^GET \/v2\/products page 1 \(per_page 5\): per_page 10/);
  });

  it("should still judge the bookings' pages, and cancel what it booked", () => {
    broken = "bookings-drop-one";
    expect((judge() as { problem: string }).problem).toMatch(/GET \/v2\/bookings\?first_name=/);
    expect(bookings.every((b) => b.cancelled)).toBe(true);
  });

  it("should walk at most MAX_PAGES pages of a long list", () => {
    products = Array.from({ length: 5000 }, (_, i) => `p-${String(i)}`);
    expect(judge()).toEqual({ problem: undefined });
    expect(asked("/v2/products")).toHaveLength(1 + MAX_PAGES);
    expect(asked("/v2/products")[1]).toBe("?page=1&per_page=100");
  });

  it("should not judge a rate-limited walk, naming the answer", () => {
    k6State.handler = (method, url, body) =>
      new URL(url).pathname === "/v2/products" && new URL(url).searchParams.get("page") === "2"
        ? json(429, { error: { code: "GEN-TOO-MANY-REQUESTS", message: "slow down", http_code: 429 }, links: [] })
        : service(method, url, body);
    expect(judge()).toEqual({
      notJudged: expect.stringMatching(/^rate limited: GET \/v2\/products\?page=2&per_page=5 -> 429/) as string,
    });
  });
});
