/**
 * A small Node client of the public partner API for `harness hooks check`: it sees each hook's effect the way a
 * partner would. Every exchange is reported (a failure's evidence); a 429 is waited out (Retry-After) and retried,
 * since the six catalogue GETs share one allowance per key.
 */
import { ENDPOINTS, HEADERS, fillPath, isErrorEnvelope, isRecord, type EndpointName } from "../../contract/index.ts";
import { describeFetchError } from "../describe-fetch-error.ts";
import type { Exchange } from "./hooks-client.ts";

const TIMEOUT_MS = 10_000;
const MAX_RATE_LIMIT_WAITS = 3;
const MAX_RETRY_AFTER_SECONDS = 65;

/** The partner API gave no HTTP answer. */
export class PartnerApiUnreachableError extends Error {
  readonly url: string;
  readonly reason: string;
  constructor(method: string, url: string, reason: string) {
    super(`partner API ${method} ${url} gave no answer: ${reason}`);
    this.name = "PartnerApiUnreachableError";
    this.url = url;
    this.reason = reason;
  }
}

export interface PartnerAnswer {
  status: number;
  /** The parsed body, undefined when it is not JSON. */
  body: unknown;
  /** `data` of a detail or list envelope. */
  data: unknown;
  /** `error.code` of an error envelope. */
  errorCode: string | undefined;
  exchange: Exchange;
}

export interface PartnerCall {
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string | number>>;
  body?: unknown;
  /** Another key than the client's own. */
  key?: string;
}

export class PartnerApi {
  readonly baseUrl: string;
  readonly key: string;
  readonly #onExchange: ((exchange: Exchange) => void) | undefined;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(
    baseUrl: string,
    key: string,
    options: { onExchange?: (exchange: Exchange) => void; sleep?: (ms: number) => Promise<void> } = {},
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.key = key;
    this.#onExchange = options.onExchange;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async send(endpoint: EndpointName, call: PartnerCall = {}): Promise<PartnerAnswer> {
    const spec = ENDPOINTS[endpoint];
    const search = new URLSearchParams(
      Object.entries(call.query ?? {}).map(([k, v]) => [k, String(v)] as [string, string]),
    ).toString();
    const url = `${this.baseUrl}${fillPath(spec.path, call.params ?? {})}${search === "" ? "" : `?${search}`}`;
    for (let wait = 0; ; wait++) {
      let res: Response;
      try {
        res = await fetch(url, {
          method: spec.method,
          headers: {
            [HEADERS.auth]: call.key ?? this.key,
            Accept: "application/json",
            ...(call.body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw new PartnerApiUnreachableError(spec.method, url, describeFetchError(error));
      }
      const text = await res.text();
      const exchange: Exchange = {
        method: spec.method,
        url,
        ...(call.body === undefined ? {} : { requestBody: call.body }),
        status: res.status,
        text,
      };
      this.#onExchange?.(exchange);
      if (res.status === 429 && wait < MAX_RATE_LIMIT_WAITS) {
        const seconds = Number(res.headers.get(HEADERS.retryAfter));
        await this.#sleep(
          1000 * (Number.isFinite(seconds) ? Math.min(Math.max(seconds, 1), MAX_RETRY_AFTER_SECONDS) : 1),
        );
        continue;
      }
      let body: unknown;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        body = undefined;
      }
      return {
        status: res.status,
        body,
        data: isRecord(body) ? body.data : undefined,
        errorCode: isErrorEnvelope(body) ? body.error.code : undefined,
        exchange,
      };
    }
  }
}
