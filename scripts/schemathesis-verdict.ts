/**
 * The verdict of `npm run check:openapi` (scripts/check-openapi.ts): reads Schemathesis's NDJSON event stream (its
 * machine-readable report, not its console text), and judges every failed check against the allow-list, the
 * failures OpenAPI cannot express. A failure the list does not cover fails the command; so does an entry that no
 * failure matched any more (stale), so the list cannot outlive what it excuses.
 */
import { parse } from "yaml";
import { SettingsError, isRecord } from "../lib/contract/index.ts";

/** One failed check of one test case. */
export interface CheckFailure {
  /** Schemathesis's check name, e.g. positive_data_acceptance. */
  check: string;
  /** Its failure code and title, e.g. ST202 "Schema-valid request rejected". */
  code: string;
  title: string;
  /** "METHOD /path/template", as the document names the operation. */
  operation: string;
  /** The answer's status; undefined when there was no answer. */
  status: number | undefined;
  phase: string;
  /** The request, "METHOD /path?query", to reproduce it. */
  request: string;
  message: string;
}

/** What one run did, read from its events. */
export interface SchemathesisRun {
  version: string;
  seed: number | undefined;
  /** Test cases sent, each one request (the checks' own extra requests, e.g. without the key, not counted). */
  testCases: number;
  operations: ReadonlySet<string>;
  /** Every check that judged at least one answer. */
  checks: ReadonlySet<string>;
  failures: CheckFailure[];
  /** Errors of the run itself (an operation that could not be tested, an interruption): never allowed. */
  errors: string[];
  /** Whether the engine finished (the stream was not cut short). */
  finished: boolean;
  runningSeconds: number | undefined;
}

export interface AllowListEntry {
  check: string;
  operation: string;
  /** Only failures with this answer status; any status when absent. */
  status?: number;
  reason: string;
}

export interface Verdict {
  /** Each entry with the failures it covers; an entry with none is stale. */
  allowed: { entry: AllowListEntry; failures: CheckFailure[] }[];
  unexpected: CheckFailure[];
  stale: AllowListEntry[];
  errors: string[];
  passed: boolean;
}

type Json = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The request of an interaction as "METHOD /path?query" (no scheme and host: they differ per run). */
function requestOf(interaction: unknown): string {
  const request = isRecord(interaction) && isRecord(interaction.request) ? interaction.request : {};
  const uri = text(request.uri);
  let where = uri;
  try {
    const url = new URL(uri);
    where = `${url.pathname}${url.search}`;
  } catch {
    // Not an absolute URL: shown as it is.
  }
  return `${text(request.method)} ${where}`.trim();
}

function statusOf(interaction: unknown): number | undefined {
  const response = isRecord(interaction) ? interaction.response : undefined;
  return isRecord(response) && typeof response.status_code === "number" ? response.status_code : undefined;
}

function scenarioFailures(scenario: Json, run: { failures: CheckFailure[]; checks: Set<string> }): void {
  const recorder = isRecord(scenario.recorder) ? scenario.recorder : {};
  const interactions = isRecord(recorder.interactions) ? recorder.interactions : {};
  const checks = isRecord(recorder.checks) ? recorder.checks : {};
  for (const [caseId, results] of Object.entries(checks)) {
    if (!Array.isArray(results)) continue;
    for (const result of results) {
      if (!isRecord(result)) continue;
      run.checks.add(text(result.name));
      if (result.status !== "failure") continue;
      const info =
        isRecord(result.failure_info) && isRecord(result.failure_info.failure) ? result.failure_info.failure : {};
      run.failures.push({
        check: text(result.name),
        code: text(info.code),
        title: text(info.title),
        operation: text(info.operation) || text(recorder.label),
        status: statusOf(interactions[caseId]),
        phase: text(scenario.phase),
        request: requestOf(interactions[caseId]),
        message: text(info.message).split("\n")[0] ?? "",
      });
    }
  }
}

/** Reads a run from the NDJSON text Schemathesis wrote (`--report ndjson`). */
export function readSchemathesisEvents(ndjson: string): SchemathesisRun {
  const run = {
    version: "",
    seed: undefined as number | undefined,
    testCases: 0,
    operations: new Set<string>(),
    checks: new Set<string>(),
    failures: [] as CheckFailure[],
    errors: [] as string[],
    finished: false,
    runningSeconds: undefined as number | undefined,
  };
  for (const line of ndjson.split("\n")) {
    if (line.trim() === "") continue;
    const event = JSON.parse(line) as unknown;
    if (!isRecord(event)) continue;
    const [kind, body] = Object.entries(event)[0] ?? ["", {}];
    if (!isRecord(body)) continue;
    if (kind === "Initialize") {
      run.version = text(body.schemathesis_version);
      run.seed = typeof body.seed === "number" ? body.seed : undefined;
    } else if (kind === "ScenarioFinished") {
      const recorder = isRecord(body.recorder) ? body.recorder : {};
      const interactions = isRecord(recorder.interactions) ? recorder.interactions : {};
      run.testCases += Object.keys(interactions).length;
      if (Object.keys(interactions).length > 0 && body.phase !== "stateful") run.operations.add(text(recorder.label));
      if (body.status === "error") run.errors.push(`${text(recorder.label)}: the ${text(body.phase)} phase errored`);
      scenarioFailures(body, run);
    } else if (kind === "NonFatalError" || kind === "FatalError") {
      const value = JSON.stringify(body.value ?? body.exception ?? {}).slice(0, 300);
      run.errors.push(`${kind}${body.label === undefined ? "" : ` in ${text(body.label)}`}: ${value}`);
    } else if (kind === "Interrupted") {
      run.errors.push("the run was interrupted");
    } else if (kind === "EngineFinished") {
      run.finished = true;
      run.runningSeconds = typeof body.running_time === "number" ? body.running_time : undefined;
    }
  }
  if (!run.finished) run.errors.push("the event stream ends before the run finished");
  return run;
}

