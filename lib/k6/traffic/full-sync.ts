/**
 * A full catalogue sync (the traffic model's fullSyncRatio): the products list walked page by page at the sync's page
 * size, at most MAX_SYNC_PAGES pages, every answer through the shared checks, and the walk judged as the check
 * PAGE_WALK_CHECK (lib/k6/page-walk.ts): under load the list may shift between two reads, so only what no shift
 * explains counts, and only once the pages it is about, read again at once, show it again.
 */
import { MAX_SYNC_PAGES } from "../../contract/traffic-model.ts";
import { checkResponse, expectThat } from "../checks.ts";
import type { ApiClient, ApiResponse, Json } from "../client.ts";
import { PAGE_WALK_CHECK, confirmFindings, pageReadOf, walkFindings, walkPages, type PageRead } from "../page-walk.ts";

/** One page's answer and whether the shared checks let it be used. */
export interface SyncPage {
  res: ApiResponse<Json[]>;
  ok: boolean;
}

const WHAT = "GET /v2/products";

/** Walks the products list and judges its pages; the answers of the pages read, in page order. */
export function fullSync(client: ApiClient, perPage: number): SyncPage[] {
  const pages: SyncPage[] = [];
  const read = (page: number): PageRead | undefined => {
    const res = client.listProducts({ page, per_page: perPage });
    const ok = checkResponse(res);
    if (pages.length < page) pages.push({ res, ok });
    return ok ? pageReadOf(page, res.body) : undefined;
  };
  const walk = walkPages(read, perPage, MAX_SYNC_PAGES);
  if (walk.reads.length === 0) return pages;
  const findings = walkFindings(walk.reads, perPage, { complete: walk.complete, strict: false, what: WHAT });
  const confirmed = findings.length > 0 ? confirmFindings(findings, perPage, WHAT, read) : [];
  expectThat(PAGE_WALK_CHECK, confirmed[0]?.problem);
  return pages;
}
