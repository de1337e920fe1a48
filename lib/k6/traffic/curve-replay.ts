/** --arrival-curve on the k6 side: the fitted curve of the run's model, played as the harness's settings say. */
import type { CurveReplay } from "../../contract/arrival-curve.ts";
import { meanSessionSeconds } from "../../contract/fitted-traffic-mix.ts";
import type { TrafficModel } from "../../contract/traffic-model.ts";
import { ConfigError, type K6Config } from "../config.ts";

export function curveReplayOf(config: K6Config, model: TrafficModel): CurveReplay | undefined {
  if (!config.arrivalCurve) return undefined;
  if (!model.fitted) {
    throw new ConfigError(
      "Failed to replay the arrival curve: the run's traffic model has no fitted section. Please give --traffic a model from `harness model fit`, or leave out --arrival-curve.",
    );
  }
  return { curve: model.fitted.arrival, ...config.arrivalCurve, sessionSeconds: meanSessionSeconds(model.fitted) };
}
