/**
 * The property tests of the harness's own inputs (test/unit/properties/) at ten times the default tier's runs: the
 * same properties, more cases of each, and so more chances at the rare input (a deep nesting, a key such as
 * __proto__, a sender that trickles). ATD_PROPERTY_SCALE multiplies this further.
 */
import { INPUT_PROPERTIES } from "../unit/properties/input-properties.ts";

const MATRIX_SCALE = 10;

for (const properties of INPUT_PROPERTIES) properties(MATRIX_SCALE);
