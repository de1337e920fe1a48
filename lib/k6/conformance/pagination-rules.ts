/**
 * The judge of 4.3-pagination-consistent (spec 4.3 "pagination is supported on the lists"; docs/contract-gaps.md,
 * Lists and pagination): the pages of every list it walks add up. The products list page by page (per_page chosen so
 * the walk has a few pages, at most MAX_PAGES of them), the product types of a product that has several, one to a
 * page, and the bookings of the run's key (booking-rules.ts). Nothing changes the catalogue during the conformance
 * run, so the walks are strict (page-walk.ts): an item on two pages, a page whose figures disagree with its items, a
 * total that changes or that the items seen do not reach each fail the rule, naming the items and pages.
 */
import { PAGINATION } from "../../contract/index.ts";
import type { ApiResponse } from "../client.ts";
import { pageReadOf, walkFindings, walkPages, type PageRead } from "../page-walk.ts";
import { bookingPages } from "./booking-rules.ts";
import {
  answerEvidence,
  failed,
  firstType,
  notJudged,
  passed,
  type ConformanceContext,
  type Judge,
  type Verdict,
} from "./judge.ts";

/** Pages a catalogue walk aims at: a few, so that a page boundary is crossed several times. */
const TARGET_PAGES = 5;
/** The most pages a walk reads, whatever the list's size (a bound on its requests). */
export const MAX_PAGES = 10;

/** Walks the list at `path` with one per_page and judges its pages strictly; `list` asks for one page. */
function judgeWalk(path: string, perPage: number, list: (page: number) => ApiResponse<unknown>): Verdict {
  let last: ApiResponse<unknown> | undefined;
  const read = (page: number): PageRead | undefined => {
    last = list(page);
    return last.status === 200 ? pageReadOf(page, last.body) : undefined;
  };
  const walk = walkPages(read, perPage, MAX_PAGES);
  if (walk.unread !== undefined && last !== undefined) {
    const answer = answerEvidence("GET", `${path}?page=${String(walk.unread)}&per_page=${String(perPage)}`, last);
    if (last.status === 429) return notJudged(`rate limited: ${answer}`);
    return failed(`page ${String(walk.unread)} is no list of items with a uuid and meta.pagination: ${answer}`);
  }
  const what = `GET ${path}`;
  const findings = walkFindings(walk.reads, perPage, { complete: walk.complete, strict: true, what });
  return findings.length ? failed(findings.map((f) => f.problem).join("; ")) : passed;
}

/** The products list, with a per_page that gives it about TARGET_PAGES pages (learnt from a first page of one). */
function productPages(ctx: ConformanceContext): Verdict {
  const probe = ctx.client.listProducts({ per_page: 1 });
  const total = probe.status === 200 ? pageReadOf(1, probe.body)?.total : undefined;
  if (total === undefined) {
    const answer = answerEvidence("GET", "/v2/products?per_page=1", probe);
    return probe.status === 429 ? notJudged(`rate limited: ${answer}`) : failed(`no list with a total: ${answer}`);
  }
  const perPage = Math.min(PAGINATION.maxPerPage, Math.max(1, Math.ceil(total / TARGET_PAGES)));
  return judgeWalk("/v2/products", perPage, (page) => ctx.client.listProducts({ page, per_page: perPage }));
}

/** The product types of the first found product with the most of them, one to a page. */
function productTypePages(ctx: ConformanceContext): Verdict {
  const counts = new Map<string, number>();
  for (const t of ctx.productTypes) counts.set(t.productUuid, (counts.get(t.productUuid) ?? 0) + 1);
  let product = firstType(ctx)?.productUuid;
  if (product === undefined) return notJudged("setup found no product type to ask about");
  for (const [uuid, n] of counts) if (n > (counts.get(product) ?? 0)) product = uuid;
  const path = `/v2/products/${product}/product-types`;
  return judgeWalk(path, 1, (page) => ctx.client.listProductTypes(product, { page, per_page: 1 }));
}

const paginationConsistent: Judge = (ctx) => {
  const verdicts = [productPages(ctx), productTypePages(ctx), bookingPages(ctx)];
  const problems = verdicts.flatMap((v) => ("problem" in v && v.problem !== undefined ? [v.problem] : []));
  if (problems.length) return failed(problems.join(" | "));
  return verdicts.find((v) => "notJudged" in v) ?? passed;
};

export const PAGINATION_JUDGES: Record<string, Judge> = { "4.3-pagination-consistent": paginationConsistent };
