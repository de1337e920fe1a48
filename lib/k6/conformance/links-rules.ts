/**
 * The judge of 1-links-self (spec Part 1; docs/contract-gaps.md, Links): every answer carries `links`, an array of
 * {rel, href, method} with `self` among them, failures included. It reads one answer of every kind a partner gets:
 * the catalogue's details and lists, the single date, the config, a refusal, and a booking of the run's key through
 * its life (made, read, listed, cancelled), and names every answer that lacks `self`, not only the first.
 */
import { ENDPOINTS, isRecord } from "../../contract/index.ts";
import type { ApiResponse } from "../client.ts";
import { bookableSlot, bookingRequest, cancelAll, create, customerOf, runTag } from "./booking-rules.ts";
import {
  answerEvidence,
  evidence,
  failed,
  firstType,
  notJudged,
  passed,
  type ConformanceContext,
  type FoundProductType,
  type Judge,
} from "./judge.ts";

/**
 * Spec Part 1, docs/contract-gaps.md (Links): `links` is an array of {rel, href, method}; an answer's own links hold
 * `self` (`withSelf`), a nested record's need not (a voucher's link is its file). Returns what is wrong, or undefined.
 */
export function linksProblem(where: string, links: unknown, withSelf = true): string | undefined {
  if (!Array.isArray(links)) return `${where}: links is ${JSON.stringify(links ?? null).slice(0, 60)}, not an array`;
  for (const l of links as unknown[]) {
    if (!isRecord(l) || typeof l.rel !== "string" || typeof l.href !== "string" || typeof l.method !== "string")
      return `${where}: link ${JSON.stringify(l).slice(0, 80)} is not {rel, href, method}`;
  }
  const rels = (links as Record<string, unknown>[]).map((l) => String(l.rel));
  if (!withSelf || rels.includes("self")) return undefined;
  return `${where}: no self link (rels: ${rels.join(", ") || "none"})`;
}

/** What is wrong with one answer's links: its own (self among them), and those of its data or list items. */
export function answerLinksProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return "the body is not a JSON object";
  const own = linksProblem("the answer", body.links);
  if (own !== undefined) return own;
  const data = body.data;
  if (isRecord(data) && data.links !== undefined) return linksProblem("its data", data.links, false);
  if (!Array.isArray(data)) return undefined;
  const items = data as unknown[];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (isRecord(item) && item.links !== undefined) {
      const problem = linksProblem(`item ${String(i)}`, item.links, false);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

/** One answer the judge read: what it is (named in the problem), how it was asked, and what came back. */
interface Read {
  what: string;
  method: string;
  res: ApiResponse<unknown>;
}

function pathOf(ctx: ConformanceContext, res: ApiResponse<unknown>): string {
  return res.url.startsWith(ctx.config.baseUrl) ? res.url.slice(ctx.config.baseUrl.length) : res.url;
}

/** The catalogue's answers: every detail and list of spec 4.1 and 4.2 for the first found type, and the config. */
function catalogueReads(ctx: ConformanceContext, type: FoundProductType): Read[] {
  const c = ctx.client;
  const get = (what: string, res: ApiResponse<unknown>): Read => ({ what, method: "GET", res });
  return [
    get("the product list", c.listProducts({ per_page: 2 })),
    get("the product detail", c.getProduct(type.productUuid)),
    get("the product's restrictions", c.getProductRestrictions(type.productUuid)),
    get("the product's product types", c.listProductTypes(type.productUuid)),
    get("the product-type detail", c.getProductType(type.uuid)),
    get("the price calendar", c.getPriceList(type.uuid, ctx.probeDate, ctx.probeDate)),
    get("the single-date result", c.getPriceForDate(type.uuid, ctx.probeDate)),
    get("the config", c.getConfig()),
  ];
}

/**
 * A booking's answers: made, read, listed by its reference and cancelled (so the run holds no seat); the reason
 * when none could be made.
 */
function bookingReads(ctx: ConformanceContext): Read[] | string {
  const slot = bookableSlot(ctx, 1);
  if (slot === undefined) return `no product type found is bookable on ${ctx.probeDate}`;
  const tag = runTag();
  const reference = `atd-conformance-links-${tag}`;
  const made = create(ctx, bookingRequest(slot, reference, customerOf(tag, "l")));
  if ("problem" in made) return made.problem;
  const reads: Read[] = [{ what: "the booking made", method: "POST", res: made.res }];
  try {
    reads.push({ what: "the booking detail", method: "GET", res: ctx.client.getBooking(made.uuid) });
    const list = ctx.client.listBookings({ partner_reference: reference });
    reads.push({ what: "the booking list", method: "GET", res: list });
  } finally {
    const cancelled = ctx.client.cancelBooking(made.uuid);
    if (cancelled.status === 200) reads.push({ what: "the cancelled booking", method: "PUT", res: cancelled });
    else cancelAll(ctx, [made.uuid]);
  }
  return reads;
}

const linksSelf: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged("setup found no product type to ask about");
  const reads = catalogueReads(ctx, type);
  const bookings = bookingReads(ctx);
  if (typeof bookings !== "string") reads.push(...bookings);
  // 429s are the rate-limit rules' business (spec 7.1), as under load.
  const problems = reads
    .filter((r) => r.res.status !== 429)
    .flatMap((r) => {
      const problem = answerLinksProblem(r.res.body);
      return problem === undefined
        ? []
        : [`${r.what}: ${problem}: ${answerEvidence(r.method, pathOf(ctx, r.res), r.res)}`];
    });
  // Failures carry links too (docs/contract-gaps.md, Links): a request without a key, which spends no allowance.
  const refused = ctx.raw({ method: "GET", path: ENDPOINTS.config.path, key: null });
  const refusal = answerLinksProblem(refused.json);
  if (refusal !== undefined)
    problems.push(`a ${String(refused.status)} answer: ${refusal}: ${evidence("GET", ENDPOINTS.config.path, refused)}`);
  if (problems.length > 0) return failed(`${String(problems.length)} answer(s): ${problems.join(" | ")}`);
  return typeof bookings === "string"
    ? notJudged(`the catalogue's answers and a refusal carry self, but no booking could be made to read: ${bookings}`)
    : passed;
};

export const LINKS_JUDGES: Record<string, Judge> = { "1-links-self": linksSelf };
