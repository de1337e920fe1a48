/**
 * How the conformance scenario judges one rule of the inventory (lib/contract/conformance-rules.ts): a judge gets
 * what setup found (a partner's client, the catalogue it walked, raw requests for what the typed client never sends:
 * OPTIONS, no key, a bad key, a malformed body) and returns its verdict. A judge sends few requests, at the
 * scenario's low rate; it never decides a rule from another rule's answer.
 */
import http from "k6/http";
import { HEADERS, isRecord } from "../../contract/index.ts";
import type { ConformanceRule } from "../../contract/conformance-rules.ts";
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import type { ApiClient, ApiResponse } from "../client.ts";
import type { K6Config } from "../config.ts";

/**
 * A product type setup found through the public catalogue (its detail: lead time, timeslots, pax limits, required
 * options, instant confirmation), with what the judges need to pick one.
 */
export interface FoundProductType extends ControlProductType {
  timeslotted: boolean;
}

/** An answer of a raw request: status, headers (lower-case names) and the body as text and, when JSON, parsed. */
export interface RawAnswer {
  status: number;
  header(name: string): string | undefined;
  text: string;
  json: unknown;
}

export interface RawRequest {
  method: string;
  /** A path under the base URL with its query, e.g. /v2/products?per_page=1. */
  path: string;
  /** The API key to send; null sends no X-Authorization header at all. Default: the context's key. */
  key?: string | null;
  /** A body sent as is (a string, so malformed JSON can be sent). */
  body?: string;
  headers?: Record<string, string>;
}

export interface ConformanceContext {
  config: K6Config;
  /** A partner's client (typed requests, the shared checks applied by the caller where it wants them). */
  client: ApiClient;
  /** Sends a request the typed client does not make. */
  raw(request: RawRequest): RawAnswer;
  /** The product types setup found (products list, product types of a few products). */
  productTypes: readonly FoundProductType[];
  /** A date (YYYY-MM-DD) some days ahead that the found types can be asked about. */
  probeDate: string;
  /** Whether the run has the test hooks (the run's coverage level is above public API only). */
  hooks: boolean;
}

/**
 * A judged rule: `problem` says what broke it (the evidence: request and an excerpt of the answer). A rule not judged
 * says why; `byDesign` when no run at this coverage level, or no run of a service that made this choice of the
 * contract's, could judge it (it is reported, and does not fail the run), else the run could have and did not (a
 * 429, nothing found to judge it on), which fails the run unless --allow-skips.
 */
export type Verdict = { problem: string | undefined } | { notJudged: string; byDesign?: true };

export const passed: Verdict = { problem: undefined };

export function failed(problem: string): Verdict {
  return { problem };
}

export function notJudged(reason: string): Verdict {
  return { notJudged: reason };
}

/** Not judged by design: the level lacks what the rule needs, or the service chose what the contract leaves open. */
export function notJudgedByDesign(reason: string): Verdict {
  return { notJudged: reason, byDesign: true };
}

/**
 * Whether a rule belongs in this run's verdict: a rule of the reference service's own choice only where the target is
 * the reference service, as its optional hooks show (the coverage level `reference`); any other service may choose
 * otherwise.
 */
export function inVerdict(rule: ConformanceRule, level: K6Config["coverageLevel"]): boolean {
  return rule.referenceOnly !== true || level === "reference";
}

/** The judge of one rule. */
export type Judge = (ctx: ConformanceContext) => Verdict;

/** An answer's evidence for a failed rule: method, path, status and the start of the body. */
export function evidence(method: string, path: string, answer: { status: number; text?: string }): string {
  const excerpt = (answer.text ?? "").replace(/\s+/g, " ").slice(0, 160);
  return `${method} ${path} -> ${String(answer.status)}${excerpt ? ` ${excerpt}` : ""}`;
}

/** The evidence of a typed client's answer. */
export function answerEvidence(method: string, path: string, res: ApiResponse<unknown>): string {
  return evidence(method, path, { status: res.status, text: JSON.stringify(res.body ?? null) });
}

/** A verdict when an answer the rule needs is not there: a 429 or another status means the rule was not judged. */
export function unusable(method: string, path: string, res: ApiResponse<unknown>): Verdict | undefined {
  if (res.status === 200 && isRecord(res.body)) return undefined;
  return notJudged(
    `the answer the rule is judged on was not a 200 with a JSON body: ${answerEvidence(method, path, res)}`,
  );
}

/** The product type a rule asks about when any will do: the first setup found. */
export function firstType(ctx: ConformanceContext): FoundProductType | undefined {
  return ctx.productTypes[0];
}

/**
 * Sends a request the typed client does not make (ConformanceContext.raw): the scenario's, and the judges' tests'
 * through the k6 shims, so both send it the same way.
 */
export function sendRaw(baseUrl: string, key: string, request: RawRequest, timeout = "10s"): RawAnswer {
  const headers: Record<string, string> = { Accept: "application/json", ...request.headers };
  const sent = request.key === undefined ? key : request.key;
  if (sent !== null) headers[HEADERS.auth] = sent;
  // One tag for every raw request: their paths hold uuids, which would make a metric series each.
  const res = http.request(request.method, `${baseUrl}${request.path}`, request.body ?? null, {
    headers,
    timeout,
    tags: { name: "conformance raw request" },
    responseCallback: http.expectedStatuses({ min: 100, max: 599 }),
  });
  const text = typeof res.body === "string" ? res.body : "";
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  const lower = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { status: res.status, header: (name) => lower[name.toLowerCase()], text, json };
}
