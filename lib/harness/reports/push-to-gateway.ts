/**
 * --pushgateway: pushes the run's registry (the same series as metrics.prom) to a Prometheus Pushgateway, grouped by
 * run id (job atd-harness, run_id=<run id>), so each run stays a group of its own and a later run does not replace
 * it. PUT replaces only that group, which makes a repeated push (harness report --pushgateway) idempotent.
 */
import { Pushgateway, type Registry } from "prom-client";

export const PUSHGATEWAY_JOB = "atd-harness";
const PUSH_TIMEOUT_MS = 15_000;

/** The URL without user and password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}

/** Resolves when the Pushgateway accepted the push; rejects with a message saying what to check. */
export async function pushToGateway(url: string, registry: Registry, runId: string): Promise<void> {
  const fail = (why: string) =>
    new Error(
      `Failed to push the metrics to the Pushgateway at ${redactedUrl(url)}: ${why}. Please check --pushgateway (HARNESS_PUSHGATEWAY) and that the Pushgateway is up; metrics.prom holds the same series.`,
    );
  if (!/^https?:\/\//.test(url)) throw fail("it is not an http(s) URL");
  const gateway = new Pushgateway(url, { timeout: PUSH_TIMEOUT_MS }, registry);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(fail(`no answer within ${String(PUSH_TIMEOUT_MS / 1000)} s`));
    }, PUSH_TIMEOUT_MS + 1000);
  });
  try {
    await Promise.race([gateway.push({ jobName: PUSHGATEWAY_JOB, groupings: { run_id: runId } }), bound]);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("Failed to push")) throw error;
    throw fail(error instanceof Error ? error.message || String((error as NodeJS.ErrnoException).code) : String(error));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The run's "▸ export" phase: pushes when a Pushgateway was given. Returns false when the push failed (after saying
 * why): the measured verdict stands, but the run exits non-zero so a nightly job notices the missing data.
 */
export async function exportMetrics(
  pushgateway: string | undefined,
  registry: Registry,
  runId: string,
  say: (line: string) => void,
): Promise<boolean> {
  if (!pushgateway) return true;
  say(`▸ export: Pushgateway ${redactedUrl(pushgateway)} (job ${PUSHGATEWAY_JOB}, run_id ${runId})`);
  try {
    await pushToGateway(pushgateway, registry, runId);
    return true;
  } catch (error) {
    say(`FAIL  ${(error as Error).message}`);
    return false;
  }
}
