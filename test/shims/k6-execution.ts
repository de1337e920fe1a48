// Shim of "k6/execution": the current VU and iteration are whatever the test sets in k6State.
import { k6State } from "./k6-state.ts";

export default {
  get vu() {
    return k6State.vu;
  },
  get scenario() {
    return { iterationInTest: k6State.vu.iterationInScenario };
  },
  get test() {
    return {
      options: { ...k6State.testOptions },
      // k6 interrupts the VU's runtime: the shim records the reason and stops the caller the same way.
      abort(reason?: string): never {
        k6State.aborts.push(reason ?? "");
        throw new Error(`test aborted: ${reason ?? ""}`);
      },
    };
  },
};
