/**
 * What a test hook's failure means and what to do about it, by its status alone, for the k6 side and the harness
 * alike: a hook that answers 401/403 was given the wrong token (exit 2, usage), one that is missing (404, 405, 501)
 * or gives no answer (status 0) is a target that lacks what the contract requires (exit 3, target). Never by the
 * text of an error. Runtime-neutral; not exported from index.ts (only the hooks clients and the run need it).
 */
import { keyFingerprint } from "./key-fingerprint.ts";
import { TEST_HOOKS, type TestHookName } from "./test-hooks.ts";

/** The hook cannot be used with this token. */
export const TOKEN_REFUSED_STATUSES: readonly number[] = [401, 403];
/** The service does not offer the hook (a path it lacks, a method it lacks on a path, not implemented). */
export const HOOK_ABSENT_STATUSES: readonly number[] = [404, 405, 501];

/** Whether the status says the hook cannot be used at all (no answer, token refused, hook missing). */
export function hookUnusable(status: number): boolean {
  return status === 0 || TOKEN_REFUSED_STATUSES.includes(status) || HOOK_ABSENT_STATUSES.includes(status);
}

/** The exit code of a run that a hook failure ended: 2 for a refused token, 3 for anything the target lacks. */
export function hookFailureExitCode(status: number): 2 | 3 {
  return TOKEN_REFUSED_STATUSES.includes(status) ? 2 : 3;
}

/** What to do about a hook that answered `status` (0: no answer): the "Please ..." end of a failure message. */
export function hookAdvice(hook: TestHookName, status: number): string {
  if (status === 0) return "Please check that the control API listens at --control-url.";
  if (TOKEN_REFUSED_STATUSES.includes(status)) {
    return "Please pass the token the control API expects (--control-token).";
  }
  if (HOOK_ABSENT_STATUSES.includes(status)) {
    return TEST_HOOKS[hook].level === "required"
      ? "Please add the hook to the service's test build: the contract requires it (docs/test-hooks.openapi.yaml), and `harness hooks check` lists what is missing."
      : "Please report this harness failure: an optional hook of the reference service was needed without a fallback.";
  }
  return "Please look at the service's log for why it refused.";
}

/**
 * The hook's path or URL as it may be shown: an API key in it (`{apiKey}` of the template) as its fingerprint. The
 * template is matched from the end, so a control URL with a path prefix is shown right too.
 */
export function shownHookPath(hook: TestHookName, pathOrUrl: string): string {
  const template = TEST_HOOKS[hook].path.split("/");
  if (!template.includes("{apiKey}")) return pathOrUrl;
  const segments = pathOrUrl.split("/");
  const offset = segments.length - template.length;
  return segments
    .map((segment, i) => (template[i - offset] === "{apiKey}" ? keyFingerprint(decodeURIComponent(segment)) : segment))
    .join("/");
}

/** "the test hook inventory (GET /__control/inventory/…, required) answered 404 (not_found)" */
export function describeHookAnswer(hook: TestHookName, path: string, status: number, code?: string): string {
  const spec = TEST_HOOKS[hook];
  const answer = status === 0 ? "gave no answer" : `answered ${status}${code ? ` (${code})` : ""}`;
  return `the test hook ${hook} (${spec.method} ${shownHookPath(hook, path)}, ${spec.level} by the contract) ${answer}`;
}
