/**
 * Epoch milliseconds from the monotonic clock: steady under wall-clock steps, comparable with Date.now() (k6 stamps
 * with it on the same host). What the webhook sink stamps arrivals with, and the hooks client clock advances.
 */
export function monotonicNow(): number {
  return performance.timeOrigin + performance.now();
}
