import { execFileSync, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { OWNER_LABEL } from "../../lib/harness/interrupt.ts";
import { processesInGroup, runHarnessProcess, type HarnessProcessResult } from "../k6/harness-process.ts";

/**
 * A signal always ends a run with a container target too: SIGTERM while the container is being started (created, not
 * yet ready) or while k6 runs against it ends the harness within 10 s with exit 143, the container removed and
 * summary.json written with the run marked interrupted; a second signal ends it at once and the container is still
 * removed (by the detached `docker rm -f` of its last resort). Containers are told apart from other runs' by their
 * owner label, which starts with the harness's pid.
 */
interface Signalled extends HarnessProcessResult {
  pid: number;
  stoppedInMs: number;
  /** The run's containers seen while it ran. */
  seen: string[];
}

/** Containers whose owner label says this harness process started them (running or not). */
function containersOf(pid: number): string[] {
  const lines = execFileSync(
    "docker",
    ["ps", "-a", "--filter", `label=${OWNER_LABEL}`, "--format", `{{.ID}} {{.Label "${OWNER_LABEL}"}}`],
    { encoding: "utf8" },
  ).split("\n");
  return lines
    .filter((line) => line.split(" ")[1]?.startsWith(`${String(pid)}-`))
    .map((line) => line.split(" ")[0] ?? "");
}

/**
 * Runs the harness against the reference image; from the line starting with `watchFrom` on, sends SIGTERM as soon
 * as the run's container exists (`whenContainer`) or at once; `twice`: again as soon as it says it is stopping.
 */
function signalled(
  args: readonly string[],
  options: { watchFrom: string; whenContainer: boolean; twice?: boolean },
): Promise<Signalled> {
  let harness: ChildProcess | undefined;
  let sentAt: number | undefined;
  let seen: string[] = [];
  const signal = () => {
    sentAt = Date.now();
    harness?.kill("SIGTERM");
  };
  const watch = async () => {
    // Bounded: the container exists within the start-up timeout, or the run ends on its own.
    for (let i = 0; i < 600 && sentAt === undefined && harness?.exitCode === null; i++) {
      seen = containersOf(harness.pid ?? 0);
      if (seen.length > 0) signal();
      else await sleep(100);
    }
  };
  return runHarnessProcess(["run", "smoke", "--target", "container", ...args], {
    ownGroup: true,
    timeoutMs: 300_000,
    onStart: (child) => {
      harness = child;
    },
    onLine: (line) => {
      if (sentAt === undefined && line.startsWith(options.watchFrom)) {
        if (options.whenContainer) void watch();
        else {
          seen = containersOf(harness?.pid ?? 0);
          signal();
        }
      } else if (options.twice && sentAt !== undefined && line.startsWith("Stopping on SIGTERM")) {
        signal();
      }
    },
  }).then((result) => ({ ...result, pid: harness?.pid ?? 0, stoppedInMs: Date.now() - (sentAt ?? 0), seen }));
}

/** What is left of a run after a moment (a container removed by a detached docker rm takes a little while). */
async function leftOver(pid: number): Promise<{ containers: string[]; processes: string[] }> {
  for (let i = 0; i < 50; i++) {
    if (containersOf(pid).length === 0 && processesInGroup(pid).length === 0) break;
    await sleep(200);
  }
  return { containers: containersOf(pid), processes: processesInGroup(pid) };
}

describe("harness run --target container ended by a signal", () => {
  it("should remove the container it was starting and write the summary on SIGTERM", async () => {
    const result = await signalled(["--duration", "20s"], { watchFrom: "▸ start target", whenContainer: true });
    expect(result.seen.length, "the container existed when the signal came").toBe(1);
    expect(result.exitCode, result.output).toBe(143);
    expect(result.stoppedInMs).toBeLessThan(10_000);
    expect(result.summary?.run.interrupted).toEqual({ signal: "SIGTERM", phase: "start the target" });
    expect(result.output).not.toMatch(/▸ run/);
    expect(await leftOver(result.pid)).toEqual({ containers: [], processes: [] });
  });

  it("should stop k6, remove the container and write the summary on SIGTERM while k6 runs", async () => {
    const result = await signalled(["--duration", "20s"], { watchFrom: "▸ run:", whenContainer: false });
    expect(result.seen.length, "the container ran when the signal came").toBe(1);
    expect(result.exitCode, result.output).toBe(143);
    expect(result.stoppedInMs).toBeLessThan(10_000);
    expect(result.summary?.run.interrupted).toEqual({ signal: "SIGTERM", phase: "run k6" });
    expect(await leftOver(result.pid)).toEqual({ containers: [], processes: [] });
  });

  it("should end at once on a second signal and still remove the container it was starting", async () => {
    const result = await signalled(["--duration", "20s"], {
      watchFrom: "▸ start target",
      whenContainer: true,
      twice: true,
    });
    expect(result.seen.length, "the container existed when the signal came").toBe(1);
    expect(result.exitCode, result.output).toBe(143);
    expect(result.output).toMatch(/SIGTERM again: ending now/);
    expect(result.stoppedInMs).toBeLessThan(3_000);
    expect(result.summary?.run.interrupted?.signal).toBe("SIGTERM");
    expect(await leftOver(result.pid)).toEqual({ containers: [], processes: [] });
  });
});
