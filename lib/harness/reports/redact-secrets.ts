/**
 * The last line of defence for the README's promise that no API key, control token or webhook secret is written to a
 * run directory. The harness's own files hold none (k6's summary drops `setup_data`, keys are shown as fingerprints),
 * but others write there too: the target's log (a service that logs the keys it is sent), the operator's
 * --webhook-register-cmd output, k6's log of an answer that echoes a key. So once the reports are written, every file
 * of the run directory is read and each secret replaced by its fingerprint, and the files that needed it are named
 * (summary.json `run.redacted`, and on the terminal) so that a leak at a source is seen, not only hidden.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Transform, Writable, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { keyFingerprint } from "../../contract/key-fingerprint.ts";

export interface Redaction {
  /** The file, relative to the run directory. */
  file: string;
  /** Secrets replaced in it. */
  count: number;
}

/** The Standard Webhooks secret form (`whsec_` + base64): every webhook secret, whoever made it, looks like this. */
const WEBHOOK_SECRET = String.raw`whsec_[A-Za-z0-9+/]{8,200}={0,2}`;
/** The longest text one secret can span: a match cut by a chunk boundary is found in the text carried over. */
const MAX_SECRET_CHARS = 512;
/**
 * k6's raw samples (metric names, tags and values the scenarios set, never a header or a body) are the bulk of a run
 * directory, gigabytes in a long capacity or soak run: they are not rewritten. The secrets test greps them too.
 */
const NOT_SCANNED = /^k6-raw-.*\.json\.gz$/;

/**
 * Shorter values are not searched for: replacing every "abc12" of a report would garble it, and a key that short is
 * no secret anyway.
 */
const MIN_SECRET_CHARS = 8;

/** One pattern for the run's secrets (longest first, so a key that contains another is replaced whole). */
export function secretPattern(secrets: readonly string[]): RegExp {
  const literals = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_CHARS && s.length <= MAX_SECRET_CHARS))]
    .sort((a, b) => b.length - a.length)
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp([...literals, WEBHOOK_SECRET].join("|"), "g");
}

/** `text` with every secret replaced by its fingerprint, and how many were. */
export function redactText(text: string, pattern: RegExp): { text: string; count: number } {
  let count = 0;
  const redacted = text.replace(pattern, (secret) => {
    count += 1;
    return `[redacted ${keyFingerprint(secret)}]`;
  });
  return { text: redacted, count };
}

/**
 * Redacts a stream of text chunk by chunk, holding back the tail of each chunk (MAX_SECRET_CHARS) until the next one
 * comes, so a secret cut in two by a chunk boundary is still found whole.
 */
class RedactStream extends Transform {
  count = 0;
  #carry = "";
  readonly #pattern: RegExp;

  constructor(pattern: RegExp) {
    super({ decodeStrings: false, encoding: "utf8" });
    this.#pattern = pattern;
  }

  override _transform(chunk: string, _encoding: BufferEncoding, done: TransformCallback): void {
    const text = this.#carry + chunk;
    // Cut where no match can straddle: before the last MAX_SECRET_CHARS, moved back to the start of a match there.
    let cut = Math.max(0, text.length - MAX_SECRET_CHARS);
    this.#pattern.lastIndex = 0;
    for (const m of text.matchAll(this.#pattern)) {
      if (m.index < cut && m.index + m[0].length > cut) cut = m.index;
    }
    this.#emit(text.slice(0, cut));
    this.#carry = text.slice(cut);
    done();
  }

  override _flush(done: TransformCallback): void {
    this.#emit(this.#carry);
    done();
  }

  #emit(text: string): void {
    if (text.length === 0) return;
    const { text: redacted, count } = redactText(text, this.#pattern);
    this.count += count;
    this.push(redacted);
  }
}

function readText(file: string) {
  const raw = createReadStream(file);
  return file.endsWith(".gz") ? raw.pipe(createGunzip()).setEncoding("utf8") : raw.setEncoding("utf8");
}

/** How many secrets one file holds (read through, nothing written). */
async function countIn(file: string, pattern: RegExp): Promise<number> {
  const redact = new RedactStream(pattern);
  await pipeline(
    readText(file),
    redact,
    new Writable({
      write: (_chunk, _encoding, done) => {
        done();
      },
    }),
  );
  return redact.count;
}

/** Rewrites one file with its secrets redacted (whole, then renamed into place: never half a file). */
async function rewrite(file: string, pattern: RegExp): Promise<void> {
  const temporary = `${file}.redacting`;
  const out = createWriteStream(temporary, { mode: 0o600 });
  try {
    await (file.endsWith(".gz")
      ? pipeline(readText(file), new RedactStream(pattern), createGzip(), out)
      : pipeline(readText(file), new RedactStream(pattern), out));
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Redacts every file of a run directory (but k6's raw samples) and names the files that held a secret. */
export async function redactRunDirectory(runDir: string, secrets: readonly string[]): Promise<Redaction[]> {
  const pattern = secretPattern(secrets);
  const entries = await readdir(runDir, { recursive: true, withFileTypes: true });
  const redactions: Redaction[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || NOT_SCANNED.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const count = await countIn(file, pattern);
    if (count === 0) continue;
    await rewrite(file, pattern);
    redactions.push({ file: path.relative(runDir, file), count });
  }
  return redactions;
}
