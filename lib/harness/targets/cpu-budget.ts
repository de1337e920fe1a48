/**
 * A CPU budget for a process on this host (--service-cpus), through the kernel's CFS bandwidth control: a cgroup whose
 * quota lets the process run `cores` CPU-seconds per second. On a host where k6 shares the cores with the service, a
 * service given less CPU than k6 leaves it saturates first, so the capacity knee is the service's and not the load
 * generator's (docs/performance.md, Capacity). cgroup v2 (cpu.max) is used when its cpu controller is available,
 * otherwise cgroup v1 (cpu.cfs_quota_us); both need root.
 */
import { access, mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { EXIT, HarnessError } from "../exit-codes.ts";

/**
 * A short period keeps latency honest: with the kernel's default 100 ms a process on a 0.1-core budget runs 10 ms and
 * then waits 90 ms, which shows up as a 90 ms floor on p95 whatever the load. The kernel's minimum quota is 1 ms,
 * so small budgets get a longer period.
 */
const PERIOD_US = 10_000;
const MIN_QUOTA_US = 1_000;

export interface CpuBudget {
  readonly cores: number;
  /** The cgroup directory the process runs in. */
  readonly cgroup: string;
  /** "v1" or "v2". */
  readonly version: "v1" | "v2";
  readonly periodUs: number;
  readonly quotaUs: number;
  /** Removes the cgroup (the process, if still running, goes back to the root group). */
  release(): Promise<void>;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** The quota and period for `cores`: the period is 10 ms unless the quota would fall under the kernel's 1 ms. */
export function cfsBandwidth(cores: number): { periodUs: number; quotaUs: number } {
  const periodUs = Math.max(PERIOD_US, Math.ceil(MIN_QUOTA_US / cores));
  return { periodUs, quotaUs: Math.round(cores * periodUs) };
}

async function cgroupVersion(root: string): Promise<{ version: "v1" | "v2"; parent: string } | undefined> {
  const v2Controllers = path.join(root, "cgroup.controllers");
  if (await exists(v2Controllers)) {
    const controllers = (await readFile(v2Controllers, "utf8")).split(/\s+/);
    if (controllers.includes("cpu")) return { version: "v2", parent: root };
  }
  if (await exists(path.join(root, "cpu", "cpu.cfs_quota_us")))
    return { version: "v1", parent: path.join(root, "cpu") };
  return undefined;
}

/**
 * Moves `pid` (and all its threads) into a new cgroup limited to `cores`. `root` is where the cgroup file systems
 * are mounted (a temporary directory in tests).
 */
export async function applyCpuBudget(pid: number, cores: number, root = "/sys/fs/cgroup"): Promise<CpuBudget> {
  const fail = (why: string): never => {
    throw new HarnessError(
      `Failed to give the service a CPU budget of ${String(cores)} cores: ${why}. Please run the harness as root on Linux with the cgroup cpu controller, use --target container (Docker --cpus), or drop --service-cpus.`,
      EXIT.target,
    );
  };
  const found = await cgroupVersion(root);
  if (!found) return fail(`no cgroup cpu controller under ${root}`);
  const { periodUs, quotaUs } = cfsBandwidth(cores);
  const cgroup = path.join(found.parent, `atd-harness-${String(pid)}`);
  try {
    await mkdir(cgroup, { recursive: true });
    if (found.version === "v2") {
      // The parent must hand the cpu controller down; already done on most hosts, and harmless to repeat.
      await writeFile(path.join(found.parent, "cgroup.subtree_control"), "+cpu").catch(() => undefined);
      await writeFile(path.join(cgroup, "cpu.max"), `${String(quotaUs)} ${String(periodUs)}`);
    } else {
      await writeFile(path.join(cgroup, "cpu.cfs_period_us"), String(periodUs));
      await writeFile(path.join(cgroup, "cpu.cfs_quota_us"), String(quotaUs));
    }
    await writeFile(path.join(cgroup, "cgroup.procs"), String(pid));
  } catch (error) {
    await rmdir(cgroup).catch(() => undefined);
    return fail(`cannot write ${cgroup} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return {
    cores,
    cgroup,
    version: found.version,
    periodUs,
    quotaUs,
    release: async () => {
      // A process still inside keeps the directory busy: move whatever is left to the parent first.
      const left = await readFile(path.join(cgroup, "cgroup.procs"), "utf8").catch(() => "");
      for (const p of left.split(/\s+/).filter((x) => x.length > 0)) {
        await writeFile(path.join(found.parent, "cgroup.procs"), p).catch(() => undefined);
      }
      await rmdir(cgroup).catch(() => undefined);
    },
  };
}
