/** The contract's freedoms of HTTP: encodings, framing, connections, headers. */
import type { ContractFreedom } from "./types.ts";

export const HTTP_FREEDOMS: readonly ContractFreedom[] = [
  {
    id: "http-connection-reuse",
    area: "http",
    question: "Whether a connection is kept alive for further requests or closed after an answer.",
    choices: ["kept alive (HTTP/1.1 persistent connections)", "closed after every answer (Connection: close)"],
    source: "interface-spec.md 4.0 (nothing is said of connections); RFC 9112 9.3 and 9.6",
    variation: { name: "http-connection-close" },
  },
];
