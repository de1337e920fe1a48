/**
 * Checks shared by every scenario. Each check has a stable name (k6 aggregates by name) and, when it fails, says
 * what was wrong: the problem is logged once per distinct problem per VU with a marker the harness's verdict reads,
 * so the iteration loop never floods the log.
 */
import { check } from "k6";
import {
  CHECK_FAILURE_MARKER,
  CHECK_OBSERVED_MARKER,
  FINDING_MARKER,
  ENDPOINTS,
  HEADERS,
  RESPONSE_SHAPES,
  diffKeys,
  isLinkArray,
  isRecord,
  type KeySet,
  type ResponseShape,
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

const observedChecks = new Set<string>();

/**
 * Records one check: `problem` undefined means it passed. Returns whether it passed. `observed` (what the check
 * saw, for the verdict) is logged once per check per VU: pass it from checks that run a handful of times, not from
 * the load loop.
 */
export function expectThat(name: string, problem: string | undefined, observed?: string): boolean {
  const ok = problem === undefined;
  check(null, { [name]: () => ok });
  if (!ok) report(name, problem);
  if (observed !== undefined && !observedChecks.has(name)) {
    observedChecks.add(name);
    console.warn(`${CHECK_OBSERVED_MARKER}${JSON.stringify({ check: name, observed })}`);
  }
  return ok;
}

/** Reports a finding: behaviour the spec leaves open, shown in the verdict without failing the run. */
export function reportFinding(rule: string, finding: string): void {
  console.warn(`${FINDING_MARKER}${JSON.stringify({ rule, finding })}`);
}

function describeKeyDiff(where: string, value: object, shape: ResponseShape): string | undefined {
  if (!shape.keys) return undefined;
  const { missing, unexpected } = diffKeys(value, shape.keys);
  const forbidden: KeySet = shape.forbidden ?? [];
  const banned = Object.keys(value).filter((k) => forbidden.includes(k));
  const parts: string[] = [];
  if (missing.length) parts.push(`missing ${missing.join(", ")}`);
  if (shape.exact && unexpected.length) parts.push(`unexpected ${unexpected.join(", ")}`);
  if (banned.length) parts.push(`forbidden ${banned.join(", ")}`);
  if (!isLinkArray((value as Record<string, unknown>).links) && shape.keys.includes("links"))
    parts.push("links is not an array of links");
  return parts.length ? `${where}: ${parts.join("; ")}` : undefined;
}

function statusProblem(res: ApiResponse<unknown>, expected: readonly number[]): string | undefined {
  if (expected.includes(res.status)) return undefined;
  const want = expected.join(" or ");
  if (res.status === 0) return `no response (connection failed or timed out), expected ${want}`;
  return `status ${res.status}${res.error ? ` (${res.error.code})` : ""}, expected ${want}`;
}

export function checkStatus(res: ApiResponse<unknown>, expected: number | readonly number[]): boolean {
  const statuses = typeof expected === "number" ? [expected] : expected;
  return expectThat(`${res.endpoint}: status ${statuses.join("/")}`, statusProblem(res, statuses));
}

/** Spec Part 8: every answer of a listed endpoint carries X-RateLimit-Limit and X-RateLimit-Remaining. */
export function checkRateLimitHeaders(res: ApiResponse<unknown>): boolean {
  if (!ENDPOINTS[res.endpoint].rateLimited || res.status === 0) return true;
  const integer = (name: string) => {
    const raw = header(res, name);
    return raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : undefined;
  };
  const limit = integer(HEADERS.rateLimitLimit);
  const remaining = integer(HEADERS.rateLimitRemaining);
  let problem: string | undefined;
  if (limit === undefined || limit <= 0) {
    problem = `${HEADERS.rateLimitLimit} is ${JSON.stringify(header(res, HEADERS.rateLimitLimit) ?? null)}, expected a positive integer`;
  } else if (remaining === undefined || remaining > limit) {
    problem = `${HEADERS.rateLimitRemaining} is ${JSON.stringify(header(res, HEADERS.rateLimitRemaining) ?? null)}, expected an integer from 0 to ${limit}`;
  }
  return expectThat(`${res.endpoint}: rate-limit headers`, problem);
}

/**
 * The envelope of decisions.md and the key set of spec Part 2 for the endpoint (RESPONSE_SHAPES). Returns whether
 * the envelope held (the data can be used); a key-set mismatch fails its own check without stopping the caller.
 */
export function checkShape(res: ApiResponse<unknown>): boolean {
  const shape: ResponseShape = RESPONSE_SHAPES[res.endpoint];
  const envelopeOk = expectThat(
    `${res.endpoint}: ${shape.envelope} envelope with links`,
    res.data !== undefined && isRecord(res.body) && isLinkArray(res.body.links)
      ? undefined
      : `body is not a ${shape.envelope} envelope: ${JSON.stringify(res.body ?? null).slice(0, 120)}`,
  );
  if (!envelopeOk || !shape.keys) return envelopeOk;
  let problem: string | undefined;
  if (Array.isArray(res.data)) {
    for (const [i, item] of (res.data as Record<string, unknown>[]).entries()) {
      problem = describeKeyDiff(`item ${i}`, item, shape);
      if (problem) break;
    }
  } else {
    problem = describeKeyDiff("data", res.data as object, shape);
  }
  expectThat(`${res.endpoint}: keys match the spec`, problem);
  return true;
}

/** Shape checks always run on the first answers of each endpoint in a VU, then on one in SHAPE_SAMPLE_EVERY. */
const SHAPE_ALWAYS_FIRST = 20;
const SHAPE_SAMPLE_EVERY = 10;
const shapeChecked = new Map<string, number>();

/**
 * Whether this answer's envelope and key set are checked. Parsing JSON is most of a check's cost inside k6, and a
 * contract break shows on every answer of an endpoint, so after the first answers a sample is enough under load.
 * The conformance scenarios call checkShape directly, on every answer.
 */
function sampleShape(endpoint: string): boolean {
  const seen = (shapeChecked.get(endpoint) ?? 0) + 1;
  shapeChecked.set(endpoint, seen);
  return seen <= SHAPE_ALWAYS_FIRST || seen % SHAPE_SAMPLE_EVERY === 0;
}

/**
 * The checks every answer gets: rate-limit headers on listed endpoints, the status, and on success (sampled) the
 * envelope and key set. Returns whether the answer can be used: the expected status, and an envelope where the
 * shape was checked.
 */
export function checkResponse(res: ApiResponse<unknown>, expected: number | readonly number[] = 200): boolean {
  checkRateLimitHeaders(res);
  if (!checkStatus(res, expected)) return false;
  if (res.status >= 300 || !sampleShape(res.endpoint)) return true;
  return checkShape(res);
}
