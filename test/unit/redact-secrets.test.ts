import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { redactRunDirectory, redactText, secretPattern } from "../../lib/harness/reports/redact-secrets.ts";

const KEY = "partner-key-0123456789abcdef";
const TOKEN = "control-token-feedface";
const WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

function runDir(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "atd-redact-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

describe("redacting secrets from a run directory", () => {
  it("should replace every secret by its fingerprint and count them", () => {
    const { text, count } = redactText(
      `key ${KEY} token ${TOKEN} again ${KEY}, ${WEBHOOK_SECRET}`,
      secretPattern([KEY, TOKEN]),
    );
    expect(count).toBe(4);
    expect(text).toBe("key [redacted …cdef] token [redacted …face] again [redacted …cdef], [redacted …LaSw]");
  });

  it("should replace a key that contains another one whole", () => {
    const { text } = redactText(`${KEY}-long`, secretPattern([KEY, `${KEY}-long`]));
    expect(text).toBe("[redacted …long]");
  });

  it("should not search for values too short to be secrets", () => {
    const { text, count } = redactText("abc abcdefg", secretPattern(["abc", "", "abcdefg"]));
    expect(count).toBe(0);
    expect(text).toBe("abc abcdefg");
  });

  it("should find a secret cut in two by a chunk boundary of a large file", async () => {
    // The read stream's chunks are 64 KiB: one secret straddles each of the first boundaries.
    const filler = "x".repeat(64 * 1024 - 5);
    const content = [filler, KEY, filler, TOKEN, filler].join("");
    const dir = runDir({ "service.log": content });
    const redactions = await redactRunDirectory(dir, [KEY, TOKEN]);
    expect(redactions).toEqual([{ file: "service.log", count: 2 }]);
    const after = readFileSync(path.join(dir, "service.log"), "utf8");
    expect(after).not.toContain(KEY);
    expect(after).not.toContain(TOKEN);
    expect(after).toBe([filler, "[redacted …cdef]", filler, "[redacted …face]", filler].join(""));
  });

  it("should rewrite a gzipped file still gzipped, and leave files without secrets as they were", async () => {
    const dir = runDir({
      "sink.jsonl.gz": gzipSync(`{"secret":"${WEBHOOK_SECRET}"}\n`),
      "clean.json": '{"nothing":"here"}',
    });
    const before = statSync(path.join(dir, "clean.json")).mtimeMs;
    const redactions = await redactRunDirectory(dir, [KEY]);
    expect(redactions).toEqual([{ file: "sink.jsonl.gz", count: 1 }]);
    expect(gunzipSync(readFileSync(path.join(dir, "sink.jsonl.gz"))).toString()).toBe(
      '{"secret":"[redacted …LaSw]"}\n',
    );
    expect(statSync(path.join(dir, "clean.json")).mtimeMs).toBe(before);
  });

  it("should look into subdirectories and leave k6's raw samples alone", async () => {
    const dir = runDir({ "k6-raw-smoke.json.gz": gzipSync(KEY) });
    await mkdir(path.join(dir, "compose"));
    writeFileSync(path.join(dir, "compose", "api.log"), `GET with ${KEY}`);
    const redactions = await redactRunDirectory(dir, [KEY]);
    expect(redactions).toEqual([{ file: path.join("compose", "api.log"), count: 1 }]);
    expect(gunzipSync(readFileSync(path.join(dir, "k6-raw-smoke.json.gz"))).toString()).toBe(KEY);
  });
});
