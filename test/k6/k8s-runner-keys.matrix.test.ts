import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { K6_BUNDLE_DIR } from "../../esbuild.config.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { EmbeddedTarget, type StartedEmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";
import { operatorArgs } from "./k6-operator-commands.ts";
import { k6, type K6Result } from "./operator-runner.ts";

/** A limit no runner reaches in a few seconds and a window longer than the test: X-RateLimit-Remaining counts. */
const LIMIT = 10_000;
const SERVICE_ARGS = ["--rate-limit", String(LIMIT), "--rate-window-seconds", "600"];
/** 7 keys over 3 runners: 3, 2 and 2 each. 7 shares no factor with 3, so unsliced runners all reach every key. */
const KEY_COUNT = 7;

/** The keys a service saw requests from: one probe per key reads how much of its allowance is gone. */
async function keysSpent(target: StartedEmbeddedTarget, keys: readonly string[]): Promise<string[]> {
  const spent: string[] = [];
  for (const key of keys) {
    const res = await fetch(`${target.apiUrl}/v2/products?per_page=1`, { headers: { "X-Authorization": key } });
    await res.arrayBuffer();
    const remaining = Number(res.headers.get("x-ratelimit-remaining"));
    if (LIMIT - remaining - 1 > 0) spent.push(key);
  }
  // The probes opened buckets too: forget them all for the next run.
  await target.control.request("PUT", "/__control/rate-limit", { limit: LIMIT, windowSeconds: 600 });
  return spent;
}

/**
 * Three k6 processes started as k6-operator runners are (the TestRun's env: every key; the operator's segment
 * arguments), each against its own copy of the service so that the service can tell which keys each one spent.
 */
async function runAsRunners(
  targets: readonly StartedEmbeddedTarget[],
  keys: readonly string[],
  extraEnv: Record<string, string>,
): Promise<{ results: K6Result[]; spent: string[][] }> {
  const script = path.join(REPO_ROOT, K6_BUNDLE_DIR, "partner-mix.js");
  const dir = mkdtempSync(path.join(tmpdir(), "atd-k8s-keys-"));
  const results = await Promise.all(
    targets.map((target, i) =>
      k6(["--quiet", "--log-format=json", ...operatorArgs(i + 1, targets.length), script], {
        ATD_BASE_URL: target.apiUrl,
        ATD_API_KEYS: keys.join(","),
        ATD_PROFILE: "smoke",
        ATD_DURATION: "3s",
        ATD_SUMMARY_PATH: path.join(dir, `summary-${String(i)}.json`),
        ...extraEnv,
      }),
    ),
  );
  const spent = await Promise.all(targets.map((t) => keysSpent(t, keys)));
  return { results, spent };
}

describe("harness k8s: API keys per runner", () => {
  it("should let a script read its execution segment once a VU runs, reduced by k6 (2/4 reads 1/2)", async () => {
    const fixture = path.join(import.meta.dirname, "fixtures", "execution-segment.js");
    const { code, output } = await k6(["--quiet", "--log-format=raw", ...operatorArgs(2, 4), fixture], {});
    expect(code, output).toBe(0);
    // Not in the init context: the key slice is taken lazily, once per VU (lib/k6/partner.ts runnerKeys).
    expect(output).toMatch(/atd-segment init error: .*init context/);
    expect(output).toContain("atd-segment setup 1/4:1/2 0,1/4,1/2,3/4,1");
    expect(output).toContain("atd-segment vu 1/4:1/2 0,1/4,1/2,3/4,1");
  });

  it("should give 3 runners with all keys disjoint slices that cover every key, and overlap without ATD_KEYS_BY_SEGMENT", async () => {
    const targets = await Promise.all([0, 1, 2].map(() => new EmbeddedTarget().withServiceArgs(SERVICE_ARGS).start()));
    try {
      const keys = (await targets[0]?.control.partners())?.slice(0, KEY_COUNT).map((p) => p.apiKey) ?? [];
      expect(keys).toHaveLength(KEY_COUNT);

      const sliced = await runAsRunners(targets, keys, { ATD_KEYS_BY_SEGMENT: "1" });
      for (const r of sliced.results) expect(r.code, r.output.slice(-2000)).toBe(0);
      // The split of harness run --segments 3: contiguous, as even as it goes.
      expect(sliced.spent).toEqual([keys.slice(0, 3), keys.slice(3, 5), keys.slice(5, 7)]);
      expect(sliced.spent.flat().sort()).toEqual([...keys].sort());

      const shared = await runAsRunners(targets, keys, {});
      for (const r of shared.results) expect(r.code, r.output.slice(-2000)).toBe(0);
      const [a = [], b = [], c = []] = shared.spent;
      expect(a.filter((k) => b.includes(k) || c.includes(k)).length).toBeGreaterThan(0);
    } finally {
      await Promise.all(targets.map((t) => t.stop()));
    }
  });

  it("should abort a runner whose slice would be empty, saying what to change", async () => {
    await using target = await new EmbeddedTarget().withServiceArgs(SERVICE_ARGS).start();
    const script = path.join(REPO_ROOT, K6_BUNDLE_DIR, "smoke.js");
    const { code, output } = await k6(["--quiet", "--log-format=raw", ...operatorArgs(4, 4), script], {
      ATD_BASE_URL: target.apiUrl,
      ATD_API_KEYS: "atd-partner-01,atd-partner-02,atd-partner-03",
      ATD_KEYS_BY_SEGMENT: "1",
      ATD_DURATION: "3s",
      ATD_SUMMARY_PATH: path.join(mkdtempSync(path.join(tmpdir(), "atd-k8s-keys-")), "summary.json"),
    });
    expect(code, output).toBe(108);
    expect(output).toContain(
      "Failed to pick this runner's API keys: runner 4 of 4 (execution segment 3/4:1) gets no key, because ATD_API_KEYS holds only 3 and no two runners may share one. Please put at least 4 keys",
    );
  });
});
