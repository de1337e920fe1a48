/**
 * A test hook that could not be used, as the run reports it: from a k6 scenario (HOOK_FAILURE_MARKER records in its
 * log) or from the harness's own calls (the Node client's typed errors). Either way the exit code and the message
 * follow from the hook, its level and the status (lib/contract/hook-failure.ts): 2 for a refused token, 3 for a target
 * that lacks a hook or gives no answer, never 4. An answer the harness did not expect (a 500, a body the contract
 * does not allow) stays an unexpected error of the phase that got it.
 */
import { HOOK_FAILURE_MARKER, TEST_HOOKS, type HookFailure, type TestHookName } from "../contract/index.ts";
import { describeHookAnswer, hookAdvice, hookFailureExitCode, hookUnusable } from "../contract/hook-failure.ts";
import { EXIT, HarnessError, type ExitCode } from "./exit-codes.ts";
import { HookAnswerError, HookError, HookStatusError } from "./hooks/hooks-client.ts";
import { markedPayloads } from "./verdict.ts";

const isHookName = (name: unknown): name is TestHookName => typeof name === "string" && name in TEST_HOOKS;

/** The hook failures a k6 scenario logged (one per hook and status). */
export function parseHookFailures(log: string): HookFailure[] {
  const seen = new Set<string>();
  const out: HookFailure[] = [];
  for (const f of markedPayloads(log, HOOK_FAILURE_MARKER)) {
    if (!isHookName(f.hook) || typeof f.status !== "number" || typeof f.path !== "string") continue;
    const id = `${f.hook} ${f.status}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(f as unknown as HookFailure);
  }
  return out;
}

export function describeHookFailure(f: HookFailure): string {
  const hook = f.hook as TestHookName;
  return `Failed to ${f.during}: ${describeHookAnswer(hook, f.path, f.status, f.code)}. ${hookAdvice(hook, f.status)}`;
}

/** The exit code of failures that ended scenarios: a refused token (2) wins, as it is what to fix first. */
export function hookFailuresExitCode(failures: readonly HookFailure[]): ExitCode {
  return failures.some((f) => hookFailureExitCode(f.status) === EXIT.usage) ? EXIT.usage : EXIT.target;
}

/** The status of a Node client's hook error (0: no answer). */
export function hookErrorStatus(error: HookError): number {
  // HookUnreachableError: no answer at all.
  return error instanceof HookStatusError || error instanceof HookAnswerError ? error.status : 0;
}

/**
 * The harness's own hook call failed while it `during`s ("start the churn driver") because the hook cannot be used
 * (no answer, token refused, hook missing): a HarnessError with exit 2 or 3 and a message naming the hook. Any other
 * error is returned as it was: an answer the harness did not expect stays an unexpected error (exit 4).
 */
export function harnessErrorOf(error: unknown, during: string): unknown {
  if (!(error instanceof HookError)) return error;
  const status = hookErrorStatus(error);
  if (error instanceof HookAnswerError || !hookUnusable(status)) return error;
  const path = new URL(error.url).pathname;
  return new HarnessError(
    `Failed to ${during}: ${describeHookAnswer(error.hook, path, status, error instanceof HookStatusError ? error.code : undefined)}. ${hookAdvice(error.hook, status)}`,
    hookFailureExitCode(status),
  );
}
