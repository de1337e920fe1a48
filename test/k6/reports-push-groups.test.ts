/**
 * A nightly job pushes to a real Pushgateway again and again: each push replaces the group of its job (scenarios,
 * target, --push-group), so no run stays behind to be scraped as current forever, and a group is deleted by the URL
 * the README gives.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHarnessProcess } from "./harness-process.ts";
import { harnessReport, startPushgateway } from "./reports-processes.ts";

interface PushgatewayGroup {
  labels: Record<string, string>;
}

async function groups(url: string): Promise<Record<string, string>[]> {
  const body = await fetch(`${url}/api/v1/metrics`, { signal: AbortSignal.timeout(5000) }).then(
    (r) => r.json() as Promise<{ data: PushgatewayGroup[] }>,
  );
  return body.data.map((g) => g.labels);
}

async function runIdsServed(url: string): Promise<string[]> {
  const text = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) }).then((r) => r.text());
  return [...new Set([...text.matchAll(/^atd_run_info\{[^}]*run_id="([^"]+)"/gm)].map((m) => m[1] ?? ""))].sort();
}

/** A copy of a run directory as if it were the next run of the same job (another run id). */
async function nextRun(runDir: string, runId: string): Promise<string> {
  const dir = path.join(path.dirname(runDir), runId);
  await cp(runDir, dir, { recursive: true });
  const file = path.join(dir, "summary.json");
  const summary = JSON.parse(await readFile(file, "utf8")) as { run: { id: string } };
  summary.run.id = runId;
  await writeFile(file, JSON.stringify(summary));
  return dir;
}

describe("Pushgateway groups over repeated runs", () => {
  it("should replace the job's group on every push and keep other push groups apart until deleted", async () => {
    await using pushgateway = await startPushgateway();
    const run = await runHarnessProcess(["run", "smoke", "--duration", "1s"]);
    expect(run.exitCode, run.output).toBe(0);
    const first = run.runDir ?? "";
    const firstId = path.basename(first);
    const push = async (dir: string, extra: string[] = []) => {
      const result = await harnessReport([dir, "--pushgateway", pushgateway.url, ...extra]);
      expect(result.exitCode, result.output).toBe(0);
    };

    await push(first);
    expect(await runIdsServed(pushgateway.url)).toEqual([firstId]);

    const secondId = `${firstId}-next`;
    await push(await nextRun(first, secondId));
    // The first run's series are gone: a scrape sees only the latest run of the job.
    expect(await runIdsServed(pushgateway.url)).toEqual([secondId]);
    expect(await groups(pushgateway.url)).toEqual([{ job: "atd-harness", scenarios: "smoke", target: "embedded" }]);

    await push(first, ["--push-group", "staging"]);
    expect(await runIdsServed(pushgateway.url)).toEqual([firstId, secondId].sort());
    expect(await groups(pushgateway.url)).toEqual(
      expect.arrayContaining([{ job: "atd-harness", scenarios: "smoke", target: "embedded", push_group: "staging" }]),
    );

    // The README's way to delete a group.
    const deleted = await fetch(
      `${pushgateway.url}/metrics/job/atd-harness/scenarios/smoke/target/embedded/push_group/staging`,
      { method: "DELETE", signal: AbortSignal.timeout(5000) },
    );
    expect(deleted.status).toBe(202);
    // 202 Accepted: the delete may be applied after the answer (the Pushgateway queues its writes), so wait for it.
    await expect.poll(() => runIdsServed(pushgateway.url), { timeout: 5000 }).toEqual([secondId]);
  });
});
