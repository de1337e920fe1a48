/**
 * The baseline of the service benchmark: a bare node:http server answering every request with one fixed JSON body
 * (the same bytes the reference service returns for the endpoint under test). Usage: node bench/bare-server.ts <file>
 * Prints {"port":N} once listening; SIGTERM stops it.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write("Usage: node bench/bare-server.ts <body-file>\n");
  process.exit(2);
}
const body = readFileSync(file);
const server = createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
