import { describe, expect, it } from "vitest";
import type { EndpointName } from "../../lib/contract/endpoints.ts";
import { Sessionizer, type ClosedSession } from "../../lib/harness/model/sessions.ts";

const request = (timeMs: number, clientHash: string, endpoint: EndpointName = "products") => ({
  timeMs,
  clientHash,
  endpoint,
  status: 200,
});

describe("sessions", () => {
  it("should split a client's requests at a pause longer than the gap, and keep the gaps between calls", () => {
    const closed: ClosedSession[] = [];
    const s = new Sessionizer(30, (c) => closed.push(c));
    for (const t of [0, 1_000, 1_500, 40_000, 41_000]) s.add(request(t, "a"));
    s.finish();
    expect(closed.map((c) => [c.startMs, c.calls.length, c.gapsSeconds])).toEqual([
      [0, 3, [1, 0.5]],
      [40_000, 2, [1]],
    ]);
  });

  it("should keep clients apart when their requests interleave", () => {
    const closed: ClosedSession[] = [];
    const s = new Sessionizer(30, (c) => closed.push(c));
    s.add(request(0, "a", "priceList"));
    s.add(request(100, "b", "bookings"));
    s.add(request(200, "a", "priceListDate"));
    s.add(request(300, "b", "booking"));
    s.finish();
    expect(closed).toHaveLength(2);
    expect(closed.every((c) => c.calls.length === 2)).toBe(true);
  });

  it("should close idle sessions as the stream goes, so memory holds only the open ones", () => {
    let closedBeforeEnd = 0;
    let finished = false;
    const s = new Sessionizer(5, () => {
      if (!finished) closedBeforeEnd++;
    });
    // 10,000 clients, each one call, one every 10 ms: about 500 are within 5 s of the newest at any time.
    for (let i = 0; i < 10_000; i++) s.add(request(i * 10, `k${i}`));
    finished = true;
    s.finish();
    expect(closedBeforeEnd).toBeGreaterThan(9_000);
    expect(s.peakOpen).toBeLessThanOrEqual(1_002);
  });

  it("should count a line slightly out of order as no gap, not a negative one", () => {
    const closed: ClosedSession[] = [];
    const s = new Sessionizer(30, (c) => closed.push(c));
    s.add(request(1_000, "a"));
    s.add(request(990, "a"));
    s.finish();
    expect(closed[0]?.gapsSeconds).toEqual([0]);
  });
});
