/**
 * The chaos file (--chaos, YAML or JSON): any document or text gives a plan Toxiproxy can run (named faults on known
 * links, finite times, shares from 0 to 1, no two toxics of one type on a stream at once), or exit 2 with one line.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  chaosPlanFrom,
  LINKS,
  parseChaosFile,
  STREAMS,
  type ChaosPlan,
} from "../../../lib/harness/chaos/chaos-file.ts";
import { FAULT_KINDS } from "../../../lib/harness/chaos/faults/fault-kinds.ts";
import { HarnessError } from "../../../lib/harness/exit-codes.ts";
import { nested, settingsValue, yamlFileText } from "./input-arbitraries.ts";
import { runs, timeoutFor } from "./property-runs.ts";
import { expectUsageRefusal, outcomeOf } from "./refusals.ts";

/** A chaos file using every field. */
export const VALID_CHAOS = {
  recovery: { within: "10s", maxErrorRate: 0.01, window: "2s" },
  faults: [
    {
      name: "api-slow",
      link: "api",
      start: "5s",
      duration: "10s",
      fault: { type: "latency", attributes: { latency: 150, jitter: 50 }, toxicity: 0.5, stream: "downstream" },
      recoverWithin: "20s",
    },
    { link: "webhooks", start: 1, duration: 4, fault: { type: "reset_peer", attributes: { timeout: 0 } } },
  ],
};

/** A plan the chaos schedule can run. */
export function expectRunnablePlan(plan: ChaosPlan): void {
  const finite = (n: number, what: string) => {
    expect(Number.isFinite(n) && n >= 0, `${what} ${String(n)}`).toBe(true);
  };
  finite(plan.recovery.withinSeconds, "recovery.within");
  finite(plan.recovery.windowSeconds, "recovery.window");
  expect(plan.recovery.windowSeconds).toBeGreaterThan(0);
  expect(plan.recovery.maxErrorRate >= 0 && plan.recovery.maxErrorRate <= 1).toBe(true);
  expect(plan.faults.length).toBeGreaterThan(0);
  expect(new Set(plan.faults.map((f) => f.name)).size).toBe(plan.faults.length);
  for (const f of plan.faults) {
    expect(f.name).toMatch(/^[A-Za-z0-9][\w.-]*$/);
    expect(LINKS).toContain(f.link);
    expect(STREAMS).toContain(f.toxic.stream);
    expect(Object.hasOwn(FAULT_KINDS, f.toxic.type)).toBe(true);
    finite(f.startSeconds, `${f.name} start`);
    finite(f.durationSeconds, `${f.name} duration`);
    finite(f.recoverWithinSeconds, `${f.name} recoverWithin`);
    expect(f.durationSeconds).toBeGreaterThan(0);
    expect(f.toxic.toxicity >= 0 && f.toxic.toxicity <= 1).toBe(true);
    const kind = FAULT_KINDS[f.toxic.type];
    expect(Object.keys(f.toxic.attributes).sort()).toEqual(Object.keys(kind?.attributes ?? {}).sort());
    for (const [name, value] of Object.entries(f.toxic.attributes)) finite(value, `${f.name} ${name}`);
  }
}

/** Failures found and fixed, as their shrunk documents. */
const FIXED_DOCUMENTS: [unknown][] = [
  // A type every object has a property of was taken for a fault kind: TypeError reading its attributes.
  [{ faults: [{ link: "api", duration: "1s", fault: { type: "constructor" } }] }],
  [{ faults: [{ link: "api", duration: "1s", fault: { type: "toString", attributes: { a: 1 } } }] }],
  // An attribute every object has was accepted and dropped.
  [{ faults: [{ link: "api", duration: "1s", fault: { type: "latency", attributes: { latency: 1, valueOf: 2 } } }] }],
  // A duration of 400 digits is Infinity seconds.
  [
    {
      faults: [
        { link: "api", duration: `${"9".repeat(400)}s`, fault: { type: "latency", attributes: { latency: 1 } } },
      ],
    },
  ],
  // A long run of digits took parseDuration seconds (its unanchored search tried every start): 33 s for 100,000.
  [
    {
      faults: [{ link: "api", duration: "9".repeat(100_000), fault: { type: "latency", attributes: { latency: 1 } } }],
    },
  ],
  // A value too deep for JSON.stringify in the message: RangeError.
  [{ faults: [{ link: nested(5000), duration: "1s", fault: { type: "latency", attributes: { latency: 1 } } }] }],
];

export function chaosFileProperties(scale: number): void {
  describe("chaos file", () => {
    it(
      "should turn any chaos document into a runnable plan or refuse it with exit 2",
      () => {
        fc.assert(
          fc.property(settingsValue(VALID_CHAOS), (document) => {
            const outcome = outcomeOf(() => chaosPlanFrom(document, "chaos.yaml"), HarnessError);
            if (outcome.ok) expectRunnablePlan(outcome.value);
            else expectUsageRefusal(outcome.error);
          }),
          runs(200, scale, FIXED_DOCUMENTS),
        );
      },
      timeoutFor(200, scale),
    );

    it(
      "should read any chaos file text into a runnable plan or refuse it with exit 2",
      () => {
        fc.assert(
          fc.property(yamlFileText(VALID_CHAOS), (text) => {
            const outcome = outcomeOf(() => parseChaosFile(text, "chaos.yaml"), HarnessError);
            if (outcome.ok) expectRunnablePlan(outcome.value);
            else expectUsageRefusal(outcome.error);
          }),
          runs(60, scale),
        );
      },
      timeoutFor(60, scale, 200),
    );
  });
}
