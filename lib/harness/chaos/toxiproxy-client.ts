/**
 * A small typed client of Toxiproxy's HTTP API (populate, reset, toxics, delete). The npm toxiproxy-node-client
 * covers the same calls but drops Toxiproxy's error text ("Request failed with status code 409") and cannot bound a
 * call in time; here every call has a timeout and an error says what Toxiproxy said.
 */
import type { Toxic } from "./chaos-file.ts";

export interface ProxySpec {
  name: string;
  /** host:port Toxiproxy listens on for this proxy. */
  listen: string;
  /** host:port it forwards to. */
  upstream: string;
}

export interface ProxyState extends ProxySpec {
  enabled: boolean;
  toxics: ({ name: string } & Toxic)[];
}

const CALL_TIMEOUT_MS = 5000;

export class ToxiproxyClient {
  readonly url: string;

  constructor(url: string) {
    this.url = url.replace(/\/+$/, "");
  }

  async version(): Promise<string> {
    return this.#call<string>("GET", "/version", undefined, "text");
  }

  /** Creates the proxies, or replaces those whose listen or upstream changed (Toxiproxy's own -config semantics). */
  async populate(proxies: readonly ProxySpec[]): Promise<void> {
    await this.#call(
      "POST",
      "/populate",
      proxies.map((p) => ({ ...p, enabled: true })),
    );
  }

  /** Enables every proxy and removes every toxic. */
  async reset(): Promise<void> {
    await this.#call("POST", "/reset");
  }

  async proxies(): Promise<Record<string, ProxyState>> {
    return this.#call<Record<string, ProxyState>>("GET", "/proxies");
  }

  async addToxic(proxy: string, name: string, toxic: Toxic): Promise<void> {
    await this.#call("POST", `/proxies/${encodeURIComponent(proxy)}/toxics`, { name, ...toxic });
  }

  async removeToxic(proxy: string, name: string): Promise<void> {
    await this.#call("DELETE", `/proxies/${encodeURIComponent(proxy)}/toxics/${encodeURIComponent(name)}`);
  }

  async removeProxy(name: string): Promise<void> {
    await this.#call("DELETE", `/proxies/${encodeURIComponent(name)}`);
  }

  async #call<T>(method: string, route: string, body?: unknown, as: "json" | "text" = "json"): Promise<T> {
    const response = await fetch(`${this.url}${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`Toxiproxy answered ${method} ${route} with ${response.status}: ${text.trim()}`);
    }
    if (as === "text") return text.trim() as T;
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
