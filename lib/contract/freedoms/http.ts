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
  {
    id: "http-compression",
    area: "http",
    question: "Whether an answer is compressed when the request's Accept-Encoding accepts a content coding.",
    choices: [
      "never (identity)",
      "with a coding the request accepts (gzip; Content-Encoding says which), also for failures",
    ],
    source: "interface-spec.md 4.0 (nothing is said of encodings); RFC 9110 8.4 and 12.5.3",
    variation: { name: "http-gzip" },
    decision:
      "The harness's partner requests say Accept-Encoding: gzip, as partners' HTTP clients do, so a service that compresses is judged on what it compresses; k6 decodes gzip, deflate (zlib), br and zstd before any check reads the body. A coding the request did not accept is the service's error, and a body that does not decode fails as a failed request.",
  },
  {
    id: "http-body-framing",
    area: "http",
    question: "Whether an answer's length is given by Content-Length or its body is sent in chunks.",
    choices: ["Content-Length", "Transfer-Encoding: chunked"],
    source: "interface-spec.md 4.0 (nothing is said of framing); RFC 9112 6.1 and 6.3",
    variation: { name: "http-chunked" },
  },
  {
    id: "http-header-case",
    area: "http",
    question: "In which case the service writes header names (X-RateLimit-Limit, x-ratelimit-limit...).",
    choices: ["as the spec writes them (X-RateLimit-Limit, Content-Type)", "any case (lower case as in HTTP/2)"],
    source: "interface-spec.md 7.1 and 8 (header names); RFC 9110 5.1 (field names are case-insensitive)",
    variation: { name: "http-header-case" },
  },
  {
    id: "http-json-media-type",
    area: "http",
    question: "Whether a JSON answer's Content-Type carries a charset parameter.",
    choices: ["application/json", "application/json; charset=utf-8"],
    source:
      "contract-gaps.md Wire format and error codes (JSON bodies); RFC 8259 8.1 and 11 (UTF-8; the parameter has no effect)",
    variation: { name: "http-json-charset" },
  },
];
