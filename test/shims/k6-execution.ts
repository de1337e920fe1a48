// Shim of "k6/execution": the current VU is whatever the test sets in k6State.vu.
import { k6State } from "./k6-state.ts";

export default {
  get vu() {
    return k6State.vu;
  },
};
