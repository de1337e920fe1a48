/**
 * A container's output: all of it saved to a file (in the run directory), its last lines kept for error messages.
 * Fed by a testcontainers log stream (GenericContainer.withLogConsumer, or client.container.logs for a compose
 * service); the stream ends when the container is removed.
 */
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";

const RECENT_LOG_LINES = 40;
/** How long close() waits for the stream to end before it flushes what it has. */
const END_WAIT_MS = 2_000;

export class ContainerLogs {
  readonly #lines: string[] = [];
  readonly #file: WriteStream | undefined;
  #partial = "";
  #ended: Promise<void> = Promise.resolve();
  #closed: Promise<void> | undefined;
  #fileEnded = false;

  /** `file`: where the whole output goes (directories are created; the file is overwritten). */
  constructor(file: string | undefined) {
    if (file !== undefined) {
      mkdirSync(path.dirname(file), { recursive: true });
      this.#file = createWriteStream(file, { flags: "w" });
    }
  }

  consume(stream: Readable): void {
    this.#ended = new Promise((resolve) => {
      stream.on("data", (chunk: string | Buffer) => {
        const text = chunk.toString();
        if (!this.#fileEnded) this.#file?.write(text);
        this.#addText(text);
      });
      stream.on("end", resolve);
      stream.on("close", resolve);
      stream.on("error", () => {
        resolve();
      });
    });
  }

  #addText(text: string): void {
    const parts = (this.#partial + text).split("\n");
    this.#partial = parts.pop() ?? "";
    for (const line of parts) this.#addLine(line.replace(/\r$/, ""));
  }

  #addLine(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > RECENT_LOG_LINES) this.#lines.shift();
  }

  recent(): string[] {
    return this.#partial === "" ? [...this.#lines] : [...this.#lines, this.#partial];
  }

  /** "; its last output: ..." for error messages, or "" when there was none. */
  describe(): string {
    const lines = this.recent().filter((line) => line.trim() !== "");
    return lines.length === 0 ? "" : `; its last output: ${lines.slice(-5).join(" | ").replace(/\.$/, "")}`;
  }

  /** Waits (briefly) for the stream to end, then flushes and closes the file. Safe to call more than once. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      await Promise.race([this.#ended, new Promise((resolve) => setTimeout(resolve, END_WAIT_MS))]);
      if (this.#partial !== "") {
        this.#addLine(this.#partial);
        this.#partial = "";
      }
      this.#fileEnded = true;
      const file = this.#file;
      if (file !== undefined && !file.closed) {
        await new Promise<void>((resolve) => {
          file.end(resolve);
        });
      }
    })();
    return this.#closed;
  }
}
