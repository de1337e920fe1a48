/**
 * The flags of `harness run` (and the run file's values, which go through the same parsers): any text given to a
 * flag's parser is a value within the flag's range, or refused: by commander's InvalidArgumentError for the option
 * parsers (exit 2 through commander), by a one-line HarnessError (exit 2) for the values run-settings.ts checks.
 * In-process, not by spawning the harness.
 */
import { InvalidArgumentError } from "commander";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDuration } from "../../../lib/contract/durations.ts";
import { PROFILES } from "../../../lib/contract/profiles.ts";
import { HarnessError } from "../../../lib/harness/exit-codes.ts";
import {
  checkDuration,
  checkRateWindow,
  checkServiceArgs,
  parseEnvAssignment,
  parseMemory,
  parsePort,
  parseStartupTimeout,
  parseWaitHttp,
  parseWaitLog,
} from "../../../lib/harness/run-settings.ts";
import { parseListen } from "../../../lib/harness/webhooks/listen-address.ts";
import { serviceArgsProblem } from "../../../service/options.ts";
import {
  capacityRates,
  cpus,
  httpUrl,
  integer,
  nonNegativeNumber,
  positiveNumber,
  pushGroup,
  REFUSAL_MODES,
  refusals,
  share,
} from "../../../lib/harness/settings/value-parsers.ts";
import { runs, timeoutFor } from "./property-runs.ts";
import { expectUsageRefusal, outcomeOf } from "./refusals.ts";

const digits = fc.integer({ min: 1, max: 40_000 }).map((n) => "9".repeat(n));

/** Text a person (or a run file) might give a flag: numbers, durations, sizes, URLs, addresses, and anything. */
export const flagText: fc.Arbitrary<string> = fc.oneof(
  fc.double().map(String),
  fc.integer().map(String),
  fc.nat().map(String),
  fc.constantFrom(".5", "5.", "1e3", " 1", "1 ", "+1", "-0", "0x1F", "1_000", "Infinity", "NaN", "", " ", "٣", "1,5"),
  digits,
  fc.tuple(digits, fc.constantFrom("", ".5", "x", "s", "m", "g")).map(([d, tail]) => d + tail),
  fc.stringMatching(/^(\d{1,5}(\.\d{1,3})?(ms|s|m|h)){1,3}$/),
  fc.constantFrom("1m30", "-5s", "1.5.5s", "1d", "0s", "0ms", "5 s", "1h1h1h", "10S"),
  fc.stringMatching(/^\d{1,12}(\.\d{1,3})?[bkmgBKMGt]?$/),
  fc.webUrl(),
  fc.constantFrom("ftp://x", "http://", "http:// x", "https://[::1]:99999", "javascript:alert(1)", "HTTP://X"),
  fc
    .tuple(
      fc.oneof(
        fc.domain(),
        fc.ipV4(),
        fc.ipV6().map((ip) => `[${ip}]`),
      ),
      fc.integer(),
    )
    .map(([h, p]) => `${h}:${String(p)}`),
  fc.constantFrom("/health", "/health:200", "/x:99", "/x:600", "/ :200", "health", "/a b", "/v2/config:401"),
  fc.constantFrom("500,429", "hang", "500,,429", "500, 429", "2000-3000/8", "1-2/40", "1-2/41", "3000-2000/8", "5,4"),
  fc.stringMatching(/^[A-Za-z_]\w{0,8}=.{0,10}$/),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
);

const SERVICE_FLAGS = ["rate-limit", "rate-window-seconds", "time-scale", "hold-seconds", "seed", "products", "port"];
/** --service-args: the reference service's flags with any values, or any words. */
const serviceArgs: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(fc.tuple(fc.constantFrom(...SERVICE_FLAGS), flagText), { maxLength: 3 })
    .map((pairs) => pairs.map(([flag, value]) => `--${flag} ${value}`).join(" ")),
  flagText,
);

