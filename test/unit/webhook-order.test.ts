import { describe, expect, it } from "vitest";
import { dedupe } from "../../lib/harness/webhooks/dedupe.ts";
import { outOfOrder } from "../../lib/harness/webhooks/order.ts";
import { T0, delivery } from "./webhook-fixtures.ts";

const msg = (id: string, arrivedAt: number, eventTime: number, resource = "b1", endpoint = 0) =>
  delivery({ webhookId: id, arrivedAt, eventTime, resource, endpoint, body: id });

describe("outOfOrder", () => {
  it("should accept messages about one resource that arrive in event order", () => {
    expect(outOfOrder(dedupe([msg("a", T0 + 1, T0), msg("b", T0 + 2, T0 + 100)]).messages)).toEqual([]);
  });

  it("should report a message that arrives after a later event about the same resource", () => {
    const found = outOfOrder(dedupe([msg("b", T0 + 1, T0 + 100), msg("a", T0 + 2, T0)]).messages);
    expect(found).toMatchObject([{ webhookId: "a", resource: "b1", eventTime: T0, afterEventTime: T0 + 100 }]);
  });

  it("should not compare different resources or different endpoints", () => {
    const messages = dedupe([
      msg("b", T0 + 1, T0 + 100, "r1"),
      msg("a", T0 + 2, T0, "r2"),
      msg("c", T0 + 3, T0, "r1", 1),
    ]).messages;
    expect(outOfOrder(messages)).toEqual([]);
  });

  it("should not count equal event times or a retry that arrives late", () => {
    const messages = dedupe([
      msg("a", T0 + 1, T0),
      msg("b", T0 + 2, T0),
      msg("c", T0 + 3, T0 + 100),
      { ...msg("a", T0 + 600, T0), status: 200 },
    ]).messages;
    expect(outOfOrder(messages)).toEqual([]);
  });
});
