/** Bounds of settings, shared by the settings table's parsers and the checks of run-settings.ts. */

/**
 * The longest a scenario may run (its profile's whole length with --duration): a week covers any soak, and keeps
 * every bound the harness sets from it (k6's, Node's timers, which fire at once past 24.8 days) meaningful.
 */
export const MAX_RUN_SECONDS = 7 * 24 * 3600;
