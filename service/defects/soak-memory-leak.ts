import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "soak-memory-leak",
  issue: 9,
  area: "soak",
  description: "Every API request keeps 32 KiB in a list that is never cleared (a cache without eviction).",
});

/** What the leak holds on to: reachable for the life of the process, so the garbage collector can never free it. */
const retained: { path: string; payload: number[] }[] = [];

/** Called once per API request while the defect is on. */
export function leakPerRequest(path: string): void {
  // 4096 distinct small integers in a plain array: 32 KiB of V8 heap per request (a padded string would not do, V8
  // can keep repeated characters as a rope of shared pieces).
  const n = retained.length;
  retained.push({ path, payload: Array.from({ length: 4096 }, (_, i) => (n + i) % 1_000_000) });
}
