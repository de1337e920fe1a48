import { describe, expect, it } from "vitest";
import { attemptsByBody, dedupe } from "../../lib/harness/webhooks/dedupe.ts";
import { T0, delivery } from "./webhook-fixtures.ts";

describe("dedupe", () => {
  it("should make one message of the attempts of one webhook-id, arriving with its first attempt", () => {
    const result = dedupe([
      delivery({ arrivedAt: T0 + 600, status: 200 }),
      delivery({ arrivedAt: T0 + 10, answeredAt: T0 + 11, status: 500 }),
    ]);
    expect(result.messages).toHaveLength(1);
    expect(result.messages[0]?.first.arrivedAt).toBe(T0 + 10);
    expect(result.messages[0]?.attempts).toHaveLength(2);
    expect(result.duplicates).toEqual([]);
  });

  it("should count an id delivered again after the sink answered it 2xx as a duplicate", () => {
    const again = delivery({ arrivedAt: T0 + 60 });
    const result = dedupe([delivery({ arrivedAt: T0 + 10, answeredAt: T0 + 11 }), again]);
    expect(result.duplicates).toEqual([again]);
  });

  it("should keep the same id on different endpoints apart", () => {
    const result = dedupe([delivery({ endpoint: 0 }), delivery({ endpoint: 1, arrivedAt: T0 + 20 })]);
    expect(result.messages).toHaveLength(2);
    expect(result.duplicates).toEqual([]);
  });

  it("should fold a re-sent body under a new id into the first message", () => {
    const result = dedupe([
      delivery({ webhookId: "a", arrivedAt: T0 + 10, answeredAt: T0 + 11, status: 500 }),
      delivery({ webhookId: "a_2", arrivedAt: T0 + 600 }),
    ]);
    expect(result.messages).toHaveLength(1);
    expect(result.messages[0]?.attempts.map((a) => a.webhookId)).toEqual(["a", "a_2"]);
  });

  it("should group attempts by endpoint and body in arrival order", () => {
    const groups = attemptsByBody([
      delivery({ webhookId: "a_2", arrivedAt: T0 + 600 }),
      delivery({ webhookId: "a", arrivedAt: T0 + 10 }),
      delivery({ webhookId: "b", resource: "b2", arrivedAt: T0 + 20 }),
    ]);
    expect(groups.map((g) => g.map((d) => d.webhookId))).toEqual([["a", "a_2"], ["b"]]);
  });
});
