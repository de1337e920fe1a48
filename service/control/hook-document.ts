/**
 * What the published hooks document (TEST_HOOKS in lib/contract/test-hooks.ts) says of a hook's input and output,
 * applied around its handler, so the reference service follows the document by the document:
 * - a query parameter the hook requires and did not get, or one outside its schema (type, bounds, enum, pattern), is
 *   400 invalid_params (body values are checked by the handlers, each before it changes anything);
 * - the `hooks-unknown-keys-refused` variation: a body key the document does not name is 400 too (by default such
 *   keys are ignored; both are allowed);
 * - the `hooks-optional-fields-left-out` variation: the answers of the required hooks leave out the fields the
 *   document marks optional (`x-atd-level: reference`), as a service without those extras would.
 */
import { isRecord, TEST_HOOKS, type TestHookName, type TestHookSpec } from "../../lib/contract/index.ts";
import { LEVEL_EXTENSION } from "../../lib/contract/openapi.ts";
import { badRequest, type Reply } from "../http.ts";

type Schema = Readonly<Record<string, unknown>>;

/** Why a query value is outside its schema, or undefined when it is inside. */
function queryValueProblem(schema: Schema, value: string): string | undefined {
  if (schema.type === "integer") {
    if (!/^-?\d+$/.test(value)) return "must be an integer";
    const n = Number(value);
    if (typeof schema.minimum === "number" && n < schema.minimum) return `must be at least ${schema.minimum}`;
    if (typeof schema.maximum === "number" && n > schema.maximum) return `must be at most ${schema.maximum}`;
    return undefined;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return `must be one of ${schema.enum.join(", ")}`;
  if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value)) {
    return typeof schema.description === "string" ? `must be ${schema.description}` : "is malformed";
  }
  return undefined;
}

/** Throws 400 invalid_params for a required query parameter left out or a value outside its schema. */
export function checkQuery(hook: TestHookName, query: URLSearchParams): void {
  const spec: TestHookSpec = TEST_HOOKS[hook];
  for (const [name, parameter] of Object.entries(spec.query ?? {})) {
    const value = query.get(name);
    if (value === null) {
      if (parameter.required) throw badRequest(`${name} is required.`);
      continue;
    }
    const problem = queryValueProblem(parameter.schema, value);
    if (problem !== undefined) throw badRequest(`${name} ${problem}.`);
  }
}

/** The object schemas a value may match: the schema itself, or the object branches of its anyOf. */
function objectSchemas(schema: Schema): Schema[] {
  if (isRecord(schema.properties) || schema.additionalProperties !== undefined) return [schema];
  return Array.isArray(schema.anyOf) ? schema.anyOf.filter(isRecord).flatMap(objectSchemas) : [];
}

/** The first key of `value`, at any depth, that its schema does not name ("caps.infants"); undefined when none. */
export function unknownKey(schema: Schema, value: unknown, where = ""): string | undefined {
  if (!isRecord(value)) return undefined;
  const object = objectSchemas(schema)[0];
  if (object === undefined) return undefined;
  const properties = isRecord(object.properties) ? object.properties : {};
  const extra = isRecord(object.additionalProperties) ? object.additionalProperties : undefined;
  for (const [key, child] of Object.entries(value)) {
    const childSchema = isRecord(properties[key]) ? properties[key] : extra;
    if (childSchema === undefined) {
      if (object.additionalProperties !== true) return `${where}${key}`;
      continue;
    }
    const deeper = unknownKey(childSchema, child, `${where}${key}.`);
    if (deeper !== undefined) return deeper;
  }
  return undefined;
}

/** Under the variation: 400 invalid_params when the body has a key the hook's request schema does not name. */
export function refuseUnknownKeys(hook: TestHookName, body: Record<string, unknown>): void {
  const spec: TestHookSpec = TEST_HOOKS[hook];
  if (spec.request === undefined) return;
  const key = unknownKey(spec.request, body);
  if (key !== undefined) throw badRequest(`${key} is not a key of this hook's body.`);
}

/** The value with every field its schema marks optional (reference-level) left out, at any depth. */
function withoutOptional(schema: Schema, value: unknown): unknown {
  if (Array.isArray(value))
    return isRecord(schema.items) ? value.map((v) => withoutOptional(schema.items as Schema, v)) : value;
  const object = objectSchemas(schema)[0];
  if (!isRecord(value) || object === undefined) return value;
  const properties = isRecord(object.properties) ? object.properties : {};
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, child]) => {
      const childSchema = properties[key];
      if (!isRecord(childSchema)) return [[key, child]];
      return childSchema[LEVEL_EXTENSION] === "reference" ? [] : [[key, withoutOptional(childSchema, child)]];
    }),
  );
}

/**
 * Hooks whose answers the variation leaves as they are: the events ledger's and the partner settings' fields are the
 * webhooks freedoms' (lib/contract/freedoms/webhooks.ts).
 */
const ANSWERS_KEPT: readonly TestHookName[] = ["events", "partnerSet"];

/** Under the variation: a required hook's answer without the fields the document marks optional. */
export function leaveOptionalFieldsOut(hook: TestHookName, reply: Reply): Reply {
  const spec: TestHookSpec = TEST_HOOKS[hook];
  if (spec.level !== "required" || ANSWERS_KEPT.includes(hook) || !isRecord(reply.body) || !("data" in reply.body)) {
    return reply;
  }
  return { ...reply, body: { ...reply.body, data: withoutOptional(spec.answer, reply.body.data) } };
}
