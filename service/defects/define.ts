/**
 * A defect is a named wrong behaviour of the reference service, off by default. Each one lives in its own file in
 * this folder, is listed once in index.ts, and is read by name at the one place in the code where the bug sits
 * (`state.defects.on("rate-limit-per-endpoint")`). They exist only to prove that the harness catches that bug.
 */
export type DefectArea = "rate-limit" | "alternatives" | "booking" | "webhooks" | "soak" | "conformance";

export interface DefectDefinition<Name extends string = string> {
  readonly name: Name;
  /** The issue whose checks must catch it. */
  readonly issue: number;
  readonly area: DefectArea;
  /** What goes wrong, as a partner would observe it. */
  readonly description: string;
}

export function defineDefect<const Name extends string>(definition: DefectDefinition<Name>): DefectDefinition<Name> {
  return definition;
}
