import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runK6Segments } from "../../lib/harness/segments/run-segments.ts";

/** A stand-in for k6 that records its segment flags and keys and leaves a summary, a log and raw samples. */
function fakeK6(dir: string): string {
  const file = path.join(dir, "k6");
  writeFileSync(
    file,
    `#!/bin/sh
seg=""; for a in "$@"; do case "$a" in --execution-segment=*) seg="\${a#--execution-segment=}";; --execution-segment-sequence=*) seq="\${a#--execution-segment-sequence=}";; --log-output=file=*) log="\${a#--log-output=file=}";; --out=json=*) raw="\${a#--out=json=}";; esac; done
echo "$seg|$seq|$ATD_API_KEYS" >> "${dir}/calls.txt"
echo '{"level":"info","msg":"runner '"$seg"'"}' > "$log"
printf '{"metric":"iterations","type":"Point","data":{"time":"2024-01-01T00:00:00Z","value":1,"tags":{}}}\\n' | gzip > "$raw"
echo '{"root_group":{"checks":[{"name":"ok","passes":1,"fails":0}]},"metrics":{"iterations":{"type":"counter","thresholds":{"count>=3":{"ok":false}}}}}' > "$ATD_SUMMARY_PATH"
`,
  );
  chmodSync(file, 0o755);
  return file;
}

describe("runK6Segments", () => {
  it("should start one runner per segment with disjoint keys and merge what they leave", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-segrun-"));
    const keys = Array.from({ length: 7 }, (_, i) => `key-${String(i)}`);
    const result = await runK6Segments(
      {
        k6: fakeK6(dir),
        script: "script.js",
        settings: { baseUrl: "http://127.0.0.1:1", apiKeys: keys, summaryPath: path.join(dir, "k6-summary-x.json") },
        logFile: path.join(dir, "k6-x.log"),
        rawFile: path.join(dir, "k6-raw-x.json.gz"),
        progress: { file: path.join(dir, "k6-x.out") },
        timeoutMs: 20_000,
        signal: new AbortController().signal,
      },
      3,
    );
    expect(result.exitCode).toBe(0);
    const calls = readFileSync(path.join(dir, "calls.txt"), "utf8").trim().split("\n").sort();
    expect(calls.map((c) => c.split("|").slice(0, 2).join("|"))).toEqual([
      "0:1/3|0,1/3,2/3,1",
      "1/3:2/3|0,1/3,2/3,1",
      "2/3:1|0,1/3,2/3,1",
    ]);
    const perRunner = calls.map((c) => (c.split("|")[2] ?? "").split(","));
    expect(perRunner.flat().sort()).toEqual([...keys].sort());
    expect(new Set(perRunner.flat()).size).toBe(keys.length);
    // Each runner saw one iteration; merged, the count threshold (>= 3) that failed per runner passes.
    const merged = JSON.parse(readFileSync(path.join(dir, "k6-summary-x.json"), "utf8")) as {
      metrics: { iterations: { values: { count: number }; thresholds: Record<string, { ok: boolean }> } };
      root_group: { checks: { passes: number }[] };
    };
    expect(merged.metrics.iterations.values.count).toBe(3);
    expect(merged.metrics.iterations.thresholds["count>=3"]?.ok).toBe(true);
    expect(merged.root_group.checks[0]?.passes).toBe(3);
    expect(readFileSync(path.join(dir, "k6-x.log"), "utf8").match(/runner/g)).toHaveLength(3);
  });
});
