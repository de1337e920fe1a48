/** The harness's client of the test-only control API (decisions.md): ground truth and switches a partner lacks. */
import { HEADERS } from "../contract/index.ts";

export interface PartnerInfo {
  apiKey: string;
  name: string;
  alternatives: boolean;
  webhookUrl: string | null;
}

export class ControlClient {
  readonly url: string;
  readonly #token: string;

  constructor(url: string, token: string) {
    this.url = url.replace(/\/+$/, "");
    this.#token = token;
  }

  /** For k6 scenarios that call the control API themselves (scenarios/webhooks.ts): a test-only credential. */
  get token(): string {
    return this.#token;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        [HEADERS.control]: this.#token,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control API ${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async partners(): Promise<PartnerInfo[]> {
    return (await this.request<{ data: PartnerInfo[] }>("GET", "/__control/partners")).data;
  }

  async setDefects(defects: Readonly<Record<string, boolean>>): Promise<void> {
    await this.request("PUT", "/__control/defects", defects);
  }
}
