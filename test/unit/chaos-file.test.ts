import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RECOVERY, chaosPlanFrom, parseChaosFile, readChaosFile } from "../../lib/harness/chaos/chaos-file.ts";
import { FAULT_KINDS } from "../../lib/harness/chaos/faults/fault-kinds.ts";
import { EXIT, HarnessError } from "../../lib/harness/exit-codes.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";

const fault = (overrides: Record<string, unknown> = {}) => ({
  link: "api",
  start: "5s",
  duration: "4s",
  fault: { type: "reset_peer" },
  ...overrides,
});

function problemOf(document: unknown): HarnessError {
  try {
    chaosPlanFrom(document, "bad.yaml");
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error("the document was accepted");
}

describe("chaos file", () => {
  it("should read YAML with durations, defaults and the recovery rule", () => {
    const plan = parseChaosFile(
      [
        "recovery: { within: 8s, maxErrorRate: 0.05 }",
        "faults:",
        "  - name: slow",
        "    link: api",
        "    start: 1m",
        "    duration: 500ms",
        "    fault: { type: latency, attributes: { latency: 200 }, stream: upstream, toxicity: 0.5 }",
        "  - link: webhooks",
        "    duration: 3",
        "    recoverWithin: 20s",
        "    fault: { type: timeout, attributes: { timeout: 0 } }",
      ].join("\n"),
      "plan.yaml",
    );
    expect(plan.recovery).toEqual({
      withinSeconds: 8,
      maxErrorRate: 0.05,
      windowSeconds: DEFAULT_RECOVERY.windowSeconds,
    });
    expect(plan.faults[0]).toEqual({
      name: "slow",
      link: "api",
      startSeconds: 60,
      durationSeconds: 0.5,
      toxic: { type: "latency", attributes: { latency: 200, jitter: 0 }, toxicity: 0.5, stream: "upstream" },
      recoverWithinSeconds: 8,
    });
    expect(plan.faults[1]).toMatchObject({ name: "webhooks-timeout-2", startSeconds: 0, durationSeconds: 3 });
    expect(plan.faults[1]?.recoverWithinSeconds).toBe(20);
  });

  it("should read JSON too", () => {
    const plan = parseChaosFile(JSON.stringify({ faults: [fault()] }), "plan.json");
    expect(plan.faults[0]?.toxic).toEqual({
      type: "reset_peer",
      attributes: { timeout: 0 },
      toxicity: 1,
      stream: "downstream",
    });
    expect(plan.recovery).toEqual(DEFAULT_RECOVERY);
  });

  it("should validate every example file under chaos/", async () => {
    const dir = path.join(REPO_ROOT, "chaos");
    const files = readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) {
      const plan = await readChaosFile(path.join(dir, file));
      expect(plan.faults.length, file).toBeGreaterThan(0);
    }
  });

  it("should know the five fault kinds with Toxiproxy's attribute names", () => {
    expect(Object.fromEntries(Object.values(FAULT_KINDS).map((k) => [k.type, Object.keys(k.attributes)]))).toEqual({
      latency: ["latency", "jitter"],
      bandwidth: ["rate"],
      timeout: ["timeout"],
      reset_peer: ["timeout"],
      slow_close: ["delay"],
    });
  });

  it.each([
    [{ faults: [] }, /schedules no faults\. Please add a faults: list/],
    [{ faults: [fault({ link: "db" })] }, /faults\[0\]\.link "db" is not a link\. Please use api .* or webhooks/],
    [
      { faults: [fault({ fault: { type: "packet_loss" } })] },
      /"packet_loss" is not a fault kind\. Please use one of latency, bandwidth, timeout, reset_peer, slow_close/,
    ],
    [{ faults: [fault({ fault: { type: "latency" } })] }, /latency needs the attribute latency/],
    [{ faults: [fault({ fault: { type: "latency", attributes: { latency: -1 } } })] }, /latency must be >= 0, not -1/],
    [{ faults: [fault({ fault: { type: "latency", attributes: { latency: 1.5 } } })] }, /must be a whole number/],
    [
      { faults: [fault({ fault: { type: "bandwidth", attributes: { rate: 10, burst: 1 } } })] },
      /bandwidth has no attribute burst/,
    ],
    [
      { faults: [fault({ fault: { type: "timeout", attributes: { timeout: 0 }, stream: "both" } })] },
      /stream "both" is not a stream/,
    ],
    [
      { faults: [fault({ fault: { type: "reset_peer", toxicity: 2 } })] },
      /toxicity is 2\. Please give a share from 0 to 1/,
    ],
    [
      { faults: [fault({ duration: "10" })] },
      /faults\[0\]\.duration is "10", not a duration\. Please write a duration such as 5s/,
    ],
    [{ faults: [fault({ duration: 0 })] }, /duration is 0/],
    [{ faults: [fault({ startAt: "1s" })] }, /faults\[0\] has no field startAt/],
    [{ faults: [fault({ name: "a b" })] }, /name "a b" is not a name/],
    [{ faults: [fault({ name: "x" }), fault({ name: "x", start: "20s" })] }, /two faults are named x/],
    [
      { faults: [fault({ name: "a" }), fault({ name: "b", start: "7s" })] },
      /faults a and b put two reset_peer toxics on the api link's downstream stream at once/,
    ],
    [{ recovery: { within: "soon" }, faults: [fault()] }, /recovery\.within is "soon", not a duration/],
    [{ recovery: { maxErrorRate: 5 }, faults: [fault()] }, /recovery\.maxErrorRate is 5/],
    [{ faults: [fault()], extra: 1 }, /it has no field extra/],
    ["just text", /it is not a mapping/],
  ])("should refuse %j with exit 2 and what to change", (document, message) => {
    const error = problemOf(document);
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toMatch(/^Failed to read the chaos file bad\.yaml: .*\. Please .*\.$/);
    expect(error.message).toMatch(message);
  });

  it("should let faults of one type follow each other on a link, and overlap on different links or streams", () => {
    const plan = chaosPlanFrom(
      {
        faults: [
          fault({ name: "a" }),
          fault({ name: "b", start: "9s" }),
          fault({ name: "c", link: "webhooks" }),
          fault({ name: "d", fault: { type: "reset_peer", stream: "upstream" } }),
        ],
      },
      "ok.yaml",
    );
    expect(plan.faults.map((f) => f.name)).toEqual(["a", "b", "c", "d"]);
  });

  it("should say which file and what syntax error when the YAML is broken", () => {
    expect(() => parseChaosFile("faults: [ {", "broken.yaml")).toThrow(
      /^Failed to read the chaos file broken\.yaml:1:12: .+\. Please fix its YAML or JSON syntax\.$/,
    );
  });

  it("should say so when the file cannot be read", async () => {
    await expect(readChaosFile("/nonexistent/chaos.yaml")).rejects.toThrow(
      /Failed to read the chaos file \/nonexistent\/chaos\.yaml: ENOENT.*Please give a readable YAML or JSON file/,
    );
  });

  it("should read the example files as the docs show them", () => {
    const text = readFileSync(path.join(REPO_ROOT, "chaos", "api-reset-peer.yaml"), "utf8");
    const plan = parseChaosFile(text, "api-reset-peer.yaml");
    expect(plan.faults[0]).toMatchObject({ name: "api-reset", link: "api", startSeconds: 5, durationSeconds: 4 });
    expect(plan.recovery.withinSeconds).toBe(5);
  });
});
