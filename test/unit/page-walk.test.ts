/**
 * Whether a list's pages add up (lib/k6/page-walk.ts): strict, as the conformance scenario judges a list nothing
 * changes; and under load, where a correct service's list may shift between two reads and only what no shift
 * explains, read again, counts.
 */
import { describe, expect, it } from "vitest";
import {
  confirmFindings,
  pageProblem,
  pageReadOf,
  walkFindings,
  walkPages,
  type PageRead,
} from "../../lib/k6/page-walk.ts";

const items = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `u${String(from + i)}`);

/** Page `page` of `list` at `perPage`, as a correct service answers it (or with its figures overridden). */
function pageOf(list: readonly string[], page: number, perPage: number, over: Partial<PageRead> = {}): PageRead {
  const uuids = list.slice((page - 1) * perPage, page * perPage);
  return {
    page,
    uuids,
    total: list.length,
    count: uuids.length,
    perPage,
    currentPage: page,
    totalPages: Math.ceil(list.length / perPage),
    ...over,
  };
}

const walkOf = (list: readonly string[], perPage: number) =>
  Array.from({ length: Math.ceil(list.length / perPage) }, (_, i) => pageOf(list, i + 1, perPage));

const strict = { complete: true, strict: true, what: "GET /v2/products" };
const underLoad = { complete: true, strict: false, what: "GET /v2/products" };

describe("a list's pages, judged strictly", () => {
  it("should find nothing wrong with pages that add up, the last one short", () => {
    expect(walkFindings(walkOf(items(23), 5), 5, strict)).toEqual([]);
  });

  it("should name an item on two pages and the item then missing (an off-by-one page offset)", () => {
    const list = items(12);
    // Page 2 starts one item early: u4 twice, u11 on no page.
    const reads = [pageOf(list, 1, 5), { ...pageOf(list, 2, 5), uuids: list.slice(4, 9) }, pageOf(list, 3, 5)];
    reads[2] = { ...reads[2], uuids: list.slice(9, 11) } as PageRead;
    expect(walkFindings(reads, 5, strict).map((f) => f.problem)).toEqual([
      "GET /v2/products: item u4 is on pages 1 and 2 (per_page 5) (total 12 on both)",
      "GET /v2/products: 11 distinct items on its 3 pages, total says 12",
    ]);
  });

  it("should name a page's figures that disagree with what was asked and what it holds", () => {
    const list = items(12);
    expect(pageProblem({ ...pageOf(list, 2, 5), currentPage: 1, count: 4 }, 5)).toBe(
      "page 2 (per_page 5): current_page 1, count 4 for 5 items",
    );
    expect(pageProblem({ ...pageOf(list, 3, 5), totalPages: 2 }, 5)).toBe(
      "page 3 (per_page 5): total_pages 2, not 3 for total 12",
    );
    expect(pageProblem({ ...pageOf(list, 1, 5), perPage: 10 }, 5)).toBe("page 1 (per_page 5): per_page 10");
    // An empty list may call itself one page or none.
    expect(pageProblem(pageOf([], 1, 5, { totalPages: 1 }), 5)).toBeUndefined();
    expect(pageProblem(pageOf([], 1, 5, { totalPages: 0 }), 5)).toBeUndefined();
  });

  it("should fail a total that changes between the pages", () => {
    const reads = [pageOf(items(10), 1, 5), pageOf(items(11), 2, 5)];
    expect(walkFindings(reads, 5, { ...strict, complete: false }).map((f) => f.key)).toEqual(["total changed"]);
  });
});

