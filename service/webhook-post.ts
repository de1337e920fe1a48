/**
 * One webhook POST over node:http(s), with a keep-alive agent per service. Not fetch: undici's fetch registers each
 * request made with a signal in a FinalizationRegistry whose held value keeps the signal and its abort listener
 * alive (nodejs/node#52203, nodejs/undici#5822). Every delivery's request graph then survives the scavenger, is
 * promoted to the old generation and waits there for a major GC. Measured with 40 partners registered and catalogue
 * changes fanned out to all of them (80 deliveries a second): RSS grew about 100 MiB/min and the heap swung up to
 * 140 MiB between major GCs, although a full GC left only the event ledger. With node:http both stay flat. In a soak
 * with churn and webhooks on, the soak's memory rule flagged that growth as a leak.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/** The receiver closed a kept-alive socket just as it was reused: the request never reached it. */
class StaleSocketError extends Error {}

export class WebhookPoster {
  // Sockets are reused between deliveries. Node's agent drops an idle socket a second before the keep-alive timeout
  // the receiver announces, so few stale sockets are ever reused.
  readonly #http = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  readonly #https = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

  /**
   * POSTs `body` and resolves with the answer's status once its body has been read. Rejects on a transport error or
   * when `signal` aborts. A request that fails on a stale kept-alive socket is sent once more on another socket
   * (what Node's docs advise for `request.reusedSocket`). The receiver never saw it, so it is still the same attempt.
   */
  async post(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<number> {
    try {
      return await this.#send(url, headers, body, signal);
    } catch (error) {
      if (!(error instanceof StaleSocketError) || signal.aborted) throw error;
      return this.#send(url, headers, body, signal);
    }
  }

  /** Closes every kept-alive socket. */
  destroy(): void {
    this.#http.destroy();
    this.#https.destroy();
  }

  #send(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<number> {
    return new Promise((resolve, reject) => {
      const target = new URL(url);
      const https = target.protocol === "https:";
      const req: ClientRequest = (https ? httpsRequest : httpRequest)(
        target,
        {
          method: "POST",
          headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
          agent: https ? this.#https : this.#http,
          signal,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          // The body is read and thrown away so that the socket can be reused; a body cut short does not change the
          // status that was already answered.
          res.on("end", () => {
            resolve(status);
          });
          res.on("error", () => {
            resolve(status);
          });
          res.resume();
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => {
        reject(req.reusedSocket && error.code === "ECONNRESET" ? new StaleSocketError(error.message) : error);
      });
      req.end(body);
    });
  }
}
