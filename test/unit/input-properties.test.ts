/**
 * Property-based tests of the harness's own inputs, at the default tier's scale (together under 30 s). The matrix
 * tier runs the same properties many more times (test/k6/input-properties.matrix.test.ts); the properties live in
 * test/unit/properties/, one file per input.
 */
import { INPUT_PROPERTIES } from "./properties/input-properties.ts";

for (const properties of INPUT_PROPERTIES) properties(1);
