/**
 * Booking invariants through the public API alone (issue 17): against the reference service reached by URL with no
 * control URL, its reservations holding their seats 2 s (--hold-seconds), `harness run invariants` judges every
 * invariant but expiry from outside, races on the last seat included, and fails on each booking defect visible from
 * outside by the check named for it.
 */
import { describe, expect, it } from "vitest";
import { INVARIANT_CHECKS, type InvariantName } from "../../lib/harness/invariants/history.ts";
import { runHarnessProcess, type HarnessProcessResult } from "./harness-process.ts";
import { startPublicApiService } from "./public-api-service.ts";

async function runInvariants(serviceArgs: string[], dropArgs: string[] = []): Promise<HarnessProcessResult> {
  await using service = await startPublicApiService(serviceArgs);
  const args = service.targetArgs.filter((a, i, all) => !dropArgs.includes(a) && !dropArgs.includes(all[i - 1] ?? ""));
  return await runHarnessProcess(["run", "invariants", ...args, "--duration", "8s", "--allow-skips"], {
    timeoutMs: 110_000,
  });
}

function invariants(result: HarnessProcessResult) {
  const ext = result.summary?.extensions.find((e) => e.name === "invariants");
  const verdictOf = (name: InvariantName) => ext?.checks.find((c) => c.name === INVARIANT_CHECKS[name]);
  return { ext, verdictOf };
}

const JUDGED: InvariantName[] = ["oversell", "oneWinner", "lost", "doubleConfirm", "confirmCancel", "illegal"];

describe("booking invariants through the public API alone", { timeout: 120_000 }, () => {
  it("should pass on the correct service, racing on the last seat, with only expiry not judged", async () => {
    const result = await runInvariants([]);
    expect(result.exitCode, result.output).toBe(0);
    const { ext, verdictOf } = invariants(result);
    expect(ext?.figures.judgedBy).toBe("public-api");
    expect(Number(ext?.figures.races)).toBeGreaterThan(0);
    for (const name of JUDGED) {
      expect(verdictOf(name)?.verdict, name).toBe("pass");
      expect(verdictOf(name)?.passes, name).toBeGreaterThan(0);
    }
    expect(result.summary?.skipped).toEqual([
      {
        kind: "by-design",
        name: INVARIANT_CHECKS.expiry,
        reason: "the reserved lifetime is 5 days and the run has no clock hook",
      },
    ]);
  });

  it("should call oversell and one winner not judged, never passed, without --reservation-hold", async () => {
    const result = await runInvariants([], ["--reservation-hold"]);
    expect(result.exitCode, result.output).toBe(0);
    const { ext, verdictOf } = invariants(result);
    expect(ext?.figures.races).toBe(0);
    expect(verdictOf("oversell")).toBeUndefined();
    expect(verdictOf("oneWinner")).toBeUndefined();
    expect(verdictOf("lost")?.verdict).toBe("pass");
    expect(result.summary?.skipped?.map((s) => s.name).sort()).toEqual(
      [INVARIANT_CHECKS.expiry, INVARIANT_CHECKS.oversell, INVARIANT_CHECKS.oneWinner].sort(),
    );
  });

  const defects: [string, InvariantName[]][] = [
    ["booking-oversell-race", ["oversell", "oneWinner"]],
    ["booking-double-confirm", ["doubleConfirm"]],
    ["booking-list-drops-newest", ["lost"]],
    ["booking-confirm-after-cancel", ["illegal"]],
    ["booking-cancel-lost-update", ["confirmCancel"]],
  ];
  it.each(defects)("should fail on %s by the check named for it", async (defect, named) => {
    const result = await runInvariants(["--defects", defect]);
    expect(result.exitCode, result.output).toBe(1);
    const { verdictOf } = invariants(result);
    for (const name of named) expect(verdictOf(name)?.verdict, `${defect}: ${name}`).toBe("fail");
  });
});
