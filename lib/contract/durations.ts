/**
 * k6 duration strings ("1m30s", "250ms") and how long a k6 scenario config runs in total. Pure: used inside k6
 * (profiles) and by the harness (run time bounds).
 */

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

export function parseDuration(text: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text) {
    throw new Error(`"${text}" is not a duration such as 30s, 5m or 1h30m`);
  }
  return parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_SECONDS[p[2] as string] ?? 0), 0);
}

/** Seconds a k6 scenario's executor runs: its duration, or the sum of its stages. */
export function scenarioSeconds(scenario: object): number {
  const { duration, stages } = scenario as { duration?: string; stages?: readonly { duration: string }[] };
  if (duration) return parseDuration(duration);
  return (stages ?? []).reduce((sum, s) => sum + parseDuration(s.duration), 0);
}
