/**
 * k6 duration strings ("1m30s", "250ms") and how long a k6 scenario config runs in total. Pure: used inside k6
 * (profiles) and by the harness (run time bounds).
 */

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** A whole duration: anchored, so a long run of digits is refused in one pass, not searched from every position. */
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;

export function parseDuration(text: string): number {
  if (!DURATION.test(text)) throw new Error(`"${text}" is not a duration such as 30s, 5m or 1h30m`);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  const seconds = parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_SECONDS[p[2] as string] ?? 0), 0);
  // A number of some 300 digits is Infinity: no time a run could last.
  if (!Number.isFinite(seconds)) throw new Error(`"${text}" is longer than any duration`);
  return seconds;
}

/** Seconds a k6 scenario's executor runs: its duration, or the sum of its stages. */
export function scenarioSeconds(scenario: object): number {
  const { duration, stages } = scenario as { duration?: string; stages?: readonly { duration: string }[] };
  if (duration) return parseDuration(duration);
  return (stages ?? []).reduce((sum, s) => sum + parseDuration(s.duration), 0);
}
