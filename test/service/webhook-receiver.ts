/** A tiny webhook receiver for the service tests: records deliveries and answers with the next queued status. */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Answers each delivery with the next of `statuses` (200 once they run out), after `answerAfterMs`; `mostAtOnce` is
 * the largest number of deliveries it held at one time.
 */
export async function receiver(statuses: number[] = [], answerAfterMs = 0) {
  const deliveries: ReceivedDelivery[] = [];
  let inFlight = 0;
  const seen = { mostAtOnce: 0 };
  const server = createServer((req, res) => {
    inFlight++;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, inFlight);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      const status = statuses.shift() ?? 200;
      setTimeout(() => {
        inFlight--;
        res.writeHead(status).end();
      }, answerAfterMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    seen,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
