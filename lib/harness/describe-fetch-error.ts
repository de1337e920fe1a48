/**
 * Why a fetch() failed, in a few words, for the one-line errors of every HTTP client of the harness (targets, hooks,
 * partner API, wait strategies). Its own file so those clients need not import one another for it.
 */
/** The most telling part of a fetch failure: the system error code (ECONNREFUSED...) where there is one. */
export function describeFetchError(error: unknown): string {
  let current: unknown = error;
  let deepest = error instanceof Error ? error.message : String(error);
  for (let depth = 0; depth < 5 && current; depth++) {
    const e = current as { code?: unknown; errors?: unknown[]; cause?: unknown; name?: string; message?: string };
    if (typeof e.code === "string") return e.code;
    if (e.name === "TimeoutError") return "no answer in time";
    if (typeof e.message === "string" && e.message) deepest = e.message;
    if (Array.isArray(e.errors) && e.errors.length) current = e.errors[0];
    else current = e.cause;
  }
  return deepest;
}
