import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "soak-slowdown",
  issue: 9,
  area: "soak",
  description:
    "Every API request waits longer the longer the defect has been on: 4 ms more per second, up to 2 s (a growing scan).",
});

let since: number | undefined;

/** The added latency for a request now, in milliseconds; the clock starts at the first request under the defect. */
export function slowdownMs(now = Date.now()): number {
  since ??= now;
  return Math.min(2000, ((now - since) / 1000) * 4);
}
