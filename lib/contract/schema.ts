/**
 * JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) with the TypeScript type of the values it accepts, so a
 * wire type is written once and both the code and the published OpenAPI documents (openapi.ts) read it:
 * - FromSchema: the type of a literal schema (test-hooks.ts writes its schemas as plain literals, so that k6 bundles
 *   which import lib/contract but not the hooks drop them: esbuild cannot drop the results of builder calls);
 * - `s` and `wire`: small builders for schemas made at run time (the documents are built on demand).
 * Runtime-neutral: plain objects only.
 */

/** A JSON Schema object as it appears in an OpenAPI 3.1 document. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * The TypeScript type of the values a literal JSON Schema (`as const`) accepts, for the subset the contract uses:
 * type, enum, const, items, properties with required, additionalProperties, and anyOf of schemas without a type
 * (a nullable value). Keywords that only narrow (pattern, minimum, an anyOf of `required` lists) keep the type.
 */
export type FromSchema<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly type: "string" }
      ? string
      : S extends { readonly type: "integer" | "number" }
        ? number
        : S extends { readonly type: "boolean" }
          ? boolean
          : S extends { readonly type: "null" }
            ? null
            : S extends { readonly type: "array"; readonly items: infer I }
              ? FromSchema<I>[]
              : S extends { readonly type: "object" }
                ? ObjectFromSchema<S>
                : S extends { readonly anyOf: readonly (infer U)[] }
                  ? FromSchema<U>
                  : unknown;

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;
type ObjectFromSchema<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P & RequiredKeys<S>]: FromSchema<P[K]> } & {
        -readonly [K in Exclude<keyof P, RequiredKeys<S>>]?: FromSchema<P[K]>;
      }
    >
  : S extends { readonly additionalProperties: infer A }
    ? Record<string, FromSchema<A>>
    : Record<string, unknown>;

/** A JSON Schema together with the type of the values it accepts (`value` is never set: it only carries the type). */
export interface Schema<T> {
  readonly json: JsonSchema;
  readonly value?: T;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

type Shape = Readonly<Record<string, Schema<unknown>>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type ObjectOf<R extends Shape, O extends Shape> = Simplify<
  { -readonly [K in keyof R]: Infer<R[K]> } & { -readonly [K in keyof O]?: Infer<O[K]> }
>;

function schema<T>(json: JsonSchema): Schema<T> {
  return { json };
}

/** Keywords that only describe (description, format, examples, x- extensions) or narrow (pattern, minimum). */
export type Keywords = Readonly<Record<string, unknown>>;

export const s = {
  string: (keywords: Keywords = {}): Schema<string> => schema({ type: "string", ...keywords }),
  integer: (keywords: Keywords = {}): Schema<number> => schema({ type: "integer", ...keywords }),
  number: (keywords: Keywords = {}): Schema<number> => schema({ type: "number", ...keywords }),
  boolean: (keywords: Keywords = {}): Schema<boolean> => schema({ type: "boolean", ...keywords }),
  /** One of a fixed set of strings. */
  enumOf: <const V extends readonly string[]>(values: V, keywords: Keywords = {}): Schema<V[number]> =>
    schema({ type: "string", enum: [...values], ...keywords }),
  constant: <const V extends string | number>(value: V, keywords: Keywords = {}): Schema<V> =>
    schema({ const: value, ...keywords }),
  nullable: <T>(inner: Schema<T>, keywords: Keywords = {}): Schema<T | null> =>
    schema({ anyOf: [inner.json, { type: "null" }], ...keywords }),
  array: <T>(items: Schema<T>, keywords: Keywords = {}): Schema<T[]> =>
    schema({ type: "array", items: items.json, ...keywords }),
  /** An object with the given string keys, each with values of one schema. */
  record: <T>(values: Schema<T>, keywords: Keywords = {}): Schema<Record<string, T>> =>
    schema({ type: "object", additionalProperties: values.json, ...keywords }),
  /** Any JSON value: the spec leaves its shape open. */
  any: (keywords: Keywords = {}): Schema<unknown> => schema({ ...keywords }),
  /**
   * An object with required and optional keys. `closed` forbids other keys (an exact key set); open objects accept
   * more, so an implementation may answer more than the contract names.
   */
  object: <R extends Shape, O extends Shape>(
    required: R,
    optional: O,
    keywords: Keywords & { closed?: boolean } = {},
  ): Schema<ObjectOf<R, O>> => {
    const { closed, ...rest } = keywords;
    const properties: Record<string, JsonSchema> = {};
    for (const [key, value] of Object.entries({ ...required, ...optional })) properties[key] = value.json;
    return schema({
      type: "object",
      ...(Object.keys(required).length > 0 ? { required: Object.keys(required) } : {}),
      properties,
      ...(closed === true ? { additionalProperties: false } : {}),
      ...rest,
    });
  },
};

/**
 * The wire formats docs/contract-gaps.md fixes (Formats), as patterns a validator checks (formats alone are only
 * annotations). Plain string constants, so literal schemas can name them and still be dropped by tree-shaking.
 */
export const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
export const DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";
/**
 * ISO 8601 in UTC (docs/contract-gaps.md, Formats): extended format, to the minute, the second or any fraction of
 * it, with the UTC designator Z or the zero offset +00:00 (the same instant; -00:00 is no ISO 8601 offset).
 */
export const TIMESTAMP_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|\\+00:00)$";
/** Money as a decimal string. */
export const DECIMAL_PATTERN = "^-?\\d+(\\.\\d+)?$";
export const TIMESLOT_PATTERN = "^\\d{2}:\\d{2}$";
export const CURRENCY_PATTERN = "^[A-Z]{3}$";

/**
 * What the patterns allow and the reference service writes, said where a document uses them (the freedoms of
 * lib/contract/freedoms/wire-format.ts). `format` is an annotation here (RFC 3339's date-time asks for seconds, which
 * ISO 8601 does not): the pattern is the rule.
 */
export const WIRE_FORM_DESCRIPTIONS = {
  uuid: "A UUID of any version, in either case (RFC 9562 4). The reference service writes version 4 in lower case.",
  timestamp:
    "ISO 8601 in UTC: Z or +00:00, to the minute, the second or any fraction of it (docs/contract-gaps.md, Formats). " +
    "The reference service writes milliseconds with Z.",
  decimal:
    "Money as a decimal string, with any number of decimals (docs/contract-gaps.md, Formats). The reference service " +
    "writes two.",
} as const;

export const wire = {
  uuid: (keywords: Keywords = {}) =>
    s.string({ format: "uuid", pattern: UUID_PATTERN, description: WIRE_FORM_DESCRIPTIONS.uuid, ...keywords }),
  date: (keywords: Keywords = {}) => s.string({ format: "date", pattern: DATE_PATTERN, ...keywords }),
  timestamp: (keywords: Keywords = {}) =>
    s.string({
      format: "date-time",
      pattern: TIMESTAMP_PATTERN,
      description: WIRE_FORM_DESCRIPTIONS.timestamp,
      ...keywords,
    }),
  decimal: (keywords: Keywords = {}) =>
    s.string({ pattern: DECIMAL_PATTERN, description: WIRE_FORM_DESCRIPTIONS.decimal, ...keywords }),
  timeslot: (keywords: Keywords = {}) => s.string({ pattern: TIMESLOT_PATTERN, description: "HH:MM", ...keywords }),
  currency: (keywords: Keywords = {}) => s.string({ pattern: CURRENCY_PATTERN, ...keywords }),
};
