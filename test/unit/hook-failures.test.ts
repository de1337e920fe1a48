/**
 * A test hook that cannot be used ends the run with exit 2 (token refused) or 3 (the target lacks it, or no answer),
 * with a message naming the hook: from a k6 scenario's marker records or from the harness's own typed hook errors,
 * never by an error's text, and never exit 4 (the harness's own failure).
 */
import { describe, expect, it } from "vitest";
import { HOOK_FAILURE_MARKER, type HookFailure } from "../../lib/contract/index.ts";
import { EXIT, HarnessError } from "../../lib/harness/exit-codes.ts";
import {
  describeHookFailure,
  harnessErrorOf,
  hookFailuresExitCode,
  parseHookFailures,
} from "../../lib/harness/hook-failures.ts";
import { HookStatusError, HookUnreachableError } from "../../lib/harness/hooks/hooks-client.ts";
import { shownHookPath } from "../../lib/contract/hook-failure.ts";

const missingClock: HookFailure = {
  hook: "clock",
  level: "required",
  method: "GET",
  path: "/__control/clock",
  status: 404,
  code: "not_found",
  during: "set up the invariants scenario",
};

function k6Line(payload: unknown): string {
  return JSON.stringify({ level: "warning", msg: `${HOOK_FAILURE_MARKER}${JSON.stringify(payload)}` });
}

describe("hook failures of a run", () => {
  it("should read the records a k6 scenario logged, once per hook and status", () => {
    const log = [k6Line(missingClock), k6Line(missingClock), '{"level":"error","msg":"other"}'].join("\n");
    expect(parseHookFailures(log)).toEqual([missingClock]);
    expect(parseHookFailures(k6Line({ ...missingClock, hook: "no-such-hook" }))).toEqual([]);
  });

  it("should map a missing hook to exit 3 and a refused token to exit 2, the token first", () => {
    expect(hookFailuresExitCode([missingClock])).toBe(EXIT.target);
    expect(hookFailuresExitCode([{ ...missingClock, status: 0 }])).toBe(EXIT.target);
    expect(hookFailuresExitCode([missingClock, { ...missingClock, status: 401 }])).toBe(EXIT.usage);
  });

  it("should show an API key in a hook's path or URL only as its fingerprint", () => {
    expect(shownHookPath("partner", "/__control/partners/partner-key-0042")).toBe("/__control/partners/…0042");
    expect(shownHookPath("partnerSet", "http://127.0.0.1:9/ctl/__control/partners/a%20key%2F1234")).toBe(
      "http://127.0.0.1:9/ctl/__control/partners/…1234",
    );
    const error = new HookUnreachableError("partner", "GET", "http://h/__control/partners/partner-key-0042", "x");
    expect(error.message).not.toContain("partner-key");
    expect(shownHookPath("inventory", "/__control/inventory/abc/2026-01-01")).toBe(
      "/__control/inventory/abc/2026-01-01",
    );
  });

  it("should say what happened and what to do, naming the hook", () => {
    expect(describeHookFailure(missingClock)).toBe(
      "Failed to set up the invariants scenario: the test hook clock (GET /__control/clock, required by the contract) answered 404 (not_found). Please add the hook to the service's test build: the contract requires it (docs/test-hooks.openapi.yaml), and `harness hooks check` lists what is missing.",
    );
  });

  it("should turn the Node client's errors of unusable hooks into HarnessErrors with exit 2 or 3, and leave others alone", () => {
    const exchange = (status: number) => ({
      hook: "inventory" as const,
      method: "GET",
      url: "http://control.test/__control/inventory/pt-1?date_start=2026-01-01&date_end=2026-01-01",
      status,
      text: JSON.stringify({ error: { code: "x", message: "no", http_code: status } }),
      problems: [],
    });
    const missing = harnessErrorOf(new HookStatusError(exchange(404)), "start the churn driver");
    expect(missing).toBeInstanceOf(HarnessError);
    expect((missing as HarnessError).exitCode).toBe(EXIT.target);
    expect((missing as HarnessError).message).toMatch(
      /^Failed to start the churn driver: the test hook inventory \(GET \/__control\/inventory\/pt-1, required by the contract\) answered 404/,
    );
    expect((harnessErrorOf(new HookStatusError(exchange(403)), "x") as HarnessError).exitCode).toBe(EXIT.usage);
    const unreachable = harnessErrorOf(
      new HookUnreachableError("clock", "GET", "http://control.test/__control/clock", "ECONNREFUSED"),
      "start the webhook sink",
    );
    expect((unreachable as HarnessError).exitCode).toBe(EXIT.target);
    expect((unreachable as HarnessError).message).toMatch(/gave no answer\. Please check that the control API listens/);
    const other = new Error("a bug");
    expect(harnessErrorOf(other, "x")).toBe(other);
    // A hook that is there but fails is an answer the harness did not expect: it stays what it was.
    const failing = new HookStatusError(exchange(500));
    expect(harnessErrorOf(failing, "x")).toBe(failing);
  });
});
