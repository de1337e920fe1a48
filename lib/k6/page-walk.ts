/**
 * Whether the pages of a list add up (spec 4.3 "pagination is supported on the lists"; docs/contract-gaps.md, Lists
 * and pagination: `page` from 1, `per_page`, meta.pagination total, count, per_page, current_page, total_pages): a
 * walk reads pages 1, 2, ... with one per_page, and no item may be on two pages, each page must hold the items its
 * `total` puts there, and a whole walk must see `total` items. A partner mirroring the catalogue silently misses a
 * product otherwise.
 *
 * Two ways to judge, one set of findings: `strict` (the conformance scenario, where nothing changes the list between
 * its reads) takes every finding; under load a correct service's list may shift between two reads (items added or
 * withdrawn), so only what no shift explains counts: an item on two pages while `total` did not change in between,
 * and a page whose own figures disagree with its items. Even those are confirmed by reading the pages again at once
 * (confirmFindings) before they fail a check: a shift made of an addition and a withdrawal leaves `total` as it was.
 */
import { isRecord } from "../contract/index.ts";

/** The check a page walk under load is recorded as, named by its rule like the cheap rules (cheap-rules.ts). */
export const PAGE_WALK_CHECK = "4.3-pagination-consistent: a list's pages add up (no item on two pages, none missing)";

/** One page of a walk: the page asked for, the uuids of its items in order, and its pagination figures. */
export interface PageRead {
  page: number;
  uuids: string[];
  total: number | undefined;
  count: number | undefined;
  perPage: number | undefined;
  currentPage: number | undefined;
  totalPages: number | undefined;
}

/** A finding: what is wrong, the pages it is about, and a key that names the same finding on a re-read. */
export interface WalkFinding {
  key: string;
  problem: string;
  pages: number[];
}

