/**
 * The outcomes a property of an input allows: the input read, or refused with the project's typed error and its one
 * line "Failed to X: why. Please Y." Anything else thrown (a TypeError, a RangeError, a YAML or JSON library's own
 * error) is rethrown, so fast-check reports it as the failure with the input that caused it and shrinks it.
 */
import { expect } from "vitest";
import { EXIT, HarnessError } from "../../../lib/harness/exit-codes.ts";
import { HANG_MS } from "./property-runs.ts";

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: Error };

// A constructor of any arguments: the refusal types differ in theirs.
type ErrorClass = abstract new (...args: never[]) => Error;

/** The one-line refusal the project's rules ask for (README "Exit codes"). */
export const REFUSAL_SHAPE = /^Failed to .+\. Please .+\.$/;

function classify<T>(error: unknown, refusal: ErrorClass): Outcome<T> {
  if (error instanceof refusal) return { ok: false, error };
  throw error;
}

/** Runs a synchronous parser: its value, or its refusal; any other error is rethrown; a hang fails. */
export function outcomeOf<T>(parse: () => T, refusal: ErrorClass): Outcome<T> {
  const started = performance.now();
  let outcome: Outcome<T>;
  try {
    outcome = { ok: true, value: parse() };
  } catch (error) {
    outcome = classify<T>(error, refusal);
  }
  expect(performance.now() - started, "one call's milliseconds (a hang bound)").toBeLessThan(HANG_MS);
  return outcome;
}

/** Runs an asynchronous reader, failing when it has not settled within HANG_MS. */
export async function settledOf<T>(read: () => Promise<T>, refusal: ErrorClass): Promise<Outcome<T>> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`the call did not settle within ${String(HANG_MS)} ms`));
    }, HANG_MS);
  });
  try {
    return await Promise.race([read().then((value): Outcome<T> => ({ ok: true, value })), hang]);
  } catch (error) {
    return classify<T>(error, refusal);
  } finally {
    clearTimeout(timer);
  }
}

/** A refusal's message is one line shaped "Failed to X: why. Please Y." */
export function expectRefusalShape(error: Error): void {
  expect(error.message, "a refusal's message").toMatch(REFUSAL_SHAPE);
  expect(error.message, "a refusal's message is one line").not.toMatch(/[\n\r\u2028\u2029]/);
}

/** A HarnessError meant for the terminal: exit 2 (usage) and the refusal's shape. */
export function expectUsageRefusal(error: Error): void {
  expect(error).toBeInstanceOf(HarnessError);
  expect((error as HarnessError).exitCode).toBe(EXIT.usage);
  expectRefusalShape(error);
}

/** Whether the value has a key (at any depth where both are objects) that the valid example does not. */
export function hasUnknownKey(value: unknown, like: unknown): boolean {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(value) || !isObject(like)) return false;
  return Object.keys(value).some((key) => !Object.hasOwn(like, key) || hasUnknownKey(value[key], like[key]));
}
