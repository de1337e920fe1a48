/**
 * Runs a program to its end and measures the CPU its whole process tree spent (user + system, from bash's `times`:
 * the shell's finished children, each with the children it waited for), so a generator that forks workers or
 * starts threads is counted whole. Its stdout and stderr go to files the caller names.
 */
import { spawnSync } from "node:child_process";

export interface Timed {
  /** The program's exit code (null when bash could not report one). */
  exitCode: number | null;
  cpuSeconds: number;
  wallSeconds: number;
}

export function runTimed(
  command: readonly string[],
  output: { stdout: string; stderr: string },
  env: NodeJS.ProcessEnv,
): Timed {
  const started = performance.now();
  // The second line of `times` is the children's user and system time; the exit code goes after it.
  const result = spawnSync(
    "bash",
    ["-c", `"$@" >"$OUT_FILE" 2>"$ERR_FILE"; code=$?; times; echo "$code"`, "bash", ...command],
    { env: { ...env, OUT_FILE: output.stdout, ERR_FILE: output.stderr }, encoding: "utf8" },
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const lines = result.stdout.trim().split("\n");
  const children = lines.at(-2) ?? "";
  const [user, system] = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  const code = Number(lines.at(-1));
  return {
    exitCode: Number.isInteger(code) ? code : null,
    cpuSeconds: (user ?? 0) + (system ?? 0),
    wallSeconds,
  };
}
