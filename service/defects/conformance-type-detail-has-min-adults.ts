import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-type-detail-has-min-adults",
  issue: 20,
  area: "conformance",
  description:
    "The whole product type detail carries v1's minAdults and maxAdults beside minPax and maxPax, keys spec 2.4 says are gone.",
});
