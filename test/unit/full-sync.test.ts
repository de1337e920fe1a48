/**
 * A full catalogue sync under load (lib/k6/traffic/full-sync.ts) behind the k6 shims: it walks every page of the
 * products list, records the page walk as its rule's check, passes a list that adds up or that shifted between two
 * reads, and fails a list that repeats an item across pages, naming the item and the pages.
 */
import { beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { CHECK_FAILURE_MARKER } from "../../lib/contract/index.ts";
import { MAX_SYNC_PAGES } from "../../lib/contract/traffic-model.ts";
import { PAGE_WALK_CHECK } from "../../lib/k6/page-walk.ts";
import type { ShimResponse } from "../shims/k6-state.ts";

type Client = typeof import("../../lib/k6/client.ts");
type State = typeof import("../shims/k6-state.ts");
type Sync = typeof import("../../lib/k6/traffic/full-sync.ts");

let client: InstanceType<Client["ApiClient"]>;
let k6State: State["k6State"];
let fullSync: Sync["fullSync"];
let warn: MockInstance<typeof console.warn>;

const links = [{ rel: "self", href: "/v2/products", method: "GET" }];
const headers = { "Content-Type": "application/json", "X-RateLimit-Limit": "400", "X-RateLimit-Remaining": "9" };

/** The products list as `listAt(n)` has it at the n-th request; `early`: pages after the first start one early. */
function service(listAt: (request: number) => string[], early = false) {
  let requests = 0;
  return (_method: string, url: string): ShimResponse => {
    const query = new URL(url).searchParams;
    const list = listAt(requests++);
    const page = Number(query.get("page"));
    const perPage = Number(query.get("per_page"));
    const from = (page - 1) * perPage - (early && page > 1 ? 1 : 0);
    const data = list.slice(from, Math.min(list.length, page * perPage) - (early && page > 1 ? 1 : 0));
    const pagination = {
      total: list.length,
      count: data.length,
      per_page: perPage,
      current_page: page,
      total_pages: Math.ceil(list.length / perPage),
    };
    const body = { data: data.map((uuid) => ({ uuid })), meta: { pagination }, links };
    return { status: 200, headers, body: JSON.stringify(body) };
  };
}

const items = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `p${String(from + i)}`);

function walkChecks(): boolean[] {
  return k6State.checks.filter((c) => c.name === PAGE_WALK_CHECK).map((c) => c.ok);
}

function problems(): string[] {
  return warn.mock.calls
    .map((c) => String(c[0]))
    .filter((line) => line.startsWith(CHECK_FAILURE_MARKER))
    .map((line) => JSON.parse(line.slice(CHECK_FAILURE_MARKER.length)) as { check: string; problem: string })
    .filter((p) => p.check === PAGE_WALK_CHECK)
    .map((p) => p.problem);
}

const pagesAsked = () => k6State.requests.map((r) => Number(new URL(r.url).searchParams.get("page")));

beforeEach(async () => {
  vi.resetModules();
  ({ fullSync } = await import("../../lib/k6/traffic/full-sync.ts"));
  const { ApiClient } = await import("../../lib/k6/client.ts");
  ({ k6State } = await import("../shims/k6-state.ts"));
  k6State.reset();
  client = new ApiClient({
    baseUrl: "http://127.0.0.1:9",
    apiKey: "key-1",
    timeout: "5s",
    phase: "load",
    onThrottle: "return",
    maxThrottleWaitSeconds: 0,
  });
  warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  return () => {
    warn.mockRestore();
  };
});

describe("a full catalogue sync", () => {
  it("should walk every page once, hand back each answer and pass a list that adds up", () => {
    k6State.handler = service(() => items(120));
    const pages = fullSync(client, 50);
    expect(pagesAsked()).toEqual([1, 2, 3]);
    expect(pages.map((p) => [p.ok, p.res.status])).toEqual([
      [true, 200],
      [true, 200],
      [true, 200],
    ]);
    expect(walkChecks()).toEqual([true]);
  });

  it("should walk at most MAX_SYNC_PAGES pages of a long list", () => {
    k6State.handler = service(() => items(10 * MAX_SYNC_PAGES + 5));
    fullSync(client, 10);
    expect(pagesAsked()).toHaveLength(MAX_SYNC_PAGES);
    expect(walkChecks()).toEqual([true]);
  });

  it("should fail a list whose second page repeats the first page's last item, naming the item and pages", () => {
    k6State.handler = service(() => items(120), true);
    fullSync(client, 50);
    expect(walkChecks()).toEqual([false]);
    expect(problems()).toEqual(["GET /v2/products: item p49 is on pages 1 and 2 (per_page 50) (total 120 on both)"]);
    // The three pages, then each again to confirm (the repeated item, and the item then missing).
    expect(pagesAsked()).toEqual([1, 2, 3, 1, 2, 3]);
  });

  it("should pass a list that grew between two pages (an item on both, the total changed)", () => {
    k6State.handler = service((n) => (n === 0 ? items(120) : ["new", ...items(120)]));
    fullSync(client, 50);
    expect(walkChecks()).toEqual([true]);
    expect(pagesAsked()).toEqual([1, 2, 3]);
  });

  it("should pass a list that shifted with its total unchanged once the pages read again add up", () => {
    // Between pages 1 and 2 one product is added at the front and the last one withdrawn; then nothing changes.
    const shifted = ["new", ...items(119)];
    k6State.handler = service((n) => (n === 0 ? items(120) : shifted));
    fullSync(client, 50);
    expect(pagesAsked()).toEqual([1, 2, 3, 1, 2, 3]);
    expect(walkChecks()).toEqual([true]);
  });
});
