/**
 * The pick-the-keys phase: the scenarios the target can run, its coverage level, the API keys (and the run's own key
 * at the public-API level) and the facts the operator stated: the RunContext every extension and k6 process is given.
 */
import { HOOK_ABSENT_STATUSES } from "../../contract/hook-failure.ts";
import { coverageLevelOf, LEVEL_NAMES } from "../coverage.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { harnessErrorOf } from "../hook-failures.ts";
import { HookStatusError } from "../hooks/hooks-client.ts";
import { unlessInterrupted } from "../interrupt.ts";
import type { ExtensionStart, PublicApiFacts, RunContext } from "../run-extension.ts";
import { traitsOf } from "../scenario-traits.ts";
import type { StartedTarget } from "../targets/started-target.ts";
import type { PublicApiRequest, RunRequest } from "./run-request.ts";
import { NO_CONTROL, type RunState } from "./run-state.ts";

/**
 * Public API only: the last key becomes the run's own, for competing demand, so no scenario's traffic spends it (its
 * reservations would otherwise count against the partner the traffic measures).
 */
function splitHarnessKey(keys: readonly string[]): { keys: string[]; harnessKey: string } {
  if (keys.length < 2) {
    throw new HarnessError(
      `Failed to hand out API keys: without test hooks, churn and the alternatives and invariants scenarios take seats through the public API with a key of the run's own (the last of --keys), and the run has ${keys.length}. Please pass at least two keys (--keys).`,
      EXIT.usage,
    );
  }
  return { keys: keys.slice(0, -1), harnessKey: keys.at(-1) as string };
}

/** What k6 gets of the public-API facts: the run's own key and what the operator stated. */
export function publicApiSettings(ctx: RunContext): ExtensionStart["k6Settings"] {
  const facts = ctx.publicApi;
  return {
    ...(ctx.harnessKey === undefined ? {} : { harnessKey: ctx.harnessKey }),
    ...(facts.alternativesKeys === undefined ? {} : { alternativesKeys: facts.alternativesKeys }),
    ...(facts.reservationHoldSeconds === undefined ? {} : { reservationHoldSeconds: facts.reservationHoldSeconds }),
  };
}

function publicApiFacts(given: PublicApiRequest | undefined, keys: readonly string[]): PublicApiFacts {
  let alternativesKeys: number[] | undefined;
  if (given?.alternativesKeys !== undefined) {
    const unknown = given.alternativesKeys.filter((k) => !keys.includes(k));
    if (unknown.length > 0) {
      throw new HarnessError(
        `Failed to read --alternatives-keys: ${unknown.length} of its keys are not among the run's keys (the last of --keys is the run's own without test hooks). Please list keys from --keys.`,
        EXIT.usage,
      );
    }
    alternativesKeys = keys.flatMap((k, i) => (given.alternativesKeys?.includes(k) ? [i] : []));
  }
  return {
    alternativesKeys,
    reservationHoldSeconds: given?.reservationHoldSeconds,
    timeScale: given?.timeScale ?? 1,
  };
}

async function apiKeysFor(request: RunRequest, target: StartedTarget): Promise<string[]> {
  if (request.apiKeys?.length) return request.apiKeys;
  // The service the harness started told it its keys (its --keys-file): no hook needed.
  const told = target.apiKeys ?? [];
  if (told.length > 0) return [...told];
  if (!target.control) {
    throw new HarnessError(
      "Failed to pick API keys: the target has no control API to list its partners. Please pass --keys <file>.",
      EXIT.usage,
    );
  }
  let partners: { apiKey: string }[];
  try {
    partners = await target.control.partners();
  } catch (error) {
    // Listing partners is an optional hook of the reference service: a service without it needs --keys.
    if (error instanceof HookStatusError && HOOK_ABSENT_STATUSES.includes(error.status)) {
      throw new HarnessError(
        `Failed to pick API keys: the target's control API does not list its partners (GET /__control/partners, an optional hook, answered ${error.status}). Please pass --keys <file>.`,
        EXIT.usage,
      );
    }
    throw harnessErrorOf(error, "pick API keys");
  }
  const keys = partners.map((p) => p.apiKey);
  if (keys.length === 0) throw new HarnessError("Failed to pick API keys: the service lists no partner.", EXIT.target);
  return keys;
}

/** The scenarios the target can run, its coverage level and keys: what every extension and k6 process is given. */
export async function contextOf(request: RunRequest, state: RunState, target: StartedTarget): Promise<RunContext> {
  const control = target.control;
  const scenarios = request.scenarios.filter((s) => control !== undefined || !traitsOf(s).needsControl);
  for (const scenario of request.scenarios.filter((s) => !scenarios.includes(s))) {
    state.skipped.push({ kind: "scenario", name: scenario, reason: NO_CONTROL });
    request.say(`  SKIP scenario ${scenario}: ${NO_CONTROL}`);
  }
  if (scenarios.length === 0) {
    throw new HarnessError(
      "Failed to run: every scenario asked for needs the control API, which the target does not offer. Please pass --control-url and --control-token, or choose other scenarios.",
      EXIT.usage,
    );
  }
  state.phase = "pick the API keys";
  const level = await unlessInterrupted(coverageLevelOf(control), request.signal);
  state.level = level;
  request.say(`  coverage level: ${LEVEL_NAMES[level]}`);
  const allKeys = await unlessInterrupted(apiKeysFor(request, target), request.signal);
  state.secrets.push(...allKeys, ...(control === undefined ? [] : [control.token]));
  const harnessKeyNeeded =
    level === "public-api" &&
    (scenarios.some((s) => traitsOf(s).needsHarnessKey === true) ||
      request.extensions.some((e) => e.needsHarnessKey === true));
  const { keys, harnessKey } = harnessKeyNeeded ? splitHarnessKey(allKeys) : { keys: allKeys, harnessKey: undefined };
  return {
    runId: state.runId,
    runDir: state.runDir,
    target,
    keys,
    scenarios,
    seed: request.seed ?? 1,
    say: request.say,
    level,
    harnessKey,
    publicApi: publicApiFacts(request.publicApi, keys),
    ...(request.environment === undefined ? {} : { environment: request.environment }),
  };
}
