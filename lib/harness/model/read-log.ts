/**
 * Streams access log files line by line (gzip by the .gz name), keeps the partner API's requests and hands each to
 * `onRequest` with its client hashed at once: the raw key never leaves this function. A line that does not parse is
 * counted, never thrown; a file that cannot be read is a ModelInputError.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import type { EndpointName } from "../../contract/endpoints.ts";
import { endpointOf } from "./endpoint-of-path.ts";
import type { LogRecord } from "./log-formats.ts";

/** A kept request: its endpoint and the hashed client. */
export interface KeptRequest {
  timeMs: number;
  endpoint: EndpointName;
  status: number;
  clientHash: string;
}

export interface ReadCounts {
  lines: number;
  /** Lines that are no request of the layout (truncated, another format, comments). */
  malformed: number;
  /** Requests of the partner API's endpoint table. */
  kept: number;
  /** Up to a few line numbers of malformed lines, file:line, for the report. */
  malformedExamples: string[];
}

/** A log that cannot be read at all (missing, unreadable, not gzip). */
export class ModelInputError extends Error {
  override name = "ModelInputError";
}

/** The hash that stands for a client: enough bits that two keys of a log never meet, no way back to the key. */
export function hashClient(client: string): string {
  return createHash("sha256").update(client).digest("base64url").slice(0, 16);
}

const MAX_EXAMPLES = 5;
/** Longer lines are no access log's: refused before the parser's regular expression sees them. */
const MAX_LINE_CHARS = 64 * 1024;

export async function readLogs(
  files: readonly string[],
  parse: (line: string) => LogRecord | undefined,
  onRequest: (request: KeptRequest) => void,
): Promise<ReadCounts> {
  const counts: ReadCounts = { lines: 0, malformed: 0, kept: 0, malformedExamples: [] };
  for (const file of files) {
    let lineNo = 0;
    const stream = createReadStream(file);
    const source = file.endsWith(".gz") ? stream.pipe(createGunzip()) : stream;
    const failed = new Promise<never>((_, reject) => {
      const fail = (error: NodeJS.ErrnoException) => {
        reject(new ModelInputError(`${file}: ${error.code === "ENOENT" ? "no such file" : error.message}`));
      };
      stream.on("error", fail);
      if (source !== stream) source.on("error", fail);
    });
    failed.catch(() => undefined);
    const lines = createInterface({ input: source, crlfDelay: Infinity });
    const reading = (async () => {
      for await (const line of lines) {
        lineNo++;
        counts.lines++;
        if (line === "") {
          counts.lines--;
          continue;
        }
        const record = line.length > MAX_LINE_CHARS ? undefined : parse(line);
        if (record === undefined) {
          counts.malformed++;
          if (counts.malformedExamples.length < MAX_EXAMPLES) counts.malformedExamples.push(`${file}:${lineNo}`);
          continue;
        }
        const endpoint = endpointOf(record.method, record.path);
        if (endpoint === undefined) continue;
        counts.kept++;
        onRequest({ timeMs: record.timeMs, endpoint, status: record.status, clientHash: hashClient(record.client) });
      }
    })();
    await Promise.race([reading, failed]);
  }
  return counts;
}
