/**
 * Reads the published OpenAPI 3.1 documents (lib/contract/openapi.ts): their operations, and whether a real answer
 * (status, content type, required headers, body) is one the document allows. The body schemas are JSON Schema
 * 2020-12, so Ajv2020 checks them as they are, strictly (a keyword Ajv does not know is an error, not ignored).
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { LEVEL_EXTENSION } from "../contract/openapi.ts";
import { isRecord } from "../contract/index.ts";

export interface DocumentOperation {
  path: string;
  /** Upper case. */
  method: string;
  operationId: string;
  level: string | undefined;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

export function operationsOf(document: unknown): DocumentOperation[] {
  const out: DocumentOperation[] = [];
  const paths = isRecord(document) && isRecord(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const level = op[LEVEL_EXTENSION];
      out.push({
        path,
        method: method.toUpperCase(),
        operationId: String(op.operationId),
        level: typeof level === "string" ? level : undefined,
      });
    }
  }
  return out;
}

/** What was answered, as read off the wire. */
export interface WireAnswer {
  status: number;
  headers: Headers;
  /** The body as text ("" when none). */
  text: string;
}

type Json = Record<string, unknown>;

/** Rewrites "#/components/schemas/X" to "#/$defs/X", so a response schema compiles beside the named schemas. */
function toDefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDefs);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" ? v.replace("#/components/schemas/", "#/$defs/") : toDefs(v),
    ]),
  );
}

export class AnswerValidator {
  readonly #document: Json;
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<object, ValidateFunction>();

  constructor(document: unknown) {
    if (!isRecord(document) || !isRecord(document.paths)) {
      throw new Error("Failed to read the OpenAPI document: it has no paths. Please pass a parsed OpenAPI document.");
    }
    this.#document = document;
    // Formats are annotations here: the documents carry a pattern wherever the contract fixes a format.
    // strictRequired is Ajv's style rule against `anyOf: [{required: [x]}]` (at least one of), valid JSON Schema;
    // allowMatchingProperties lets a listed key also match a patternProperties pattern (both apply): an open key set's
    // nullable identifiers (`Uuid$`) beside a key it types itself.
    this.#ajv = new Ajv2020({
      strict: true,
      strictRequired: false,
      allowMatchingProperties: true,
      allErrors: true,
      validateFormats: false,
    });
    this.#ajv.addVocabulary([LEVEL_EXTENSION]);
  }

  #component(kind: string, value: unknown): Json | undefined {
    if (isRecord(value) && typeof value.$ref === "string") {
      const name = value.$ref.replace(`#/components/${kind}/`, "");
      const components = isRecord(this.#document.components) ? this.#document.components : {};
      const table = isRecord(components[kind]) ? components[kind] : {};
      const found = table[name];
      return isRecord(found) ? found : undefined;
    }
    return isRecord(value) ? value : undefined;
  }

  #validator(schema: Json): ValidateFunction {
    let validate = this.#compiled.get(schema);
    if (validate === undefined) {
      const components = isRecord(this.#document.components) ? this.#document.components : {};
      const defs = isRecord(components.schemas) ? components.schemas : {};
      validate = this.#ajv.compile({ ...(toDefs(schema) as Json), $defs: toDefs(defs) as Json });
      this.#compiled.set(schema, validate);
    }
    return validate;
  }

  /** Problems of one schema against one value: empty when it validates. */
  schemaProblems(schema: Json, value: unknown, where: string): string[] {
    const validate = this.#validator(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${where}${e.instancePath || "/"} ${e.message ?? "is invalid"} ${JSON.stringify(e.params)}`,
    );
  }

  /** Every way the answer differs from what the document allows for this operation; empty when it conforms. */
  problems(path: string, method: string, answer: WireAnswer): string[] {
    const item = isRecord(this.#document.paths) ? this.#document.paths[path] : undefined;
    const operation = isRecord(item) ? item[method.toLowerCase()] : undefined;
    if (!isRecord(operation) || !isRecord(operation.responses)) return [`${method} ${path} is not in the document`];
    const response = this.#component("responses", operation.responses[String(answer.status)]);
    if (response === undefined) return [`status ${answer.status} is not a documented answer of ${method} ${path}`];
    const problems: string[] = [];
    const headers = isRecord(response.headers) ? response.headers : {};
    for (const [name, raw] of Object.entries(headers)) {
      const header = this.#component("headers", raw);
      const value = answer.headers.get(name);
      if (value === null) {
        if (header?.required === true) problems.push(`header ${name} is missing`);
        continue;
      }
      if (isRecord(header?.schema)) {
        const numeric = ["integer", "number"].includes(String(header.schema.type)) && /^-?\d+(\.\d+)?$/.test(value);
        problems.push(...this.schemaProblems(header.schema, numeric ? Number(value) : value, `header ${name}`));
      }
    }
    const content = isRecord(response.content) ? response.content : {};
    const contentType = (answer.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    const media = content[contentType];
    if (Object.keys(content).length === 0) return problems;
    if (!isRecord(media)) {
      return [...problems, `content type "${contentType}" is not one of ${Object.keys(content).join(", ")}`];
    }
    if (!isRecord(media.schema) || contentType !== "application/json") return problems;
    let body: unknown;
    try {
      body = JSON.parse(answer.text) as unknown;
    } catch {
      return [...problems, `the body is not JSON: ${answer.text.slice(0, 80)}`];
    }
    return [...problems, ...this.schemaProblems(media.schema, body, "body")];
  }
}
