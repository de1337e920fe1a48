/** Small HTTP plumbing shared by the API and control listeners: errors, replies, bodies, routing. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { ERROR_CODES, type Link } from "../lib/contract/index.ts";

export const MAX_BODY_BYTES = 64 * 1024;

/** A failure with its status and envelope code; `extra` lands inside `error` (e.g. alternatives). */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(
    status: number,
    code: string,
    message: string,
    extra?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, ERROR_CODES.invalidParams, message);
}

export function notFound(message: string): HttpError {
  return new HttpError(404, ERROR_CODES.notFound, message);
}

export function invalidData(message: string): HttpError {
  return new HttpError(422, ERROR_CODES.invalidData, message);
}

export interface Reply {
  status: number;
  /** A JSON value, or raw bytes with `contentType`. */
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export function link(rel: string, href: string, method = "GET"): Link {
  return { rel, href, method };
}

export function errorBody(
  error: { code: string; message: string; status: number; extra?: Record<string, unknown> | undefined },
  path: string,
  method: string,
  nowMs: number,
): unknown {
  return {
    error: { code: error.code, message: error.message, http_code: error.status, ...error.extra },
    links: [link("self", path, method)],
    timestamp: new Date(nowMs).toISOString(),
  };
}

/**
 * How an answer is framed and labelled on the wire where the contract leaves it open (the http-* variations of
 * service/variations/); the default is Content-Length, no content coding, the header names as written here.
 */
export interface WireOptions {
  /** Compress with gzip (the request's Accept-Encoding accepted it): Content-Encoding and Vary say so. */
  gzip: boolean;
  /** Transfer-Encoding: chunked, the body in more than one chunk, no Content-Length. */
  chunked: boolean;
  /** Header names in lower case. */
  lowerCaseHeaders: boolean;
  /** `application/json; charset=utf-8` for JSON. */
  jsonCharset: boolean;
}

/**
 * Writes a reply, with Content-Length unless `wire` says otherwise; JSON unless the body is a Buffer or string with its
 * own content type.
 */
export function send(
  res: ServerResponse,
  reply: Reply,
  extraHeaders?: Record<string, string | number>,
  wire?: WireOptions,
): void {
  let payload: string | Buffer;
  let contentType: string;
  if (Buffer.isBuffer(reply.body) || typeof reply.body === "string") {
    payload = reply.body;
    contentType = reply.contentType ?? "application/octet-stream";
  } else {
    payload = JSON.stringify(reply.body);
    contentType = reply.contentType ?? "application/json";
  }
  if (wire === undefined) {
    res.writeHead(reply.status, {
      "Content-Type": contentType,
      "Content-Length": Buffer.byteLength(payload),
      ...extraHeaders,
      ...reply.headers,
    });
    res.end(payload);
    return;
  }
  sendAsVaried(res, reply, { contentType, payload, extraHeaders, wire });
}

function sendAsVaried(
  res: ServerResponse,
  reply: Reply,
  answer: {
    contentType: string;
    payload: string | Buffer;
    extraHeaders: Record<string, string | number> | undefined;
    wire: WireOptions;
  },
): void {
  const { contentType, extraHeaders, wire } = answer;
  const bytes = wire.gzip ? gzipSync(answer.payload) : Buffer.from(answer.payload);
  const headers: Record<string, string | number> = {
    "Content-Type":
      wire.jsonCharset && contentType === "application/json" ? `${contentType}; charset=utf-8` : contentType,
    ...(wire.chunked ? {} : { "Content-Length": bytes.length }),
    ...(wire.gzip ? { "Content-Encoding": "gzip", Vary: "Accept-Encoding" } : {}),
    ...extraHeaders,
    ...reply.headers,
  };
  const named = wire.lowerCaseHeaders
    ? Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
    : headers;
  res.writeHead(reply.status, named);
  if (!wire.chunked) {
    res.end(bytes);
    return;
  }
  // Without Content-Length, Node frames HTTP/1.1 answers as chunks: one per write.
  const half = Math.ceil(bytes.length / 2);
  res.write(bytes.subarray(0, half));
  res.end(bytes.subarray(half));
}

/**
 * Whether an Accept-Encoding value accepts gzip (RFC 9110 12.5.3): gzip, x-gzip or `*` with a weight above 0, unless
 * gzip itself is given weight 0.
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return false;
  let wildcard = false;
  for (const part of acceptEncoding.split(",")) {
    const [coding = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (coding === "gzip" || coding === "x-gzip") return accepted;
    if (coding === "*") wildcard = accepted;
  }
  return wildcard;
}

/** How much of an oversized body is drained before the 413 is sent; a larger one is answered at once and cut off. */
const MAX_DRAIN_BYTES = 1024 * 1024;

/**
 * Reads a request body up to `limit` bytes; over it: 413, and the rest is drained, not buffered. The 413 waits for the
 * drain (up to MAX_DRAIN_BYTES): a client still sending its body when the connection closes can get a reset instead
 * of the answer.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const tooLarge = () =>
    new HttpError(413, "payload_too_large", `The request body is larger than ${limit} bytes.`, undefined, {
      Connection: "close",
    });
  const declared = Number(req.headers["content-length"] ?? "0");
  if (Number.isFinite(declared) && declared > limit) {
    return new Promise((_resolve, reject) => {
      const refuse = () => {
        reject(tooLarge());
      };
      if (declared > MAX_DRAIN_BYTES) refuse();
      else {
        req.once("end", refuse);
        req.once("error", refuse);
      }
      req.resume();
    });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on("error", (error) => {
      if (!failed) {
        failed = true;
        reject(error);
      }
    });
  });
}

/** Parses a JSON object body: 400 malformed_json when it is not JSON, 400 invalid_params when not an object. */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, ERROR_CODES.malformedJson, "The request body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest("The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

/** A route: a path template split into segments; `{name}` segments capture. */
export interface Route<H> {
  name: string;
  template: string;
  segments: string[];
  handlers: Partial<Record<string, H>>;
}

export function defineRoute<H>(name: string, template: string, handlers: Partial<Record<string, H>>): Route<H> {
  return { name, template, segments: template.split("/").slice(1), handlers };
}

export interface RouteMatch<H> {
  route: Route<H>;
  params: Record<string, string>;
}

export function matchRoute<H>(routes: readonly Route<H>[], path: string): RouteMatch<H> | undefined {
  const parts = path.split("/");
  // parts[0] is "" (path starts with "/"); a trailing slash gives a final "" that no template has.
  for (const route of routes) {
    const segs = route.segments;
    if (segs.length !== parts.length - 1) continue;
    let ok = true;
    let params: Record<string, string> | undefined;
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i] ?? "";
      const part = parts[i + 1] ?? "";
      if (seg.charCodeAt(0) === 123 /* { */) {
        if (part === "") {
          ok = false;
          break;
        }
        params ??= {};
        let value = part;
        if (part.includes("%")) {
          try {
            value = decodeURIComponent(part);
          } catch {
            ok = false;
            break;
          }
        }
        params[seg.slice(1, -1)] = value;
      } else if (seg !== part) {
        ok = false;
        break;
      }
    }
    if (ok) return { route, params: params ?? {} };
  }
  return undefined;
}
