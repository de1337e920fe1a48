/** Milliseconds as seconds, without the binary-fraction tail a division leaves (0.098367, not 0.09836700000000001). */
export function msToSeconds(ms: number): number {
  return Number((ms / 1000).toPrecision(15));
}
