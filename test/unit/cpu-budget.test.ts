import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCpuBudget, cfsBandwidth } from "../../lib/harness/targets/cpu-budget.ts";

/** A directory laid out like a cgroup mount: the files the kernel would offer, as plain files. */
async function fakeCgroupRoot(layout: "v1" | "v2" | "none"): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "atd-cgroup-"));
  if (layout === "v1") {
    await mkdir(path.join(root, "cpu"));
    await writeFile(path.join(root, "cpu", "cpu.cfs_quota_us"), "-1");
  }
  if (layout === "v2") await writeFile(path.join(root, "cgroup.controllers"), "cpuset cpu io memory pids");
  return root;
}

describe("CPU budget", () => {
  it("should use a 10 ms period, longer only when the quota would fall under the kernel's 1 ms", () => {
    expect(cfsBandwidth(0.25)).toEqual({ periodUs: 10_000, quotaUs: 2_500 });
    expect(cfsBandwidth(1.5)).toEqual({ periodUs: 10_000, quotaUs: 15_000 });
    expect(cfsBandwidth(0.05)).toEqual({ periodUs: 20_000, quotaUs: 1_000 });
  });

  it("should write the quota and the process into a cgroup v1 cpu group", async () => {
    const root = await fakeCgroupRoot("v1");
    const budget = await applyCpuBudget(4242, 0.15, root);
    const dir = path.join(root, "cpu", "atd-harness-4242");
    expect(budget).toMatchObject({ version: "v1", cgroup: dir, periodUs: 10_000, quotaUs: 1_500 });
    expect(await readFile(path.join(dir, "cpu.cfs_period_us"), "utf8")).toBe("10000");
    expect(await readFile(path.join(dir, "cpu.cfs_quota_us"), "utf8")).toBe("1500");
    expect(await readFile(path.join(dir, "cgroup.procs"), "utf8")).toBe("4242");
  });

  it("should write cpu.max in a cgroup v2 hierarchy with the cpu controller", async () => {
    const root = await fakeCgroupRoot("v2");
    const budget = await applyCpuBudget(7, 0.5, root);
    expect(budget.version).toBe("v2");
    expect(await readFile(path.join(root, "atd-harness-7", "cpu.max"), "utf8")).toBe("5000 10000");
    expect(await readFile(path.join(root, "cgroup.subtree_control"), "utf8")).toBe("+cpu");
  });

  it("should fail with what to do when no cpu controller is there", async () => {
    const root = await fakeCgroupRoot("none");
    await expect(applyCpuBudget(7, 0.5, root)).rejects.toThrow(
      /^Failed to give the service a CPU budget of 0\.5 cores: no cgroup cpu controller under .*Please run the harness as root/,
    );
  });
});
