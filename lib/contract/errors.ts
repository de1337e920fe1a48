/**
 * Error codes: 429's is the spec's (7.1); the others fill the gaps of spec 7.3 (docs/contract-gaps.md, Wire format and
 * error codes).
 */
export const ERROR_CODES = {
  invalidParams: "invalid_params",
  malformedJson: "malformed_json",
  unauthorized: "GEN-UNAUTHORIZED",
  notFound: "not_found",
  methodNotAllowed: "method_not_allowed",
  invalidAction: "invalid_action",
  gone: "gone",
  pricesMismatch: "prices_mismatch",
  invalidData: "invalid_data",
  tooManyRequests: "GEN-TOO-MANY-REQUESTS",
  internal: "internal_error",
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

const LINE_BREAKS: Readonly<Record<string, string>> = {
  "\r\n": "\\r\\n",
  "\n": "\\n",
  "\r": "\\r",
  "\v": "\\v",
  "\f": "\\f",
  "\u0085": "\\u0085",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * The text with its line breaks written as escapes (\n, \u2028), so a message that quotes what a person wrote (a key,
 * a file's text in a parser's own message) stays the one line a refusal is.
 */
export function oneLine(text: string): string {
  return text.replace(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/g, (lineBreak) => LINE_BREAKS[lineBreak] ?? " ");
}

/**
 * A value a person gave, as a message quotes it: JSON (numbers as JavaScript writes them, so NaN is not "null"), cut
 * short past `max` characters, and never a throw: a value nested deeper than JSON.stringify's stack is named instead.
 */
export function shown(value: unknown, max = 80): string {
  let text: string;
  try {
    // JSON.stringify gives undefined for undefined, a function or a symbol: named by their type instead.
    const json = typeof value === "number" ? String(value) : (JSON.stringify(value) as string | undefined);
    text = json ?? typeof value;
  } catch {
    text = Array.isArray(value) ? "a list nested too deep to show" : "a value that cannot be shown";
  }
  return oneLine(text.length > max ? `${text.slice(0, max)}…` : text);
}

/**
 * A value a person gave (a profile name, an SLO file's key, capacity rates) is wrong. Its message is the whole
 * "Failed to X: why. Please Y." sentence, one line (oneLine), so whoever catches it shows it as it is: told apart by
 * its type, never by its text. Runtime-neutral: thrown in k6 and in Node alike.
 */
export class SettingsError extends Error {
  override name = "SettingsError";

  constructor(message: string) {
    super(oneLine(message));
  }
}
