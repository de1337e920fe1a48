import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-voucher-download-without-key",
  issue: 20,
  area: "conformance",
  description: "A voucher file link is downloaded without X-Authorization: the file goes to whoever has the link.",
});
