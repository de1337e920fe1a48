/**
 * The rate-limit probe's view of one answer: status, the rate-limit headers parsed (undefined when absent or not a
 * whole number), the response's Date, and when the answer arrived on this machine's clock.
 */
import http from "k6/http";
import { HEADERS, RATE_LIMITED_ENDPOINTS, type EndpointName } from "../../contract/index.ts";
import { ApiClient, header, type ApiResponse } from "../client.ts";
import type { K6Config } from "../config.ts";

export interface ProbeTargets {
  productUuid: string;
  productTypeUuid: string;
  date: string;
}

export interface Answer {
  endpoint: EndpointName;
  status: number;
  limit: number | undefined;
  remaining: number | undefined;
  retryAfterRaw: string | undefined;
  retryAfter: number | undefined;
  resetRaw: string | undefined;
  reset: number | undefined;
  /** The Date header as UNIX seconds. */
  date: number | undefined;
  contentType: string;
  /** Local receive time, ms since the epoch. */
  at: number;
  res: ApiResponse<unknown>;
}

const WHOLE = /^\s*\d+\s*$/;

function whole(raw: string | undefined): number | undefined {
  return raw !== undefined && WHOLE.test(raw) ? Number(raw) : undefined;
}

export function toAnswer(res: ApiResponse<unknown>): Answer {
  const retryAfterRaw = header(res, HEADERS.retryAfter);
  const resetRaw = header(res, HEADERS.rateLimitReset);
  const dateRaw = header(res, "Date");
  const dateMs = dateRaw ? Date.parse(dateRaw) : NaN;
  return {
    endpoint: res.endpoint,
    status: res.status,
    limit: whole(header(res, HEADERS.rateLimitLimit)),
    remaining: whole(header(res, HEADERS.rateLimitRemaining)),
    retryAfterRaw,
    retryAfter: whole(retryAfterRaw),
    resetRaw,
    reset: whole(resetRaw),
    date: Number.isFinite(dateMs) ? Math.floor(dateMs / 1000) : undefined,
    contentType: header(res, "Content-Type") ?? "",
    at: Date.now(),
    res,
  };
}

/** A client per dedicated key that hands every 429 back (the probe inspects them; it never waits on its own). */
export function probeClient(config: K6Config, apiKey: string): ApiClient {
  return new ApiClient({
    baseUrl: config.baseUrl,
    apiKey,
    timeout: config.requestTimeout,
    phase: "load",
    onThrottle: "return",
    maxThrottleWaitSeconds: 0,
  });
}

/** One GET to a listed endpoint by name. */
export function hit(client: ApiClient, endpoint: EndpointName, t: ProbeTargets): Answer {
  switch (endpoint) {
    case "products":
      return toAnswer(client.listProducts({ per_page: 1 }));
    case "product":
      return toAnswer(client.getProduct(t.productUuid));
    case "productTypes":
      return toAnswer(client.listProductTypes(t.productUuid));
    case "productType":
      return toAnswer(client.getProductType(t.productTypeUuid));
    case "priceList":
      return toAnswer(client.getPriceList(t.productTypeUuid, t.date, t.date));
    case "priceListDate":
      return toAnswer(client.getPriceForDate(t.productTypeUuid, t.date));
    default:
      throw new Error(`Failed to probe ${endpoint}: it is not one of the six rate-limited endpoints.`);
  }
}

/** The six listed endpoints in round-robin order from an offset. */
export function listedEndpoint(i: number): EndpointName {
  return RATE_LIMITED_ENDPOINTS[i % RATE_LIMITED_ENDPOINTS.length] as EndpointName;
}

/** Sends requests to one endpoint until the first 429 or `max` requests; returns the answers. */
export function burstUntil429(
  client: ApiClient,
  t: ProbeTargets,
  max: number,
  endpoint: EndpointName = "products",
): Answer[] {
  const answers: Answer[] = [];
  for (let i = 0; i < max; i++) {
    const a = hit(client, endpoint, t);
    answers.push(a);
    if (a.status === 429) break;
  }
  return answers;
}

/** `parallel` requests at once on one key (k6 http.batch over as many connections), for the concurrency probe. */
export function parallelHits(config: K6Config, apiKey: string, t: ProbeTargets, parallel: number): number[] {
  const url = `${config.baseUrl}/v2/product-types/${t.productTypeUuid}/price-lists/${t.date}`;
  const params = {
    headers: { [HEADERS.auth]: apiKey },
    timeout: config.requestTimeout,
    tags: { endpoint: "priceListDate", name: "/v2/product-types/{uuid}/price-lists/{date}" },
  };
  const requests = Array.from({ length: parallel }, () => ({ method: "GET", url, params }));
  return http.batch(requests).map((r) => r.status);
}

export function firstProductTargets(client: ApiClient, date: string): ProbeTargets {
  const products = client.listProducts({ per_page: 1 });
  const product = products.data?.[0];
  const types = product ? client.listProductTypes(String(product.uuid)) : undefined;
  const type = types?.data?.[0];
  if (!product || !type) {
    throw new Error(
      `Failed to find a product and product type to probe: GET /v2/products answered ${products.status}. Please check the target and keys.`,
    );
  }
  return { productUuid: String(product.uuid), productTypeUuid: String(type.uuid), date };
}
