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
  /** HTTP status of the control API (the worst of the change's requests); 0 = no answer. */
  status: number;
  /** What was set (never a credential). */
  set?: unknown;
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
