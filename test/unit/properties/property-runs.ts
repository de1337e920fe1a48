/**
 * How many cases each property of the harness's inputs tries, and how long one call may take before it counts as a
 * hang. The default tier runs every property a small number of times (together well under 30 s); the matrix tier
 * (test/k6/input-properties.matrix.test.ts) runs the same properties at a larger scale. ATD_PROPERTY_SCALE multiplies
 * either; ATD_PROPERTY_SEED and ATD_PROPERTY_PATH replay the failure fast-check reported (its "seed" and "path").
 */
import type { Parameters } from "fast-check";

/** A call that takes this long is a hang, not a slow machine: parsers answer in milliseconds. */
export const HANG_MS = 5_000;

function envNumber(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text.trim() === "") return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) {
    throw new Error(`Failed to read ${name} "${text}": it is not a number above 0. Please give e.g. 10.`);
  }
  return n;
}

/**
 * fast-check's parameters for a property run `base` times at the default scale, after its fixed examples: the shrunk
 * inputs of failures found and fixed, tried first on every run so they cannot come back.
 */
export function runs<T>(base: number, scale: number, examples: T[] = []): Parameters<T> {
  const seed = envNumber("ATD_PROPERTY_SEED");
  const path = process.env.ATD_PROPERTY_PATH;
  return {
    numRuns: Math.max(1, Math.round(base * scale * (envNumber("ATD_PROPERTY_SCALE") ?? 1))),
    examples,
    ...(seed === undefined ? {} : { seed: Math.trunc(seed) }),
    ...(path === undefined || path === "" ? {} : { path }),
  };
}

/** The vitest timeout of a property's `it`: its runs, each bounded by HANG_MS, with room for a loaded machine. */
export function timeoutFor(base: number, scale: number, msPerRun = 50): number {
  return Math.max(30_000, base * scale * (envNumber("ATD_PROPERTY_SCALE") ?? 1) * msPerRun + HANG_MS);
}
