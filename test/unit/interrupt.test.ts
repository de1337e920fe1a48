import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import {
  Interrupted,
  interruptionOf,
  isInterruption,
  onLastResort,
  ownChild,
  runLastResorts,
  unlessInterrupted,
} from "../../lib/harness/interrupt.ts";

/** The pieces of a run's interruption (the handlers themselves are proven on the command: test/k6/harness-signals). */
describe("interrupt", () => {
  it("should tell which signal interrupted a run, SIGINT for a plain abort, nothing before", () => {
    const byTerm = new AbortController();
    expect(interruptionOf(byTerm.signal)).toBeUndefined();
    byTerm.abort(new Interrupted("SIGTERM"));
    expect(interruptionOf(byTerm.signal)).toBe("SIGTERM");
    const plain = new AbortController();
    plain.abort();
    expect(interruptionOf(plain.signal)).toBe("SIGINT");
    expect(isInterruption(plain.signal.reason, plain.signal)).toBe(true);
    expect(isInterruption(new Error("boom"), plain.signal)).toBe(false);
  });

  it("should give up waiting for a promise once the signal comes, and pass its outcome through before", async () => {
    const controller = new AbortController();
    await expect(unlessInterrupted(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(unlessInterrupted(Promise.reject(new Error("own")), controller.signal)).rejects.toThrow("own");
    const never = new Promise<never>(() => undefined);
    const waiting = unlessInterrupted(never, controller.signal);
    controller.abort(new Interrupted("SIGINT"));
    await expect(waiting).rejects.toBeInstanceOf(Interrupted);
    await expect(unlessInterrupted(Promise.resolve(1), controller.signal)).rejects.toBeInstanceOf(Interrupted);
  });

  it("should kill an owned child that still runs when the last resorts run, and only once", async () => {
    const child = ownChild(spawn("sleep", ["30"], { stdio: "ignore" }));
    let resorts = 0;
    onLastResort(() => {
      resorts += 1;
    });
    const removed = onLastResort(() => {
      resorts += 100;
    });
    removed();
    const exited = once(child, "exit");
    runLastResorts();
    runLastResorts();
    expect((await exited)[1]).toBe("SIGKILL");
    expect(resorts).toBe(1);
  });
});
