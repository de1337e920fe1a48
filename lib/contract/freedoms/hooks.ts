/**
 * The contract's freedoms of the test hooks (docs/test-hooks.openapi.yaml). Every other question a team implementing
 * the hooks had to guess (issue 27) is answered as a rule in that document's own text: what `remaining` means against
 * held seats and closed dates, caps, an unknown timeslot, the 401 code, null values, upper bounds, which catalogue
 * changes emit. What is left open is below: choices no scenario and no `harness hooks check` row depends on.
 */
import type { ContractFreedom } from "./types.ts";

export const HOOKS_FREEDOMS: readonly ContractFreedom[] = [
  {
    id: "hooks-unknown-body-keys",
    area: "hooks",
    question: "What a control API body key the hooks document does not name does.",
    choices: [
      "ignored: the rest of the body applies",
      "the body is refused with 400 invalid_params and nothing changes",
    ],
    source: "test-hooks.openapi.yaml (info: rules every hook follows); contract-gaps.md Control API (test hooks)",
    variation: { name: "hooks-unknown-keys-refused" },
    decision:
      "A freedom: the harness sends only the keys the document names, so either answer serves it, and both are what common validators do by default (open objects; strict ones). `harness hooks check` judges only that an unknown key is one or the other: never half applied, never a 500.",
  },
  {
    id: "hooks-reset-time-scale",
    area: "hooks",
    question: "Whether POST /__control/reset puts the time scale back to the service's start setting.",
    choices: [
      "back to the start setting (with the clock back at real time)",
      "kept as last set through POST /__control/clock (the clock still back at real time)",
    ],
    source: "test-hooks.openapi.yaml reset",
    variation: { name: "hooks-reset-keeps-time-scale" },
    decision:
      "A freedom: the harness never relies on a reset for the scale (`harness hooks check`, the only client that changes it, sets it back itself), and a service whose scale is a deployment setting may rightly keep it. The clock's reading is a rule: a reset undoes every advance (judged).",
  },
  {
    id: "hooks-partner-unknown-key",
    area: "hooks",
    question: "What PUT /__control/partners/{apiKey} does with a key the service does not have.",
    choices: ["creates the key with the settings (201)", "refuses with 404 not_found and creates nothing"],
    source: "test-hooks.openapi.yaml partnerSet",
    variation: { name: "hooks-partner-unknown-key-refused" },
    decision:
      "A freedom: a service whose keys come from its own key store cannot create one from a test hook, and the harness only sets keys it was given (--keys), which the service has. This is also why partnerSet lists a 404 now: it can happen, in a service that does not create keys.",
  },
  {
    id: "hooks-optional-answer-fields",
    area: "hooks",
    question:
      "Whether the answers of the required hooks carry the fields the hooks document marks optional (x-atd-level: reference): supply, held and open of the inventory, offsetSeconds and pendingTasks of the clock, the counts of health and reset.",
    choices: ["given, meaning what their descriptions say", "left out"],
    source: "test-hooks.openapi.yaml inventory, clock, health, reset",
    variation: { name: "hooks-optional-fields-left-out" },
    decision:
      "A freedom: they mirror what the reference service keeps, and another service may not keep them that way. The document now says what each means where given; the harness reads only supply and held, where given, to put a churned slot's supplier seats back, and falls back to remaining without them.",
  },
];