/** A figure of meta.pagination as a number: a numeric string counts too (its form is gaps-lists-envelope's rule). */
function figure(pagination: Record<string, unknown>, name: string): number | undefined {
  const value = pagination[name];
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

/** A page of a list answer's body, or undefined when the body is no list envelope with items that have a uuid. */
export function pageReadOf(page: number, body: unknown): PageRead | undefined {
  if (!isRecord(body) || !Array.isArray(body.data) || !isRecord(body.meta) || !isRecord(body.meta.pagination))
    return undefined;
  const uuids = (body.data as unknown[]).map((item) => (isRecord(item) ? item.uuid : undefined));
  if (!uuids.every((u): u is string => typeof u === "string")) return undefined;
  const p = body.meta.pagination;
  return {
    page,
    uuids,
    total: figure(p, "total"),
    count: figure(p, "count"),
    perPage: figure(p, "per_page"),
    currentPage: figure(p, "current_page"),
    totalPages: figure(p, "total_pages"),
  };
}

/** The items a page should hold by its own total: per_page of them, fewer on the last page, none past it. */
function itemsExpected(total: number, page: number, perPage: number): number {
  return Math.max(0, Math.min(perPage, total - (page - 1) * perPage));
}

/** What is wrong with one page's own figures against what was asked and the items it holds. */
export function pageProblem(read: PageRead, perPage: number): string | undefined {
  const { page, total, uuids } = read;
  if (total === undefined) return `page ${String(page)} has no total`;
  const pages = Math.ceil(total / perPage);
  const wrong: string[] = [];
  if (read.currentPage !== page) wrong.push(`current_page ${String(read.currentPage)}`);
  if (read.perPage !== perPage) wrong.push(`per_page ${String(read.perPage)}`);
  if (read.count !== uuids.length) wrong.push(`count ${String(read.count)} for ${String(uuids.length)} items`);
  // An empty list may call itself one page or none.
  if (read.totalPages !== pages && !(total === 0 && read.totalPages === 1))
    wrong.push(`total_pages ${String(read.totalPages)}, not ${String(pages)} for total ${String(total)}`);
  const expected = itemsExpected(total, page, perPage);
  if (uuids.length !== expected)
    wrong.push(`${String(uuids.length)} items where total ${String(total)} puts ${String(expected)} on it`);
  return wrong.length ? `page ${String(page)} (per_page ${String(perPage)}): ${wrong.join(", ")}` : undefined;
}

/** Whether `total` was the same on every page read from page `a` to page `b` (the reads in walk order). */
function totalHeld(reads: readonly PageRead[], a: number, b: number): boolean {
  const between = reads.filter((r) => r.page >= a && r.page <= b);
  return between.every((r) => r.total !== undefined && r.total === between[0]?.total);
}

/**
 * What does not add up in a walk's pages (in page order). `complete`: the walk read every page the list has.
 * `strict`: nothing can have changed the list between the reads; otherwise an item on two pages counts only while
 * `total` held between them, and the walk's total only when it held throughout.
 */
export function walkFindings(
  reads: readonly PageRead[],
  perPage: number,
  options: { complete: boolean; strict: boolean; what: string },
): WalkFinding[] {
  const findings: WalkFinding[] = [];
  for (const read of reads) {
    const problem = pageProblem(read, perPage);
    if (problem !== undefined)
      findings.push({ key: `page ${String(read.page)}`, problem: `${options.what} ${problem}`, pages: [read.page] });
  }
  const firstPage = new Map<string, number>();
  for (const read of reads) {
    for (const uuid of read.uuids) {
      const first = firstPage.get(uuid);
      if (first === undefined) firstPage.set(uuid, read.page);
      else if (options.strict || totalHeld(reads, first, read.page)) {
        const where = `pages ${String(first)} and ${String(read.page)}`;
        const total = totalHeld(reads, first, read.page) ? ` (total ${String(read.total)} on both)` : "";
        findings.push({
          key: `${uuid} on ${where}`,
          problem: `${options.what}: item ${uuid} is on ${where} (per_page ${String(perPage)})${total}`,
          pages: [first, read.page],
        });
      }
    }
  }
  const total = reads[0]?.total;
  const held = reads.every((r) => r.total === total);
  if (options.strict && !held)
    findings.push({
      key: "total changed",
      problem: `${options.what}: total went ${reads.map((r) => String(r.total)).join(", ")} over pages 1 to ${String(reads.length)}`,
      pages: reads.map((r) => r.page),
    });
  if (options.complete && held && total !== undefined && firstPage.size !== total)
    findings.push({
      key: "items seen",
      problem: `${options.what}: ${String(firstPage.size)} distinct items on its ${String(reads.length)} pages, total says ${String(total)}`,
      pages: reads.map((r) => r.page),
    });
  return findings;
}

/**
 * Under load: the findings that are there again when their pages are read once more, back to back, each page once
 * (`reread` gives a page, or undefined when it could not be read: a finding about it is then not confirmed). A finding
 * about the walk as a whole (items seen) is confirmed by any finding of its pages read again.
 */
export function confirmFindings(
  findings: readonly WalkFinding[],
  perPage: number,
  what: string,
  reread: (page: number) => PageRead | undefined,
): WalkFinding[] {
  const again = new Map<number, PageRead>();
  for (const page of [...new Set(findings.flatMap((f) => f.pages))].sort((a, b) => a - b)) {
    const read = reread(page);
    if (read !== undefined) again.set(page, read);
  }
  const confirmed: WalkFinding[] = [];
  for (const finding of findings) {
    const reads = finding.pages.map((page) => again.get(page));
    if (reads.some((r) => r === undefined)) continue;
    const complete = finding.key === "items seen";
    const now = walkFindings(reads as PageRead[], perPage, { complete, strict: false, what });
    const same = now.find((f) => complete || f.key === finding.key);
    if (same !== undefined) confirmed.push(same);
  }
  return confirmed;
}

/** A walk's pages in order, whether it read every page the list has, and the page it could not read if any. */
export interface Walk {
  reads: PageRead[];
  complete: boolean;
  unread?: number;
}

/**
 * Reads pages 1, 2, ... (`read` gives a page, or undefined when its answer is no usable list) up to the last page
 * page 1 names, at most `maxPages`. A page that cannot be read ends the walk there (`unread`), page 1 included.
 */
export function walkPages(read: (page: number) => PageRead | undefined, perPage: number, maxPages: number): Walk {
  const first = read(1);
  if (first === undefined) return { reads: [], complete: false, unread: 1 };
  const named = first.totalPages ?? Math.ceil((first.total ?? 0) / perPage);
  const last = Math.min(maxPages, Math.max(1, named));
  const reads = [first];
  for (let page = 2; page <= last; page++) {
    const next = read(page);
    if (next === undefined) return { reads, complete: false, unread: page };
    reads.push(next);
  }
  return { reads, complete: last >= named };
}
