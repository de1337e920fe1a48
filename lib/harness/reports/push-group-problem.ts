/**
 * What a --push-group value may be, apart from the push itself (push-to-gateway.ts), so that reading the flag does
 * not load the Prometheus client.
 */

/** Grouping label values go into the URL path; the Pushgateway needs other encodings for "/" and empty values. */
const PUSH_GROUP = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$/;

/** Says what is wrong with a --push-group value, or nothing when it can be a grouping label. */
export function pushGroupProblem(group: string): string | undefined {
  return PUSH_GROUP.test(group)
    ? undefined
    : `"${group}" is not 1-63 letters, digits, "_", ".", ":" or "-" starting with a letter or digit`;
}
