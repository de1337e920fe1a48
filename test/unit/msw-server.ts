/** An msw server for one describe block: listening for its tests, handlers reset after each, closed at the end. */
import { afterAll, afterEach, beforeAll } from "vitest";
import { setupServer, type SetupServer } from "msw/node";

export function useMswServer(): SetupServer {
  const server = setupServer();
  beforeAll(() => {
    // A request no handler answers fails the test instead of reaching the network.
    server.listen({ onUnhandledFrame: "error" });
  });
  afterEach(() => {
    server.resetHandlers();
  });
  afterAll(() => {
    server.close();
  });
  return server;
}
