import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-available-without-timeslots",
  issue: 20,
  area: "conformance",
  description: "Price-list entries of timeslotted product types say available with no timeslots listed.",
});
