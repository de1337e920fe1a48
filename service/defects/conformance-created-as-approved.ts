import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-created-as-approved",
  issue: 20,
  area: "conformance",
  description:
    "POST /v2/bookings answers the new booking with status approved (the stored booking is reserved, as GET shows).",
});
