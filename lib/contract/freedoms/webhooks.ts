/** The contract's freedoms of webhooks: order, concurrency, retries, which operation emits, ids and time bases. */
import type { ContractFreedom } from "./types.ts";

export const WEBHOOKS_FREEDOMS: readonly ContractFreedom[] = [
  {
    id: "webhooks-delivery-order",
    area: "webhooks",
    question:
      "Whether messages about one resource reach a partner in the order their events happened, and whether deliveries go out one at a time or concurrently.",
    choices: [
      "the first attempts of messages about one resource go out one after the other, so they arrive in order",
      "deliveries go out concurrently and may arrive in any order; the payload's timestamp says when each event happened",
    ],
    source:
      "interface-spec.md 6 (nothing is said of order); contract-gaps.md Webhooks (Standard Webhooks, which promises no order)",
    variation: { name: "webhooks-unordered-concurrent" },
    decision:
      "A freedom: no sentence of the spec, of contract-gaps.md or of Standard Webhooks promises an order, and a retry arrives after later messages by design. The harness reports messages that arrived out of their event order as a finding, never as a failed check.",
  },
  {
    id: "webhooks-retry-clock",
    area: "webhooks",
    question:
      "Which clock the retry schedule (1, 2, 4 ... 64 minutes, then daily) runs on: real timers, or the service clock that the clock hook advances.",
    choices: [
      "real timers, each delay divided by the time scale; a clock advance brings no retry forward",
      "the service clock: the delays pass as the clock runs (time-scaled), and a clock advance runs every retry that fell due at once",
    ],
    source:
      "contract-gaps.md Webhooks (a time scale divides the whole schedule); test-hooks.openapi.yaml clockChange (an advance runs the tasks that fell due)",
    variation: { name: "webhooks-retries-on-service-clock" },
    decision:
      "A freedom: the documents say a time scale divides the schedule and an advance runs due tasks, and exempt no retry. The harness judges each retry against the schedule on either clock, taking into account the clock advances it made itself (the webhooks scenario, the sink's final move past five days, the invariants check): a retry is on schedule when it is on the real-time schedule or on the service clock's.",
  },
  {
    id: "webhooks-event-on-create",
    area: "webhooks",
    question: "Whether creating a booking emits booking_status_updated with the status reserved.",
    choices: [
      "the create emits booking_status_updated (reserved)",
      "the create emits nothing; the first status event is the first change after it",
    ],
    source:
      'interface-spec.md 6 ("a booking\'s status is updated"; which operation emits which event: not shown); contract-gaps.md Booking states',
    variation: { name: "webhooks-no-event-on-create" },
    decision:
      "A freedom: the spec's trigger is a status update and a new booking has no status before it, while contract-gaps.md says every status change emits. The harness expects the reserved event as optional: it pairs with a message when one arrives (and its latency counts) but is neither lost when absent nor unexpected when present.",
  },
  {
    id: "webhooks-shared-id",
    area: "webhooks",
    question: "Whether the messages of one event to several partners carry one webhook-id or one each.",
    choices: [
      "one webhook-id per message (per event and partner)",
      "one webhook-id per event, the same for every partner it goes to",
    ],
    source:
      "contract-gaps.md Webhooks (webhook-id the same on every attempt of a message; Standard Webhooks ties it to the event); test-hooks.openapi.yaml events",
    variation: { name: "webhooks-shared-id" },
    decision:
      "A freedom: the id is an idempotency key per endpoint, so partners that share it lose nothing. The harness tells messages apart per endpoint and webhook-id.",
  },
  {
    id: "webhooks-payload-time-base",
    area: "webhooks",
    question:
      "Which clock the payload's timestamp (when the event happened) is on: the service clock that the clock hook moves, or real time.",
    choices: [
      "the service clock (the clock of the booking's own timestamps)",
      "real time (the clock of the webhook-timestamp header)",
    ],
    source: "contract-gaps.md Webhooks (the body's timestamp); test-hooks.openapi.yaml clock and events",
    variation: { name: "webhooks-payload-real-time" },
    decision:
      "A freedom: the payload says when the event happened, and a service whose clock was advanced may say it on either clock. The webhook-timestamp header is real time (a rule: the partner checks it against its own clock), and so are the ledger's emittedAt and attempts' times.",
  },
  {
    id: "webhooks-unchanged-availability-event",
    area: "webhooks",
    question:
      "Whether a catalogue hook call that sets `available`, a title or a description to the value the product or product type already has emits that part's event.",
    choices: ["no event: nothing changed", "the event of the part given, changed or not"],
    source:
      'test-hooks.openapi.yaml productChange, productTypeChange ("each change emits its event"); interface-spec.md 6 ("becomes available", "is no longer available")',
    variation: { name: "webhooks-event-on-unchanged-availability" },
    decision:
      "A freedom: whether a call that changes nothing is a change is not said. The harness expects the event of such a call as optional (the churn driver's undo of a withdrawal that another undo already restored), and `harness hooks check` judges no such call. A call that changes content and availability emits both events (a rule). The variation emits the availability event of a no-op; the reference service emits nothing for an unchanged title either way.",
  },
];