describe("a list's pages under load", () => {
  it("should not count an item on two pages when an item added in between explains it", () => {
    const before = items(10);
    const after = ["new", ...before];
    // Page 1 before the addition, page 2 after it: u4 is on both, but the total says the list grew.
    const reads = [pageOf(before, 1, 5), pageOf(after, 2, 5), pageOf(after, 3, 5)];
    expect(walkFindings(reads, 5, underLoad)).toEqual([]);
  });

  it("should count it while the total held, and confirm it only when the pages read again still show it", () => {
    const before = items(10);
    // An addition before and a withdrawal after it: the total holds, u4 is on pages 1 and 2.
    const after = ["new", ...before.slice(0, 9)];
    const reads = [pageOf(before, 1, 5), pageOf(after, 2, 5)];
    const findings = walkFindings(reads, 5, { ...underLoad, complete: false });
    expect(findings.map((f) => f.problem)).toEqual([
      "GET /v2/products: item u4 is on pages 1 and 2 (per_page 5) (total 10 on both)",
    ]);
    // Read again, the list has settled: nothing is on two pages any more.
    expect(confirmFindings(findings, 5, "GET /v2/products", (page) => pageOf(after, page, 5))).toEqual([]);
    // A service that repeats the item whatever the time: confirmed.
    const repeating = (page: number) => (page === 1 ? pageOf(before, 1, 5) : pageOf(after, 2, 5));
    expect(confirmFindings(findings, 5, "GET /v2/products", repeating).map((f) => f.key)).toEqual([
      "u4 on pages 1 and 2",
    ]);
    // A page that cannot be read again confirms nothing.
    expect(confirmFindings(findings, 5, "GET /v2/products", () => undefined)).toEqual([]);
  });

  it("should confirm a walk that sees fewer items than its total only when the pages read again fall short too", () => {
    const list = items(12);
    // Every page after the first starts one item late: u5 is on no page, page 3 holds one item.
    const skipping = (page: number): PageRead => {
      const from = page === 1 ? 0 : (page - 1) * 5 + 1;
      const uuids = list.slice(from, from + 5);
      return { ...pageOf(list, page, 5), uuids, count: uuids.length };
    };
    const findings = walkFindings([1, 2, 3].map(skipping), 5, underLoad);
    expect(findings.map((f) => f.key)).toEqual(["page 3", "items seen"]);
    expect(confirmFindings(findings, 5, "GET /v2/products", skipping).map((f) => f.key)).toEqual(["page 3", "page 3"]);
    // Read again, a list that had shifted adds up: nothing is confirmed.
    expect(confirmFindings(findings, 5, "GET /v2/products", (page) => pageOf(list, page, 5))).toEqual([]);
  });
});

describe("walking the pages", () => {
  it("should read every page page 1 names, at most maxPages, and say whether it read them all", () => {
    const list = items(23);
    const asked: number[] = [];
    const read = (page: number) => {
      asked.push(page);
      return pageOf(list, page, 5);
    };
    expect(walkPages(read, 5, 10)).toMatchObject({ complete: true });
    expect(asked).toEqual([1, 2, 3, 4, 5]);
    asked.length = 0;
    expect(walkPages(read, 5, 3)).toEqual({ reads: [1, 2, 3].map((p) => pageOf(list, p, 5)), complete: false });
    expect(asked).toEqual([1, 2, 3]);
  });

  it("should stop at a page it cannot read, naming it", () => {
    const list = items(23);
    expect(walkPages((page) => (page === 3 ? undefined : pageOf(list, page, 5)), 5, 10)).toMatchObject({
      complete: false,
      unread: 3,
    });
    expect(walkPages(() => undefined, 5, 10)).toEqual({ reads: [], complete: false, unread: 1 });
  });

  it("should read a page from a list answer's body, numeric strings as numbers", () => {
    const body = {
      data: [{ uuid: "a" }, { uuid: "b" }],
      meta: { pagination: { total: 2, count: 2, per_page: 5, current_page: "1", total_pages: "1" } },
      links: [],
    };
    expect(pageReadOf(1, body)).toEqual({
      page: 1,
      uuids: ["a", "b"],
      total: 2,
      count: 2,
      perPage: 5,
      currentPage: 1,
      totalPages: 1,
    });
    expect(pageReadOf(1, { data: [{ id: 1 }], meta: { pagination: {} } })).toBeUndefined();
    expect(pageReadOf(1, { data: {} })).toBeUndefined();
  });
});
