/** handleSummary for every scenario: writes k6's end-of-test data as JSON where the harness reads it. */
import { loadConfig } from "./config.ts";

export function handleSummary(data: Record<string, unknown>): Record<string, string> {
  const { summaryPath } = loadConfig(__ENV);
  // setup() hands the VUs what they need, the control token and partner keys among it, and k6 keeps that as
  // `setup_data`: the harness reads nothing of it, and the run directory is no place for a secret.
  const { setup_data: _setupData, ...kept } = data;
  return { [summaryPath]: JSON.stringify(kept) };
}
