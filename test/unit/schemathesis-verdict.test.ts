import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SettingsError } from "../../lib/contract/index.ts";
import { partnerApiDocument } from "../../lib/contract/openapi.ts";
import { operationsOf } from "../../lib/harness/openapi-validation.ts";
import { ALLOW_LIST_FILE } from "../../scripts/check-openapi.ts";
import { REPO_ROOT } from "../../scripts/openapi.ts";
import {
  judge,
  parseAllowList,
  readSchemathesisEvents,
  verdictLines,
  type AllowListEntry,
} from "../../scripts/schemathesis-verdict.ts";

interface Case {
  id: string;
  method: string;
  uri: string;
  status: number;
  /** check name -> failure (code, operation) or undefined for a success */
  checks: Record<string, { code: string; operation: string } | undefined>;
}

/** One ScenarioFinished event as Schemathesis 4 writes it to NDJSON (the fields the verdict reads). */
function scenario(label: string, phase: string, cases: Case[], status = "success"): unknown {
  return {
    ScenarioFinished: {
      phase,
      status,
      recorder: {
        label,
        interactions: Object.fromEntries(
          cases.map((c) => [
            c.id,
            {
              request: { method: c.method, uri: `http://127.0.0.1:1234${c.uri}` },
              response: { status_code: c.status },
            },
          ]),
        ),
        checks: Object.fromEntries(
          cases.map((c) => [
            c.id,
            Object.entries(c.checks).map(([name, failure]) =>
              failure === undefined
                ? { name, status: "success" }
                : {
                    name,
                    status: "failure",
                    failure_info: {
                      failure: { ...failure, title: "Title", message: "First line\nsecond line", severity: "medium" },
                    },
                  },
            ),
          ]),
        ),
      },
    },
  };
}

const ndjson = (...events: unknown[]) => events.map((e) => JSON.stringify(e)).join("\n");
const start = { Initialize: { schemathesis_version: "4.32.5", seed: 26 } };
const end = { EngineFinished: { running_time: 95.4 } };

const bookings = "POST /v2/bookings";
const products = "GET /v2/products";
const ALLOW: AllowListEntry[] = [
  { check: "positive_data_acceptance", operation: bookings, status: 422, reason: "unknown product type" },
];

const rejected = (id: string, status: number): Case => ({
  id,
  method: "POST",
  uri: "/v2/bookings",
  status,
  checks: { not_a_server_error: undefined, positive_data_acceptance: { code: "ST202", operation: bookings } },
});
const listed = (id: string, uri: string, status: number, failed?: string): Case => ({
  id,
  method: "GET",
  uri,
  status,
  checks: {
    not_a_server_error: undefined,
    ...(failed === undefined ? {} : { [failed]: { code: "ST201", operation: products } }),
  },
});

