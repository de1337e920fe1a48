// Shim of the "k6" module: records checks and sleeps instead of reporting or waiting.
import { k6State } from "./k6-state.ts";

export function check<T>(value: T, sets: Record<string, (v: T) => boolean>, tags?: Record<string, string>): boolean {
  let all = true;
  for (const [name, fn] of Object.entries(sets)) {
    const ok = fn(value);
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