const covers = (entry: AllowListEntry, f: CheckFailure) =>
  entry.check === f.check &&
  entry.operation === f.operation &&
  (entry.status === undefined || entry.status === f.status);

export function judge(run: SchemathesisRun, allowList: readonly AllowListEntry[]): Verdict {
  const allowed = allowList.map((entry) => ({ entry, failures: run.failures.filter((f) => covers(entry, f)) }));
  const unexpected = run.failures.filter((f) => !allowList.some((entry) => covers(entry, f)));
  // An entry of an operation the run did not test (a run of one operation) is not stale: nothing was asked of it.
  const stale = allowed
    .filter((a) => a.failures.length === 0 && run.operations.has(a.entry.operation))
    .map((a) => a.entry);
  const passed = unexpected.length === 0 && stale.length === 0 && run.errors.length === 0;
  return { allowed, unexpected, stale, errors: run.errors, passed };
}

/** Reads the allow-list file's text: `entries`, each {check, operation, status?, reason}. */
export function parseAllowList(source: string, file: string): AllowListEntry[] {
  const fail = (why: string): never => {
    throw new SettingsError(`Failed to read the allow-list ${file}: ${why}. Please fix the file.`);
  };
  let document: unknown;
  try {
    document = parse(source);
  } catch (error) {
    return fail(`it is not YAML (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`);
  }
  if (!isRecord(document) || !Array.isArray(document.entries)) return fail("it has no list `entries`");
  return document.entries.map((raw: unknown, i): AllowListEntry => {
    const at = `entry ${i + 1}`;
    if (!isRecord(raw)) return fail(`${at} is not a mapping`);
    const unknown = Object.keys(raw).filter((k) => !["check", "operation", "status", "reason"].includes(k));
    if (unknown.length > 0) fail(`${at} has unknown keys ${unknown.join(", ")}`);
    for (const key of ["check", "operation", "reason"]) {
      if (typeof raw[key] !== "string" || raw[key].trim() === "") fail(`${at} has no ${key}`);
    }
    if (!/^[A-Z]+ \/\S*$/.test(text(raw.operation))) fail(`${at}'s operation is not "METHOD /path"`);
    if (raw.status !== undefined && (!Number.isInteger(raw.status) || Number(raw.status) < 100)) {
      fail(`${at}'s status is not an HTTP status`);
    }
    const entry: AllowListEntry = { check: text(raw.check), operation: text(raw.operation), reason: text(raw.reason) };
    if (raw.status !== undefined) entry.status = Number(raw.status);
    return entry;
  });
}

const count = (n: number, what: string, plural = `${what}s`) => `${n.toLocaleString("en")} ${n === 1 ? what : plural}`;
const named = (e: AllowListEntry) => `${e.check} on ${e.operation}${e.status === undefined ? "" : ` (${e.status})`}`;

/** The verdict as lines for the terminal: what ran, what the list allowed, and what fails the command. */
export function verdictLines(run: SchemathesisRun, verdict: Verdict): string[] {
  const lines = [
    `Schemathesis ${run.version}, seed ${String(run.seed)}: ${count(run.testCases, "test case")} on ` +
      `${count(run.operations.size, "operation")}, ${count(run.checks.size, "check")} ` +
      `(${[...run.checks].sort().join(", ")})` +
      (run.runningSeconds === undefined ? "." : ` in ${Math.round(run.runningSeconds)} s.`),
  ];
  for (const { entry, failures } of verdict.allowed) {
    if (failures.length > 0) lines.push(`  allowed: ${count(failures.length, "failure")} of ${named(entry)}`);
  }
  for (const entry of verdict.stale) {
    lines.push(`  STALE allow-list entry: ${named(entry)} failed no more; remove it from the list.`);
  }
  // One line per check, operation and status, with its first request: one cause often fails many test cases.
  const groups = new Map<string, CheckFailure[]>();
  for (const f of verdict.unexpected) {
    const key = `${f.check} ${f.operation} ${String(f.status)}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  for (const [first, ...more] of groups.values()) {
    if (first === undefined) continue;
    lines.push(
      `  FAILED ${first.check} (${first.code} ${first.title}) on ${first.operation}: ${first.request} -> ` +
        `${String(first.status)}; ${first.message}${more.length > 0 ? ` (and ${count(more.length, "more test case")})` : ""}`,
    );
  }
  for (const e of verdict.errors) lines.push(`  ERROR ${e}`);
  lines.push(
    verdict.passed
      ? "The document and the service agree: no failure beyond the allow-list."
      : `The document and the service disagree: ${count(verdict.unexpected.length, "failure")} beyond the ` +
          `allow-list, ${count(verdict.stale.length, "stale entry", "stale entries")}, ` +
          `${count(verdict.errors.length, "error")}.`,
  );
  return lines;
}