/** An option parser of lib/harness/settings/value-parsers.ts and what its values must be. */
const OPTION_PARSERS: [string, (text: string) => unknown, (value: never) => boolean][] = [
  ["share", share, (n: number) => Number.isFinite(n) && n >= 0 && n <= 1],
  ["nonNegativeNumber", nonNegativeNumber, (n: number) => Number.isFinite(n) && n >= 0],
  ["positiveNumber", positiveNumber, (n: number) => Number.isFinite(n) && n > 0],
  ["cpus", cpus, (n: number) => n >= 0.01 && n <= 1024],
  ["integer", integer, (n: number) => Number.isSafeInteger(n) && n >= 0],
  ["httpUrl", httpUrl, (url: string) => /^https?:\/\//.test(url)],
  ["pushGroup", pushGroup, (name: string) => name.length > 0],
  [
    "refusals",
    refusals,
    (modes: string[]) => modes.length > 0 && modes.every((m) => REFUSAL_MODES.includes(m as never)),
  ],
  [
    "capacityRates",
    capacityRates,
    (rates: number[]) =>
      rates.length > 0 && rates.length <= 40 && rates.every((r, i) => Number.isFinite(r) && r > (rates[i - 1] ?? 0)),
  ],
];

/** A value run-settings.ts checks and what it must be when accepted. */
const SETTINGS_CHECKS: [string, fc.Arbitrary<string>, (text: string) => unknown, (value: never) => boolean][] = [
  ["--port", flagText, (t) => parsePort(t, "--port"), (n: number) => Number.isInteger(n) && n >= 1 && n <= 65535],
  ["--memory", flagText, parseMemory, (n: number) => Number.isFinite(n) && n >= 6 * 1024 * 1024],
  ["--startup-timeout", flagText, parseStartupTimeout, (ms: number) => Number.isFinite(ms) && ms > 0],
  ["--rate-window", flagText, checkRateWindow, () => true],
  ["--webhook-listen", flagText, parseListen, (a: { port: number }) => Number.isInteger(a.port) && a.port <= 65535],
  ["--wait-http", flagText, parseWaitHttp, (r: { path: string }) => r.path.startsWith("/")],
  ["--wait-log", flagText, parseWaitLog, () => true],
  ["--container-env", flagText, parseEnvAssignment, (kv: [string, string]) => /^[A-Za-z_]\w*$/.test(kv[0])],
  [
    "--service-args",
    serviceArgs,
    (t) => checkServiceArgs("embedded", t, serviceArgsProblem),
    (args: string[]) => Array.isArray(args),
  ],
  [
    "--duration",
    flagText,
    (duration) => {
      for (const profile of Object.keys(PROFILES))
        checkDuration({ scenarios: [], profile, duration, capacityRates: undefined });
      return parseDuration(duration);
    },
    (seconds: number) => Number.isFinite(seconds) && seconds > 0,
  ],
];

/** Failures found and fixed, as their shrunk flag texts. */
const FIXED_TEXTS: Record<string, [string][]> = {
  // A rate below 0.5 rounded to a step of 0 requests/s.
  capacityRates: [["5e-324"], ["0.4,2"]],
  // Some 310 digits are Infinity: a count or rate of Infinity was accepted.
  nonNegativeNumber: [["9".repeat(400)]],
  positiveNumber: [["9".repeat(400)]],
  integer: [["9".repeat(400)], ["9007199254740993"]],
  // The number pattern tried every split of a long run of digits: seconds for 30,000 of them.
  share: [["9".repeat(60_000) + "x"]],
};

/** Failures found and fixed, as their shrunk values. */
const FIXED_VALUES: Record<string, [string][]> = {
  // A refusal quoting a line or paragraph separator (U+2028, U+2029) was two lines on a terminal.
  "--memory": [["\u2028"], ["9".repeat(400)]],
  // Below a millisecond, a startup timeout rounded to 0 ms.
  "--startup-timeout": [["0.4ms"]],
  "--duration": [["\u2029"]],
};

export function flagProperties(scale: number): void {
  describe("flags", () => {
    for (const [name, parse, valid] of OPTION_PARSERS) {
      it(
        `should parse any --<${name}> text into a value in its range or refuse it with InvalidArgumentError`,
        () => {
          fc.assert(
            fc.property(flagText, (text) => {
              const outcome = outcomeOf(() => parse(text), InvalidArgumentError);
              if (outcome.ok) expect(valid(outcome.value as never), String(outcome.value)).toBe(true);
              else expect(outcome.error.message).not.toBe("");
            }),
            runs(150, scale, FIXED_TEXTS[name]),
          );
        },
        timeoutFor(150, scale),
      );
    }

    for (const [flag, text, parse, valid] of SETTINGS_CHECKS) {
      it(
        `should read any ${flag} value into a value in its range or refuse it with exit 2`,
        () => {
          fc.assert(
            fc.property(text, (given) => {
              const outcome = outcomeOf(() => parse(given), HarnessError);
              if (outcome.ok) expect(valid(outcome.value as never), String(outcome.value)).toBe(true);
              else expectUsageRefusal(outcome.error);
            }),
            runs(150, scale, FIXED_VALUES[flag]),
          );
        },
        timeoutFor(150, scale),
      );
    }
  });
}
