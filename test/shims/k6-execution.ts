// Shim of "k6/execution": the current VU and iteration are whatever the test sets in k6State.
import { k6State } from "./k6-state.ts";

export default {
  get vu() {
    return k6State.vu;
  },
  get scenario() {
    return { iterationInTest: k6State.vu.iterationInScenario };
  },
};
