/** What the traffic scenarios share: options from the model, setup, and one iteration of a weighted persona. */
import exec from "k6/execution";
import type { Options } from "k6/options";
import type { K6Config } from "../config.ts";
import { scenarioOptions } from "../options.ts";
import { partnerClient, runnerKeys } from "../partner.ts";
import type { CatalogueSample } from "./catalogue-sample.ts";
import { pickWeighted } from "./decide.ts";
import { sessions } from "../metrics.ts";
import { JOURNEYS } from "./journeys.ts";
import { endpointsOf } from "./load.ts";
import type { TrafficModel } from "../../contract/traffic-model.ts";
import { prepareTraffic, type TrafficSample } from "./setup.ts";
import { walkFittedSession } from "./fitted-walk.ts";
import { curveReplayOf } from "./curve-replay.ts";

export interface TrafficScenario {
  options: Options;
  setup: () => TrafficSample;
  iteration: (sample: CatalogueSample) => void;
}

/**
 * A traffic scenario: the built-in personas' journeys, or with a fitted model (model.fitted) its personas' chains
 * (fitted-walk.ts). `replaysCurve`: the scenario follows the fitted arrival curve when the run asks (--arrival-curve).
 */
export function trafficScenario(
  name: string,
  config: K6Config,
  model: TrafficModel,
  replaysCurve = false,
): TrafficScenario {
  const curveReplay = replaysCurve ? curveReplayOf(config, model) : undefined;
  return {
    options: scenarioOptions(config, { name, endpoints: endpointsOf(model), curveReplay }),
    setup: () => prepareTraffic(config, model),
    iteration: (sample: TrafficSample) => {
      const n = exec.scenario.iterationInTest;
      const client = partnerClient(config, n);
      if (model.fitted) {
        const { keys, runners } = runnerKeys(config);
        const seedBooking = sample.seedBookings?.[Math.floor(n / runners) % keys.length] || undefined;
        const pageSize = model.catalogueSync.pageSize;
        walkFittedSession(model.fitted, { client, sample, pageSize, n, seedBooking });
        return;
      }
      const persona = pickWeighted(model.weights, n);
      sessions.add(1, { persona });
      JOURNEYS[persona]({ client, sample, model, n, persona });
    },
  };
}
