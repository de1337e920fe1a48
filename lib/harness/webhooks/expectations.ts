/**
 * Reads what the k6 scenarios logged for the sink: the expectations (EXPECTATION_MARKER lines of k6's JSON log) and
 * the clock advances they made (CLOCK_ADVANCE_MARKER), which the retry judge takes into account.
 */
import {
  CLOCK_ADVANCE_MARKER,
  EXPECTATION_MARKER,
  WEBHOOK_EVENT_TYPES,
  isRecord,
  type ClockAdvanceRecord,
  type ExpectationRecord,
} from "../../contract/index.ts";
import { markedPayloads } from "../verdict.ts";

function isExpectation(value: unknown): value is ExpectationRecord {
  return (
    isRecord(value) &&
    typeof value.type === "string" &&
    (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value.type) &&
    typeof value.resource === "string" &&
    typeof value.at === "number" &&
    (value.key === undefined || typeof value.key === "number") &&
    (value.status === undefined || typeof value.status === "string") &&
    (value.optional === undefined || typeof value.optional === "boolean")
  );
}

export function parseExpectations(log: string): ExpectationRecord[] {
  const found: ExpectationRecord[] = [];
  const marker = EXPECTATION_MARKER.trim();
  for (const line of log.split("\n")) {
    if (!line.includes(marker)) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(entry) || typeof entry.msg !== "string" || !entry.msg.startsWith(EXPECTATION_MARKER)) continue;
    try {
      const record = JSON.parse(entry.msg.slice(EXPECTATION_MARKER.length)) as unknown;
      if (isExpectation(record)) found.push(record);
    } catch {
      // a truncated line: k6 was stopped while writing it
    }
  }
  return found;
}

function isClockAdvance(value: unknown): value is ClockAdvanceRecord {
  return (
    isRecord(value) &&
    typeof value.sentAt === "number" &&
    typeof value.answeredAt === "number" &&
    typeof value.seconds === "number" &&
    value.seconds > 0
  );
}

/** The clock advances a k6 scenario made and logged. */
export function parseClockAdvances(log: string): ClockAdvanceRecord[] {
  return markedPayloads(log, CLOCK_ADVANCE_MARKER).filter((p): p is Record<string, unknown> & ClockAdvanceRecord =>
    isClockAdvance(p),
  );
}
