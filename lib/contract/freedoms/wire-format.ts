/** The contract's freedoms of the wire format: keys, values and their forms. */
import type { ContractFreedom } from "./types.ts";

export const WIRE_FORMAT_FREEDOMS: readonly ContractFreedom[] = [
  {
    id: "wire-format-extra-keys",
    area: "wire-format",
    question:
      "Whether an answer carries keys the contract does not name, where its key set is open, and what they hold (null, empty, nested values).",
    choices: [
      "only the keys the contract names (and the reference's own keys of the booking detail, restrictions and config)",
      "more keys, holding anything JSON can (null, empty strings, arrays and objects, nested objects): in the booking detail, the origin restrictions, the config, and in the objects nested in an answer (links, timeslots, options, photos, categories, locations)",
    ],
    source:
      "interface-spec.md 2.8 and 2.12 (the booking detail's key set, the restrictions' fields, the config's structure and the nested values' structure: not shown); contract-gaps.md Wire format and error codes",
    variation: { name: "wire-extra-keys" },
    decision:
      "Open key sets are the booking detail (spec 2.8 lists what it contains, not all it contains; 2.12), the origin restrictions and the config (2.12), and the objects nested in any answer (2.12: their internal structure is not shown; docs/partner-api.openapi.yaml requires keys of some and closes none but the alternatives object, whose keys spec 2.11 lists). The key sets spec 2.1-2.7 and 2.9 list are exact: a key beyond them fails its key-set rule. A key nobody names is judged only by the rules every key has (camelCase, and a `...Uuid` key holds a UUID or null).",
  },
  {
    id: "wire-format-nullable-identifiers",
    area: "wire-format",
    question:
      "Whether a `...Uuid` key beyond the identifiers the spec names may be null when there is nothing to identify (a booking without a timeslot: `timeslotUuid: null`).",
    choices: ["a UUID, or the key left out", "null"],
    source: "interface-spec.md 2 (Identifiers (`uuid`) are UUID strings) and 2.12; contract-gaps.md Formats",
    variation: { name: "wire-extra-keys" },
    decision:
      "A null is no identifier, so it is not a malformed one: `uuid` (every resource's identifier) and `typeUuid` (2.1, 2.2) are never null, any other `...Uuid` key may be null; a `...Uuid` value that is not null is a UUID.",
  },
  {
    id: "wire-format-timestamp-resolution",
    area: "wire-format",
    question:
      "To what resolution a timestamp is written: milliseconds, whole seconds, minutes, or any fraction of a second.",
    choices: [
      "milliseconds (2025-03-01T09:30:00.123Z)",
      "whole seconds (2025-03-01T09:30:00Z)",
      "minutes (2025-03-01T09:30Z)",
      "any number of fraction digits (2025-03-01T09:30:00.123456Z)",
    ],
    source: "decisions.md Wire format (timestamps ISO 8601 UTC); contract-gaps.md Formats; ISO 8601-1 5.3.1.4",
    variation: { name: "wire-timestamps-whole-seconds" },
    decision:
      "ISO 8601 lets a time be written to reduced accuracy or with a decimal fraction of any length; the contract fixes neither, so all of them pass. The time must exist: a real calendar date, an hour to 23, a second to 60.",
  },
  {
    id: "wire-format-timestamp-utc-designator",
    area: "wire-format",
    question: "How a timestamp says it is in UTC: the designator Z or the zero offset +00:00.",
    choices: ["Z (2025-03-01T09:30:00Z)", "+00:00 (2025-03-01T09:30:00+00:00)"],
    source: "decisions.md Wire format (timestamps ISO 8601 UTC); contract-gaps.md Formats; RFC 3339 4.2",
    variation: { name: "wire-timestamps-plus-zero-offset" },
    decision:
      "Both write the same instant in UTC in ISO 8601's extended format, so both pass. Any other offset is not UTC and fails, and so does -00:00 (no ISO 8601 offset; RFC 3339 4.3 makes it mean an unknown local offset), +0000 (the basic format's offset in an extended-format time) and lower-case t or z.",
  },
  {
    id: "wire-format-money-decimals",
    area: "wire-format",
    question: "How many decimals a money string has.",
    choices: ["two (35.00)", "as few as the amount needs (35, 12.5)", "more (35.0000)"],
    source: "decisions.md Wire format (money as decimal strings with currency); contract-gaps.md Formats",
    variation: { name: "wire-money-shortest" },
    decision:
      "Money is a decimal string, ^-?\\d+(\\.\\d+)?$: digits, and a point with digits after it if there are any decimals, in any number. A JSON number, an exponent, a comma or a currency sign in the string fails.",
  },
  {
    id: "wire-format-uuid-version",
    area: "wire-format",
    question: "Which UUID version identifiers are: random (4), time-ordered (7), or another of RFC 9562.",
    choices: ["version 4 (random)", "version 7 (Unix time, then random)", "any other version of RFC 9562"],
    source: "interface-spec.md 2 (Identifiers (`uuid`) are UUID strings); RFC 9562 4 and 5",
    variation: { name: "wire-uuids-v7" },
    decision:
      "The spec asks for UUID strings, not a version: the 8-4-4-4-12 hexadecimal form of RFC 9562 4 passes whatever its version and variant nibbles say.",
  },
  {
    id: "wire-format-uuid-case",
    area: "wire-format",
    question: "Whether the hexadecimal digits of a UUID are written in lower or upper case.",
    choices: ["lower case (RFC 9562 4: output as lower case)", "upper case"],
    source: "interface-spec.md 2 (Identifiers (`uuid`) are UUID strings); RFC 9562 4",
    variation: {
      none: "the reference writes lower case, as RFC 9562 4 says; upper case passes every judge of a UUID's form (lib/k6/answer-rules.ts, the documents' pattern), and the harness only ever sends an identifier back as the service wrote it. A variation would have to read identifiers case-insensitively in every path, body, hook and webhook too: its own code, not a choice of the wire",
    },
    decision:
      "RFC 9562 4 writes UUIDs in lower case and reads them in either (no MUST): a reader, as the harness is, accepts both. An identifier is compared as the service wrote it, so a service writes one identifier in one case everywhere.",
  },
  {
    id: "wire-format-optional-keys",
    area: "wire-format",
    question:
      "Whether a key that has no value is left out or written null, where the contract does not require the key.",
    choices: ["written null (expiresAt: null)", "left out"],
    source:
      "interface-spec.md 2.8 and 2.12 (the booking detail's key set beyond the keys listed: not shown); contract-gaps.md Wire format and error codes",
    variation: { name: "wire-optional-keys-omitted" },
    decision:
      "Only where a key set is open: a key of the booking detail beyond the ones spec 2.8 names (`uuid`, `status`, `adults`, `options`, `partner_reference`, which are always there; `partner_reference` is null when the booking has none). A key an exact key set lists (2.1-2.7, 2.9) is always there, null where it has no value (a voucher's `downloadedAt`).",
  },
  {
    id: "wire-format-json-key-order",
    area: "wire-format",
    question: "In which order an object's keys are written.",
    choices: ["the order of the spec's lists", "any order"],
    source: "interface-spec.md 2 (keys listed, no order stated); RFC 8259 4 (an object is an unordered collection)",
    variation: { name: "wire-json-keys-reversed" },
  },
  {
    id: "wire-format-translated-text",
    area: "wire-format",
    question:
      "What translated content looks like: the text under a language's code in a `*Translated` value, in whatever script that language is written.",
    choices: [
      'a marked rendering of the English text (e.g. "[zh] Hong Kong National Museum Ticket")',
      "any text, Latin script included, with nothing in it that names its language",
    ],
    source:
      "interface-spec.md 4.0 (`language`: language of the returned content); partner-api.openapi.yaml Translated (text by language code)",
    variation: { name: "translations-unmarked" },
    decision:
      "A freedom: whether a text is in a language cannot be judged by its characters (many languages GET /v2/config may list are written in Latin script). The rules judge that the content follows `language`: it changes with the language asked for, and an unknown code is refused (4.0-language-honoured, 4.1-products-language, 4.0-unknown-values-refused; contract-gaps.md Query parameters).",
  },
];
