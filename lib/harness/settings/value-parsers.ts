/**
 * Value parsers of the settings table (lib/harness/run-file/run-file-schema.ts) and of the other commands' flags.
 * Each is also what a run file's value goes through (scripts/run-file-options.ts), so a flag and its run-file setting
 * are refused with the same words. They throw commander's InvalidArgumentError, which commander reports as bad usage.
 */
import { InvalidArgumentError } from "commander";
import { CapacityRatesError, parseCapacityRates } from "../../contract/profiles.ts";
import { pushGroupProblem } from "../reports/push-group-problem.ts";
import type { RefusalMode } from "../webhooks/misbehaviour.ts";

/**
 * A decimal number as a flag is written: 2, 0.25 or .5. One way to match each text, so a long run of digits is
 * refused in one pass (the former /^\d*\.?\d+$/ tried every split of the digits: seconds for 30,000 of them).
 */
const DECIMAL = /^(?:\d+(?:\.\d+)?|\.\d+)$/;

export function httpUrl(value: string): string {
  if (!/^https?:\/\/[^/\s]+/.test(value)) throw new InvalidArgumentError("must be an http(s) URL.");
  return value;
}

export function pushGroup(value: string): string {
  const problem = pushGroupProblem(value);
  if (problem) throw new InvalidArgumentError(`must be a name for the push's group: ${problem}.`);
  return value;
}

export function share(value: string): number {
  const n = Number(value);
  if (!DECIMAL.test(value) || n > 1) throw new InvalidArgumentError("must be a share from 0 to 1, e.g. 0.2.");
  return n;
}

export const REFUSAL_MODES = ["500", "429", "hang"] as const;

export function refusals(value: string): RefusalMode[] {
  const modes = value.split(",").map((m) => m.trim());
  if (modes.length === 0 || !modes.every((m) => (REFUSAL_MODES as readonly string[]).includes(m))) {
    throw new InvalidArgumentError(`must be a comma-separated list of ${REFUSAL_MODES.join(", ")}.`);
  }
  return modes as RefusalMode[];
}

// Each number parser refuses what Number() makes Infinity of (some 310 digits): no count or rate is that large.
export function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (!DECIMAL.test(value) || !Number.isFinite(n)) throw new InvalidArgumentError("must be a number >= 0, e.g. 2.");
  return n;
}

export function capacityRates(value: string): number[] {
  try {
    return parseCapacityRates(value);
  } catch (error) {
    if (error instanceof CapacityRatesError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

/** A CPU budget in cores: at least a tenth of a millisecond per 10 ms period, at most the host's cores. */
export function cpus(value: string): number {
  const n = Number(value);
  if (!DECIMAL.test(value) || n < 0.01 || n > 1024) {
    throw new InvalidArgumentError("must be a number of CPU cores such as 0.25 or 1.5 (at least 0.01).");
  }
  return n;
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!DECIMAL.test(value) || n <= 0 || !Number.isFinite(n)) {
    throw new InvalidArgumentError("must be a number above 0, e.g. 2.");
  }
  return n;
}

export function integer(value: string): number {
  const n = Number(value);
  // Past 2^53 a whole number is no longer itself: 9007199254740993 reads as ...992.
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError(`must be a whole number from 0 to ${String(Number.MAX_SAFE_INTEGER)}.`);
  }
  return n;
}

/** A whole number from `min` to `max`. */
export function integerFrom(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(n >= min && n <= max)) {
      throw new InvalidArgumentError(`must be a whole number from ${String(min)} to ${String(max)}.`);
    }
    return n;
  };
}

/** A number above 0 and at most `max`: a bound keeps a typo from starting a run that cannot end well. */
export function positiveUpTo(max: number, example: string): (value: string) => number {
  return (value) => {
    const n = /^\d*\.?\d+$/.test(value) ? Number(value) : NaN;
    if (!(n > 0 && n <= max)) {
      throw new InvalidArgumentError(`must be a number above 0 and at most ${String(max)}, e.g. ${example}.`);
    }
    return n;
  };
}

/** A number from 0 to `max`. */
export function nonNegativeUpTo(max: number, example: string): (value: string) => number {
  return (value) => {
    const n = /^\d*\.?\d+$/.test(value) ? Number(value) : NaN;
    if (!(n >= 0 && n <= max)) {
      throw new InvalidArgumentError(`must be a number from 0 to ${String(max)}, e.g. ${example}.`);
    }
    return n;
  };
}
