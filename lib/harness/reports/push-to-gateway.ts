/**
 * --pushgateway: pushes the run's registry (the same series as metrics.prom) to a Prometheus Pushgateway as one group
 * per job: job="atd-harness" plus what tells one job from another, the scenario set, the target kind and, when given,
 * the push group (--push-group, e.g. the environment). The run id stays a label on every series, not in the grouping
 * key, and the push is a PUT, so the next run of the same job replaces the previous run's group instead of leaving it
 * behind: the Pushgateway has no expiry, and Prometheus would scrape a group keyed by run id as current forever.
 * Past runs stay in Prometheus's own storage. A repeated push (harness report --pushgateway) is idempotent.
 */
import { Pushgateway, type Registry } from "prom-client";
import { pushGroupProblem } from "./push-group-problem.ts";

export const PUSHGATEWAY_JOB = "atd-harness";
const PUSH_TIMEOUT_MS = 15_000;
/** The run_info series whose labels say which job the run is (run-metrics.ts). */
const RUN_INFO = "atd_run_info";

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

/**
 * The grouping key of a run's push. The labels are the ones atd_run_info carries with the same values (scenarios as
 * it lists them, comma-separated; the target kind), so the Pushgateway, which stamps grouping labels onto every series
 * it serves, changes none of the run's own labels.
 */
export async function pushGrouping(registry: Registry, group: string | undefined): Promise<Record<string, string>> {
  const info = (await registry.getMetricsAsJSON()).find((m) => m.name === RUN_INFO);
  const labels = info?.values[0]?.labels ?? {};
  const scenarios = labels.scenarios;
  const target = labels.target;
  if (typeof scenarios !== "string" || scenarios === "" || typeof target !== "string" || target === "") {
    throw new Error(
      `Failed to push the metrics: the registry has no ${RUN_INFO} with scenarios and target to group the push by. Please push a registry that run-metrics.ts made.`,
    );
  }
  return { scenarios, target, ...(group === undefined ? {} : { push_group: group }) };
}

function describeGroup(grouping: Record<string, string>): string {
  return Object.entries({ job: PUSHGATEWAY_JOB, ...grouping })
    .map(([k, v]) => `${k}="${v}"`)
    .join(", ");
}

/** A push that failed; its message says what to check. */
class PushError extends Error {
  override name = "PushError";
}

/** Resolves when the Pushgateway accepted the push; rejects with a message saying what to check. */
export async function pushToGateway(
  url: string,
  registry: Registry,
  grouping: Record<string, string>,
): Promise<void> {
  const fail = (why: string) =>
    new PushError(
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
    // push() is a PUT: it replaces the whole group, so series the previous run of this job had and this one has not
    // (an endpoint, a check, a run_id) leave the Pushgateway with it.
    await Promise.race([gateway.push({ jobName: PUSHGATEWAY_JOB, groupings: grouping }), bound]);
  } catch (error) {
    if (error instanceof PushError) throw error;
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
  pushGroup?: string,
): Promise<boolean> {
  if (!pushgateway) return true;
  try {
    const problem = pushGroup === undefined ? undefined : pushGroupProblem(pushGroup);
    if (problem) throw new Error(`Failed to push the metrics: --push-group ${problem}. Please choose such a name.`);
    const grouping = await pushGrouping(registry, pushGroup);
    say(
      `▸ export: Pushgateway ${redactedUrl(pushgateway)} (group ${describeGroup(grouping)}; replaces that group, run_id ${runId})`,
    );
    await pushToGateway(pushgateway, registry, grouping);
    return true;
  } catch (error) {
    say(`FAIL  ${(error as Error).message}`);
    return false;
  }
}
