/** Half of a deliberate import circle (test/unit/import-circles.test.ts proves the circle check finds it). */
import type { Second } from "./second.ts";

export interface First {
  next?: Second;
}
