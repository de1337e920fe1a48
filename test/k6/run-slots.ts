/**
 * A machine-wide cap on harness runs at once, across vitest's worker processes: the matrix tier runs two files side by
 * side, each with runs of its own, and two cores hold only so many k6 processes before latency thresholds and timed
 * judgements start to measure the machine instead of the service. With ATD_RUN_SLOTS=n (npm run test:matrix sets it),
 * every harness run first takes one of n slots, directories made atomically under the system's temporary directory;
 * without it, runs start at once, as before. A slot left by a process that died is taken back.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const SLOTS_DIR = path.join(tmpdir(), "atd-run-slots");
const POLL_MS = 100;

function slotCount(): number | undefined {
  const n = Number(process.env.ATD_RUN_SLOTS);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes a free slot (or one whose holder died): its directory, or undefined when all are held. */
function tryTake(count: number): string | undefined {
  mkdirSync(SLOTS_DIR, { recursive: true });
  for (let i = 0; i < count; i++) {
    const slot = path.join(SLOTS_DIR, `slot-${String(i)}`);
    try {
      mkdirSync(slot);
      writeFileSync(path.join(slot, "pid"), String(process.pid));
      return slot;
    } catch {
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(path.join(slot, "pid"), "utf8"));
      } catch {
        // Made by a holder that has not written its pid yet: held.
        continue;
      }
      if (Number.isInteger(holder) && !alive(holder)) rmSync(slot, { recursive: true, force: true });
    }
  }
  return undefined;
}

/** Runs `run` once a machine-wide slot is free (at once without ATD_RUN_SLOTS), and frees the slot after. */
export async function inRunSlot<T>(run: () => Promise<T>): Promise<T> {
  const count = slotCount();
  if (count === undefined) return run();
  let slot = tryTake(count);
  while (slot === undefined) {
    await sleep(POLL_MS);
    slot = tryTake(count);
  }
  try {
    return await run();
  } finally {
    rmSync(slot, { recursive: true, force: true });
  }
}
