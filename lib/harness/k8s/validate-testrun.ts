/**
 * Validates a TestRun manifest against the openAPIV3Schema of the k6-operator's CRD (ajv), strictly: a field the
 * schema does not name is an error, as `kubectl apply --validate=strict` would report, instead of being pruned
 * silently by the API server.
 */
import { Ajv } from "ajv";
import { parse } from "yaml";
import { isRecord } from "../../contract/index.ts";

/** Every object schema with named properties refuses the others. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema))
    out[key] =
      key === "properties" && isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strict(v)]))
        : strict(value);
  if (isRecord(schema.properties) && schema.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

export function testRunSchema(crdYaml: string, version = "v1alpha1"): Record<string, unknown> {
  const crd = parse(crdYaml) as unknown;
  const versions = isRecord(crd) && isRecord(crd.spec) && Array.isArray(crd.spec.versions) ? crd.spec.versions : [];
  const found = versions.find((v) => isRecord(v) && v.name === version) as Record<string, unknown> | undefined;
  const schema = isRecord(found?.schema) ? found.schema.openAPIV3Schema : undefined;
  if (!isRecord(schema)) {
    throw new Error(
      `Failed to read the TestRun CRD: no openAPIV3Schema for ${version}. Please give the k6-operator's CRD.`,
    );
  }
  return strict(schema) as Record<string, unknown>;
}

/** The schema problems of a manifest, as "path: message"; empty when it is valid. */
export function validateTestRun(crdYaml: string, manifest: unknown): string[] {
  // Kubernetes' own keywords (x-kubernetes-*) and formats (int32) are not JSON Schema's: ignored, not failed on.
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  const validate = ajv.compile(testRunSchema(crdYaml));
  if (validate(manifest)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${e.instancePath || "/"}: ${e.message ?? "invalid"}${"additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`,
  );
}
