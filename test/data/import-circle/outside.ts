/** Imports into the circle without being part of it: the check must not count it in. */
import type { First } from "./first.ts";

export const sample: First = {};
