/** The other half of the deliberate circle: a re-export back, the kind a circle hides behind. */
export type { First } from "./first.ts";

export interface Second {
  label: string;
}
