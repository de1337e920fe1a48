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

/**
 * A value a person gave (a profile name, an SLO file's key, capacity rates) is wrong. Its message is the whole
 * "Failed to X: why. Please Y." sentence, so whoever catches it shows it as it is: told apart by its type, never by
 * its text. Runtime-neutral: thrown in k6 and in Node alike.
 */
export class SettingsError extends Error {
  override name = "SettingsError";
}
