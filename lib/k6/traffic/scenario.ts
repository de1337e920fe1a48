/** What the traffic scenarios share: options from the model, setup, and one iteration of a weighted persona. */
import exec from "k6/execution";
import type { Options } from "k6/options";
import type { K6Config } from "../config.ts";
import { scenarioOptions } from "../options.ts";
import { partnerClient } from "../partner.ts";
import type { CatalogueSample } from "./catalogue-sample.ts";
import { pickWeighted } from "./decide.ts";
import { JOURNEYS } from "./journeys.ts";
import { endpointsOf } from "./load.ts";
import type { TrafficModel } from "../../contract/traffic-model.ts";
import { prepareTraffic } from "./setup.ts";

export interface TrafficScenario {
  options: Options;
  setup: () => CatalogueSample;
  iteration: (sample: CatalogueSample) => void;
}

export function trafficScenario(name: string, config: K6Config, model: TrafficModel): TrafficScenario {
  return {
    options: scenarioOptions(config, { name, endpoints: endpointsOf(model) }),
    setup: () => prepareTraffic(config, model),
    iteration: (sample) => {
      const n = exec.scenario.iterationInTest;
      const persona = pickWeighted(model.weights, n);
      JOURNEYS[persona]({ client: partnerClient(config, n), sample, model, n });
    },
  };
}
