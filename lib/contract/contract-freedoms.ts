/**
 * The contract's freedoms (issue 27): every place where interface-spec.md, docs/contract-gaps.md or the published
 * hooks document leaves a choice to the implementation, with the choices a correct service may make and where the
 * documents leave it open. It is the mirror image of the rule inventory (conformance-rules.ts): a rule is what every
 * service must do, and a defect of the reference service proves the harness catches its breach; a freedom is what a
 * service may choose, and a variation of the reference service (service/variations/, `--variations`) takes the choice
 * the reference service does not, proving the harness lets it pass.
 *
 * Where the documents were ambiguous, the project decided: either a statement in docs/contract-gaps.md (then it is a
 * rule, judged) or a freedom here (then every choice listed passes). `decision` records which, and why.
 * docs/contract-freedoms.md is generated from this inventory (`npm run freedoms-doc`); test/unit/contract-freedoms.test.ts
 * keeps it, and the link between each freedom and its variation, exact.
 */
import { HOOKS_FREEDOMS } from "./freedoms/hooks.ts";
import { HTTP_FREEDOMS } from "./freedoms/http.ts";
import { LISTS_FREEDOMS } from "./freedoms/lists.ts";
import { RATE_LIMIT_FREEDOMS } from "./freedoms/rate-limit.ts";
import { WEBHOOKS_FREEDOMS } from "./freedoms/webhooks.ts";
import { WIRE_FORMAT_FREEDOMS } from "./freedoms/wire-format.ts";
import type { ContractFreedom } from "./freedoms/types.ts";

export type { ContractFreedom, FreedomArea } from "./freedoms/types.ts";
export { FREEDOM_AREAS } from "./freedoms/types.ts";

export const CONTRACT_FREEDOMS: readonly ContractFreedom[] = [
  ...WIRE_FORMAT_FREEDOMS,
  ...HTTP_FREEDOMS,
  ...LISTS_FREEDOMS,
  ...RATE_LIMIT_FREEDOMS,
  ...WEBHOOKS_FREEDOMS,
  ...HOOKS_FREEDOMS,
];
