/**
 * A small reverse proxy, the second service of test/data/compose/two-service.yml: it stands in front of the reference
 * service the way an ingress or a gateway stands in front of a real deployment, so the compose target is proven with
 * traffic that crosses two containers. Plain node:http, no dependencies: the image is built offline on the reference
 * service's image (no registry).
 *
 * Environment: PROXY_PORT (where it listens on 127.0.0.1), UPSTREAM (e.g. http://127.0.0.1:18080).
 */
import http from "node:http";

const port = Number(process.env.PROXY_PORT);
const upstream = new URL(process.env.UPSTREAM ?? "");
// Kept-alive sockets to the upstream: a new connection per request would cost more than the request under load.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** Requests forwarded, said on stop: proof for the tests that the traffic went through this hop. */
let forwardedCount = 0;

const server = http.createServer((request, response) => {
  forwardedCount += 1;
  const forwarded = http.request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: request.method,
      path: request.url,
      headers: request.headers,
      agent,
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  forwarded.on("error", (error) => {
    // The upstream is not up yet or went away: a gateway's 502, which is what a wait strategy sees until it is up.
    if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
    response.end(`upstream ${upstream.host}: ${error.message}\n`);
  });
  request.pipe(forwarded);
});

server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => {
  console.log(
    JSON.stringify({ event: "listening", proxy: `http://127.0.0.1:${String(port)}`, upstream: upstream.href }),
  );
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    console.log(JSON.stringify({ event: "stopped", forwarded: forwardedCount }));
    server.close();
    server.closeAllConnections();
    agent.destroy();
  });
}
