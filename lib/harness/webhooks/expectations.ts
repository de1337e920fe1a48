/** Reads the expectations the k6 scenarios logged (EXPECTATION_MARKER lines of k6's JSON log). */
import { EXPECTATION_MARKER, WEBHOOK_EVENT_TYPES, isRecord, type ExpectationRecord } from "../../contract/index.ts";

function isExpectation(value: unknown): value is ExpectationRecord {
  return (
    isRecord(value) &&
    typeof value.type === "string" &&
    (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value.type) &&
    typeof value.resource === "string" &&
    typeof value.at === "number" &&
    (value.key === undefined || typeof value.key === "number") &&
    (value.status === undefined || typeof value.status === "string")
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
