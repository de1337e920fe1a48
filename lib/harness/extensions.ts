/**
 * Which extensions a run gets: some scenarios need one (the webhook scenario needs the sink), and flags can add
 * others (churn, chaos). One place, so a newcomer finds what runs beside k6 for a given command line.
 */
import type { RunExtension } from "./run-extension.ts";

export interface ExtensionChoice {
  scenarios: readonly string[];
}

export function extensionsFor(_choice: ExtensionChoice): RunExtension[] {
  return [];
}
