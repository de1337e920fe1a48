/**
 * The extensions' pieces of the reports (reports/report-pieces.ts), in the order report.html draws their sections.
 * Kept apart from the extensions themselves (extensions.ts) so the reports, and `harness report` rendering an old
 * summary.json, load these small readers of the summary and none of the extensions' servers and proxies.
 */
import { networkChaosReport } from "./chaos/active-faults.ts";
import type { ExtensionReport } from "./reports/report-pieces.ts";
import { webhookSinkReport } from "./webhooks/latency-report.ts";

export const EXTENSION_REPORTS: readonly ExtensionReport[] = [webhookSinkReport, networkChaosReport];
