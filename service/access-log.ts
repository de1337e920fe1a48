/**
 * The access log (--access-log): one line per answered API request in nginx's combined format, with the API key in
 * the user field, the time to the millisecond and no byte count (docs/service.md), as `harness model fit` reads it. Lines are
 * queued and written by one stream in batches: the request path pays for a string and an array push. The queue is
 * bounded: while the disk lags by more than MAX_PENDING_BYTES, lines are dropped and counted (the count is the
 * log's last line), never held in memory without end.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";

const MAX_PENDING_BYTES = 8 * 1024 * 1024;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `27/Nov/2026:23:45:01.123 +0000`: $time_local in UTC, with milliseconds (Apache's %{msec_frac}t). */
export function logTime(ms: number): string {
  const d = new Date(ms);
  const millis = String(d.getUTCMilliseconds()).padStart(3, "0");
  return (
    `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()] ?? ""}/${d.getUTCFullYear()}:` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${millis} +0000`
  );
}

/** nginx's escaping of logged variables: `"`, `\` and bytes outside printable ASCII as \xHH. */
export function escapeLogged(value: string): string {
  // eslint-disable-next-line no-control-regex -- the control characters are what is escaped
  if (!/["\\\x00-\x1f\x7f-\uffff]/.test(value)) return value;
  return value.replace(
    // eslint-disable-next-line no-control-regex -- as above
    /["\\\x00-\x1f\x7f-\uffff]/g,
    (c) => {
      const code = c.charCodeAt(0);
      // Node hands the request line over as latin1; anything wider is written as its URL encoding.
      return code > 0xff ? encodeURIComponent(c) : `\\x${code.toString(16).padStart(2, "0").toUpperCase()}`;
    },
  );
}

function field(value: string | string[] | undefined): string {
  if (typeof value !== "string" || value === "") return "-";
  return escapeLogged(value);
}

/** A user field that cannot break the line: nginx logs $remote_user as is, but a key with a space would split it. */
function userField(value: string | string[] | undefined): string {
  return typeof value === "string" && /^[\x21-\x7e]+$/.test(value) ? escapeLogged(value) : "-";
}

export class AccessLog {
  readonly #stream: WriteStream;
  #queue: string[] = [];
  #queuedBytes = 0;
  #scheduled = false;
  #dropped = 0;

  constructor(file: string) {
    this.#stream = createWriteStream(file, { flags: "a" });
    // A write error (disk full) must not take the service down: lines from then on are dropped and counted.
    this.#stream.on("error", () => {
      this.#dropped += this.#queue.length;
      this.#queue = [];
    });
  }

  /** Logs the request once its answer is written (nginx logs at the end of a request too). */
  track(req: IncomingMessage, res: ServerResponse): void {
    const addr = req.socket.remoteAddress ?? "-";
    res.once("finish", () => {
      const line =
        `${addr} - ${userField(req.headers["x-authorization"])} [${logTime(Date.now())}] ` +
        `"${field(req.method)} ${field(req.url)} HTTP/${req.httpVersion}" ${res.statusCode} ` +
        // $body_bytes_sent: not counted here (the answer's headers are written in one call), "-" as Apache writes it.
        `- ` +
        `"${field(req.headers.referer)}" "${field(req.headers["user-agent"])}"\n`;
      this.#enqueue(line);
    });
  }

  #enqueue(line: string): void {
    if (this.#stream.destroyed || this.#queuedBytes + this.#stream.writableLength > MAX_PENDING_BYTES) {
      this.#dropped += 1;
      return;
    }
    this.#queue.push(line);
    this.#queuedBytes += line.length;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#flush();
      });
    }
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#queue.length === 0 || this.#stream.destroyed) return;
    this.#stream.write(this.#queue.join(""));
    this.#queue = [];
    this.#queuedBytes = 0;
  }

  /** Writes what is queued (and the dropped count, if any) and closes the file. */
  async close(): Promise<void> {
    this.#flush();
    if (this.#dropped > 0 && !this.#stream.destroyed) {
      this.#stream.write(`# atd-service: ${this.#dropped} access log lines dropped (the disk lagged)\n`);
    }
    if (this.#stream.destroyed) return;
    await new Promise<void>((resolve) => {
      this.#stream.end(resolve);
    });
  }
}
