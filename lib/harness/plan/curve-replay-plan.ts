/**
 * --arrival-curve in the plan: partner-mix's executor follows the fitted arrival curve of the run's traffic model
 * (lib/contract/arrival-curve.ts), compressed by --time-compression, times --rate-multiplier. The curve sets the
 * scenario's length, so --duration beside it is refused rather than silently ignored or cutting the day short.
 */
import {
  arrivalCurveScenario,
  curveReplayProblem,
  DEFAULT_RATE_MULTIPLIER,
  DEFAULT_TIME_COMPRESSION,
  type CurveReplay,
} from "../../contract/arrival-curve.ts";
import { scenarioSeconds } from "../../contract/durations.ts";
import { meanSessionSeconds } from "../../contract/fitted-traffic-mix.ts";
import type { TrafficModel } from "../../contract/traffic-model.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import type { SettingValues } from "../run-file/run-file-schema.ts";
import { MAX_RUN_SECONDS } from "../settings/setting-limits.ts";

/** The one scenario that replays the curve. */
export const CURVE_SCENARIO = "partner-mix";

export type CurveValues = Pick<SettingValues, "arrivalCurve" | "timeCompression" | "rateMultiplier">;

/** The curve and how to play it, when the run asks for it (checked before: checkArrivalCurve). */
export function curveReplayOfRun(values: Partial<CurveValues>, traffic: TrafficModel): CurveReplay | undefined {
  if (!values.arrivalCurve || !traffic.fitted) return undefined;
  return {
    curve: traffic.fitted.arrival,
    timeCompression: values.timeCompression ?? DEFAULT_TIME_COMPRESSION,
    rateMultiplier: values.rateMultiplier ?? DEFAULT_RATE_MULTIPLIER,
    sessionSeconds: meanSessionSeconds(traffic.fitted),
  };
}

/** Refuses (exit 2) --arrival-curve the run cannot play: no fitted curve, no partner-mix, --duration beside it. */
export function checkArrivalCurve(
  values: CurveValues & Pick<SettingValues, "duration">,
  scenarios: readonly string[],
  traffic: TrafficModel,
): void {
  if (!values.arrivalCurve) return;
  const refuse = (why: string, fix: string): never => {
    throw new HarnessError(`Failed to plan --arrival-curve: ${why}. Please ${fix}.`, EXIT.usage);
  };
  if (!traffic.fitted) {
    refuse("the traffic model has no fitted arrival curve", "give --traffic a model made by `harness model fit`");
  }
  if (!scenarios.includes(CURVE_SCENARIO)) {
    refuse(
      `only ${CURVE_SCENARIO} replays the curve, and the run has ${scenarios.join(", ")}`,
      `add ${CURVE_SCENARIO}`,
    );
  }
  if (values.duration !== undefined) {
    refuse(
      `the curve sets partner-mix's length, and --duration ${values.duration} was given too`,
      "leave out --duration, or shorten the day with --time-compression",
    );
  }
  const replay = curveReplayOfRun(values, traffic) as CurveReplay;
  const problem = curveReplayProblem(replay);
  if (problem) refuse(problem, "use a smaller --time-compression");
  const seconds = scenarioSeconds(arrivalCurveScenario(replay));
  if (seconds > MAX_RUN_SECONDS) {
    refuse(
      `the compressed curve lasts ${String(Math.round(seconds))} s, over the run's limit`,
      "use a larger --time-compression",
    );
  }
}
