/**
 * Checks shared by every scenario. Each check has a stable name (k6 aggregates by name) and, when it fails, says
 * what was wrong: the problem is logged once per distinct problem per VU with a marker the harness's verdict reads,
 * so the iteration loop never floods the log.
 */
import { check } from "k6";
import {
  CHECK_FAILURE_MARKER,
  ENDPOINTS,
  HEADERS,
  diffKeys,
  isLinkArray,
  isRecord,
  type KeySet,
} from "../contract/index.ts";
import { header, type ApiResponse } from "./client.ts";

const MAX_REPORTED_PER_VU = 100;
const reported = new Set<string>();

function report(name: string, problem: string): void {
  const key = `${name}\u0000${problem}`;
  if (reported.has(key) || reported.size >= MAX_REPORTED_PER_VU) return;
  reported.add(key);
  console.warn(`${CHECK_FAILURE_MARKER}${JSON.stringify({ check: name, problem })}`);
}

/** Records one check: `problem` undefined means it passed. Returns whether it passed. */
export function expectThat(name: string, problem: string | undefined, tags?: Record<string, string>): boolean {
  const ok = problem === undefined;
  check(null, { [name]: () => ok }, tags);
  if (!ok) report(name, problem);
  return ok;
}

function describeKeyDiff(where: string, value: object, expected: KeySet, forbidden: KeySet = []): string | undefined {
  const { missing, unexpected } = diffKeys(value, expected);
  const banned = Object.keys(value).filter((k) => forbidden.includes(k));
  const parts: string[] = [];
  if (missing.length) parts.push(`missing ${missing.join(", ")}`);
  if (unexpected.length) parts.push(`unexpected ${unexpected.join(", ")}`);
  if (banned.length) parts.push(`forbidden ${banned.join(", ")}`);
  return parts.length ? `${where}: ${parts.join("; ")}` : undefined;
}

export function checkStatus(res: ApiResponse<unknown>, expected: number): boolean {
  const problem =
    res.status === expected
      ? undefined
      : res.status === 0
        ? `no response (connection failed or timed out), expected ${expected}`
        : `status ${res.status}${res.error ? ` (${res.error.code})` : ""}, expected ${expected}`;
  return expectThat(`${res.endpoint}: status ${expected}`, problem);
}

/** A list answer: the list envelope, `links` on it and on every item, and exactly the item keys of spec Part 2. */
export function checkList(res: ApiResponse<Record<string, unknown>[]>, itemKeys: KeySet): boolean {
  if (res.status !== 200) return false;
  const envelope = expectThat(
    `${res.endpoint}: list envelope with links`,
    res.data && isRecord(res.body) && isLinkArray(res.body.links)
      ? undefined
      : "body is not {data: [...], meta: {pagination}, links: [...]}",
  );
  if (!envelope || !res.data) return false;
  let problem: string | undefined;
  for (const [i, item] of res.data.entries()) {
    problem =
      describeKeyDiff(`item ${i}`, item, itemKeys) ?? (isLinkArray(item.links) ? undefined : `item ${i}: links`);
    if (problem) break;
  }
  return expectThat(`${res.endpoint}: item keys match the spec`, problem);
}

/** A detail answer: the detail envelope, `links`, and exactly the keys of spec Part 2 (none of the forbidden ones). */
export function checkDetail(res: ApiResponse<Record<string, unknown>>, keys: KeySet, forbidden: KeySet = []): boolean {
  if (res.status !== 200) return false;
  const envelope = expectThat(
    `${res.endpoint}: detail envelope with links`,
    res.data && isRecord(res.body) && isLinkArray(res.body.links)
      ? undefined
      : "body is not {data: {...}, links: [...]}",
  );
  if (!envelope || !res.data) return false;
  return expectThat(`${res.endpoint}: keys match the spec`, describeKeyDiff("data", res.data, keys, forbidden));
}

function integerHeader(res: ApiResponse<unknown>, name: string): number | undefined {
  const raw = header(res, name);
  return raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : undefined;
}

/** Spec Part 8: every answer of a listed endpoint carries X-RateLimit-Limit and X-RateLimit-Remaining. */
export function checkRateLimitHeaders(res: ApiResponse<unknown>): boolean {
  if (!ENDPOINTS[res.endpoint].rateLimited || res.status === 0) return true;
  const limit = integerHeader(res, HEADERS.rateLimitLimit);
  const remaining = integerHeader(res, HEADERS.rateLimitRemaining);
  let problem: string | undefined;
  if (limit === undefined || limit <= 0) {
    problem = `${HEADERS.rateLimitLimit} is ${JSON.stringify(header(res, HEADERS.rateLimitLimit) ?? null)}, expected a positive integer`;
  } else if (remaining === undefined || remaining > limit) {
    problem = `${HEADERS.rateLimitRemaining} is ${JSON.stringify(header(res, HEADERS.rateLimitRemaining) ?? null)}, expected an integer from 0 to ${limit}`;
  }
  return expectThat(`${res.endpoint}: rate-limit headers`, problem);
}