describe("the verdict of npm run check:openapi on Schemathesis's NDJSON events", () => {
  it("should read the test cases, operations, checks and each failure with its status and request", () => {
    const run = readSchemathesisEvents(
      ndjson(
        start,
        scenario(bookings, "fuzzing", [rejected("a", 422), rejected("b", 422)], "failure"),
        scenario(products, "coverage", [listed("c", "/v2/products?page=1", 200)]),
        end,
      ),
    );
    expect(run).toMatchObject({ version: "4.32.5", seed: 26, testCases: 3, finished: true, errors: [] });
    expect([...run.operations].sort()).toEqual([products, bookings]);
    expect([...run.checks].sort()).toEqual(["not_a_server_error", "positive_data_acceptance"]);
    expect(run.failures[0]).toEqual({
      check: "positive_data_acceptance",
      code: "ST202",
      title: "Title",
      operation: bookings,
      status: 422,
      phase: "fuzzing",
      request: "POST /v2/bookings",
      message: "First line",
    });
  });

  it("should pass when the allow-list covers every failure and every entry still fails", () => {
    const run = readSchemathesisEvents(ndjson(start, scenario(bookings, "fuzzing", [rejected("a", 422)]), end));
    const verdict = judge(run, ALLOW);
    expect(verdict).toMatchObject({ passed: true, unexpected: [], stale: [] });
    expect(verdictLines(run, verdict).join("\n")).toContain("allowed: 1 failure of positive_data_acceptance");
  });

  it("should fail on a failure no entry covers, an entry's status narrowing what it covers", () => {
    const run = readSchemathesisEvents(
      ndjson(
        start,
        scenario(bookings, "fuzzing", [rejected("a", 422), rejected("b", 400)]),
        scenario(products, "coverage", [listed("c", "/v2/products?page=0", 200, "negative_data_rejection")]),
        end,
      ),
    );
    const verdict = judge(run, ALLOW);
    expect(verdict.passed).toBe(false);
    expect(verdict.unexpected.map((f) => `${f.check} ${f.operation} ${String(f.status)}`)).toEqual([
      `positive_data_acceptance ${bookings} 400`,
      `negative_data_rejection ${products} 200`,
    ]);
    const lines = verdictLines(run, verdict).join("\n");
    expect(lines).toContain(
      "FAILED negative_data_rejection (ST201 Title) on GET /v2/products: GET /v2/products?page=0 -> 200",
    );
    expect(lines).toContain("2 failures beyond the allow-list");
  });

  it("should report an entry that nothing matched as stale, unless the run did not test its operation", () => {
    const tested = readSchemathesisEvents(ndjson(start, scenario(bookings, "fuzzing", [rejected("a", 201)]), end));
    const verdict = judge(tested, ALLOW);
    expect([verdict.passed, verdict.stale]).toEqual([false, ALLOW]);
    expect(verdictLines(tested, verdict).join("\n")).toContain("STALE allow-list entry");
    const other = readSchemathesisEvents(
      ndjson(start, scenario(products, "fuzzing", [listed("c", "/v2/products", 200)]), end),
    );
    expect(judge(other, ALLOW)).toMatchObject({ passed: true, stale: [] });
  });

  it("should fail on an error of the run itself, whatever the allow-list says", () => {
    const cut = readSchemathesisEvents(ndjson(start, scenario(bookings, "fuzzing", [rejected("a", 422)])));
    expect(judge(cut, ALLOW)).toMatchObject({
      passed: false,
      errors: ["the event stream ends before the run finished"],
    });
    const errored = readSchemathesisEvents(
      ndjson(
        start,
        scenario(bookings, "fuzzing", [rejected("a", 422)]),
        scenario(products, "coverage", [], "error"),
        { NonFatalError: { label: products, value: { message: "cannot generate" } } },
        end,
      ),
    );
    const verdict = judge(errored, ALLOW);
    expect(verdict.passed).toBe(false);
    expect(verdict.errors.join()).toContain("coverage phase errored");
    expect(verdict.errors.join()).toContain("cannot generate");
  });

  it("should refuse an allow-list entry without its reason, check or operation, or with an unknown key", () => {
    const read = (source: string) => () => parseAllowList(source, "list.yaml");
    const entry = "check: positive_data_acceptance\n    operation: POST /v2/bookings";
    expect(read(`entries:\n  - ${entry}\n    reason: why`)()).toEqual([
      { check: "positive_data_acceptance", operation: bookings, reason: "why" },
    ]);
    expect(read(`entries:\n  - ${entry}`)).toThrow(/Failed to read the allow-list list.yaml: entry 1 has no reason/);
    expect(read("entries:\n  - check: x\n    operation: bookings\n    reason: y")).toThrow(/METHOD \/path/);
    expect(read(`entries:\n  - ${entry}\n    reason: y\n    status: two`)).toThrow(/not an HTTP status/);
    expect(read(`entries:\n  - ${entry}\n    reason: y\n    why: z`)).toThrow(/unknown keys why/);
    expect(read("entries: [")).toThrow(SettingsError);
    expect(read("other: 1")).toThrow(/no list `entries`/);
  });

  it("should keep a committed allow-list whose every entry names an operation of the document, with a reason", () => {
    const entries = parseAllowList(readFileSync(`${REPO_ROOT}${ALLOW_LIST_FILE}`, "utf8"), ALLOW_LIST_FILE);
    const operations = operationsOf(partnerApiDocument()).map((o) => `${o.method} ${o.path}`);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(operations, e.operation).toContain(e.operation);
  });
});
