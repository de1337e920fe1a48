/**
 * An Ajv validator compiled the first time it is needed, not when its file loads: a compile costs up to 0.1 s of CPU,
 * which every `harness` command, a refused one included, would otherwise pay at start (docs/performance.md).
 */
import type { ValidateFunction } from "ajv";

export function compiledOnFirstUse<T>(compile: () => ValidateFunction<T>): () => ValidateFunction<T> {
  let compiled: ValidateFunction<T> | undefined;
  return () => (compiled ??= compile());
}
