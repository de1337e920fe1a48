/**
 * wrk, the peak-throughput generator of the benchmarks (a C event loop with no per-request output: as close to the
 * service's own ceiling as this host can drive). Shared by bench:service and bench:capacity so both measure a peak
 * the same way.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const WRK = "/usr/bin/wrk";
export const WRK_CONNECTIONS = 64;

export interface WrkResult {
  rps: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
}

function toMs(value: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(value.trim());
  if (m === null) return NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "s" ? n * 1000 : n;
}

/** A wrk Lua script that sends each request with the next of `keys` API keys (the limiter is exercised). */
export function writeKeysScript(dir: string, keys: readonly string[]): string {
  const file = join(dir, "keys.lua");
  writeFileSync(
    file,
    `local keys = { ${keys.map((k) => JSON.stringify(k)).join(", ")} }
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", nil, { ["X-Authorization"] = keys[(i % #keys) + 1] })
end
`,
  );
  return file;
}

/** One thread, WRK_CONNECTIONS connections, `seconds` long, closed model: the peak throughput of `url`. */
export function wrk(url: string, script: string, seconds: number): WrkResult {
  const out = spawnSync(WRK, ["-t1", `-c${WRK_CONNECTIONS}`, `-d${seconds}s`, "--latency", "-s", script, url], {
    encoding: "utf8",
    timeout: (seconds + 30) * 1000,
  });
  if (out.status !== 0) {
    throw new Error(
      `Failed to run wrk on ${url}: it exited ${String(out.status ?? out.signal ?? out.error?.message)}: ${out.stderr.trim()}. Please run \`${WRK} -t1 -c${String(WRK_CONNECTIONS)} -d${String(seconds)}s ${url}\` by hand to see why.`,
    );
  }
  const text = out.stdout;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? "NaN");
  // A figure divided by NaN or 0 would print as a result: no answered request is a failed measurement.
  if (!(rps > 0)) {
    throw new Error(
      `Failed to measure a peak with wrk on ${url}: it reported no requests per second:\n${text.trim()}\nPlease check that the service answers there.`,
    );
  }
  const p50 = toMs(/^\s+50%\s+(\S+)/m.exec(text)?.[1] ?? "");
  const p99 = toMs(/^\s+99%\s+(\S+)/m.exec(text)?.[1] ?? "");
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? "0");
  return { rps: Math.round(rps), p50ms: p50, p99ms: p99, non2xx };
}
