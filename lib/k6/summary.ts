/** handleSummary for every scenario: writes k6's end-of-test data as JSON where the harness reads it. */
import { loadConfig } from "./config.ts";

export function handleSummary(data: Record<string, unknown>): Record<string, string> {
  const { summaryPath } = loadConfig(__ENV);
  return { [summaryPath]: JSON.stringify(data) };
}
