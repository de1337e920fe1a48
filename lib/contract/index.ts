// The spec as code. Runtime-neutral: imported by lib/k6 (bundled into k6), lib/harness and service (Node).
export * from "./endpoints.ts";
export * from "./errors.ts";
export * from "./key-sets.ts";
export * from "./limits.ts";
export * from "./types.ts";
export * from "./run-protocol.ts";
export * from "./execution-segments.ts";
export * from "./dates.ts";
export * from "./alternatives.ts";
export * from "./test-hooks.ts";
export type { FromSchema, JsonSchema } from "./schema.ts";
