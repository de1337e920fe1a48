/**
 * What a named environment of the run file (harness.yaml) says about how carefully it must be loaded: a production
 * environment runs read-only scenarios under a per-key ceiling, a shared one keeps its own traffic inside each key's
 * allowance. Read by the run file (lib/harness/run-file/), enforced by lib/harness/plan/rails.ts before anything
 * starts and by k6 itself (its `rps` option) while the run goes.
 */
export interface EnvironmentRails {
  /** The environment's name in the run file (local, demo, production, ...), or "command line" without a run file. */
  name: string;
  /** Production: read-only scenarios only, no churn or chaos, bookings only with --allow-production-bookings <name>. */
  production: boolean;
  /** Shared with other users (a demo, another team's staging): the run's own traffic must cause no 429. */
  shared: boolean;
  /** The scenarios this environment may run; undefined: any. */
  allowedScenarios?: readonly string[];
  /** Requests per minute per key the run may send to the rate-limited endpoints; undefined: no ceiling. */
  ceilingPerKeyPerMinute?: number;
}
