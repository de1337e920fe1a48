/** The contract's freedoms of the wire format: keys, values and their forms. */
import type { ContractFreedom } from "./types.ts";

export const WIRE_FORMAT_FREEDOMS: readonly ContractFreedom[] = [
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
