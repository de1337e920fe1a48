/** churn.jsonl: one line per change applied or undone, with its times, so discrepancies can be told apart from churn. */
import { readFile } from "node:fs/promises";
import { isRecord } from "../../contract/index.ts";
import type { ChurnKind } from "./config.ts";

export const CHURN_LOG = "churn.jsonl";

export interface ChurnLogEntry {
  seq: number;
  phase: "apply" | "restore";
  kind: ChurnKind;
  productTypeUuid: string;
  date?: string;
  timeslot?: string;
  /** Epoch ms before the first request of the change and after its last answer. */
  at: number;
  doneAt: number;
  /**
   * HTTP status of the control API (the worst of the change's requests); 0 = no answer. Black-box mode: 200 when the
   * change went as planned (reservations made until the target refused with 422, or cancelled), else the worst
   * unexpected status.
   */
  status: number;
  /** What was set (never a credential). */
  set?: unknown;
  /** Black-box mode: the reserved bookings taken (apply) or released (restore), by uuid. */
  bookings?: string[];
  /** Black-box mode: the seats those bookings hold. */
  seats?: number;
  /** Black-box mode: what the single-date endpoint showed before and after the change. */
  before?: AvailabilityShown;
  after?: AvailabilityShown;
}

/** What the single-date endpoint (GET /v2/product-types/{uuid}/price-lists/{date}) showed for a change's date. */
export interface AvailabilityShown {
  /** HTTP status of the read; 0 = no answer. */
  status: number;
  available?: boolean;
  /** Per timeslot; `remaining` only where the target gives it (an extra of the reference service). */
  timeslots?: { timeslot: string; available: boolean; remaining?: number }[];
  /** Why it was not read (rate-limited and Retry-After too long). */
  skipped?: string;
}

export function parseChurnLog(text: string): ChurnLogEntry[] {
  const entries: ChurnLogEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as unknown;
      if (isRecord(e) && typeof e.productTypeUuid === "string" && typeof e.at === "number") {
        entries.push(e as unknown as ChurnLogEntry);
      }
    } catch {
      // a line cut short by a crash: ignored
    }
  }
  return entries;
}

export async function readChurnLog(file: string): Promise<ChurnLogEntry[]> {
  return parseChurnLog(await readFile(file, "utf8").catch(() => ""));
}
