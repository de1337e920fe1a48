/**
 * A variation is the mirror image of a defect (../defects/): a named choice of the reference service that the contract
 * leaves open and that the reference service does not make by default (a retry schedule on the service clock,
 * deliveries out of order, second-resolution timestamps...). Each one lives in its own file in this folder, is listed
 * once in index.ts, names the freedom of the contract it varies (lib/contract/contract-freedoms.ts), and is read by
 * name at the one place in the code where the choice is made (`state.variations.on("timestamps-whole-seconds")`).
 * They exist to prove that the harness lets a correct service that chose differently pass.
 */
export interface VariationDefinition<Name extends string = string> {
  readonly name: Name;
  /** The freedom's id in lib/contract/contract-freedoms.ts. */
  readonly freedom: string;
  /** What the service does differently, as a partner would observe it. */
  readonly description: string;
}

export function defineVariation<const Name extends string>(
  definition: VariationDefinition<Name>,
): VariationDefinition<Name> {
  return definition;
}
