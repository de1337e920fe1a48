// Shim of the "k6" module: records checks and sleeps instead of reporting or waiting.
import { k6State } from "./k6-state.ts";

// Like k6, a condition is a function of the value or, when not callable, the result itself.
export function check<T>(
  value: T,
  sets: Record<string, ((v: T) => boolean) | boolean>,
  tags?: Record<string, string>,
): boolean {
  let all = true;
  for (const [name, condition] of Object.entries(sets)) {
    const ok = typeof condition === "function" ? condition(value) : condition;
    k6State.checks.push({ name, ok, tags });
    all &&= ok;
  }
  return all;
}

export function sleep(seconds: number): void {
  k6State.sleeps.push(seconds);
}

export function group<T>(_name: string, fn: () => T): T {
  return fn();
}
