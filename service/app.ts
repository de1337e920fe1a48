/**
 * createService: the reference service in-process (tests) or behind main.ts (the process contract).
 * Two node:http listeners: the partner API and the control API.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { AccessLog } from "./access-log.ts";
import { createApiHandler } from "./api/server.ts";
import { createControlHandler } from "./control/server.ts";
import { writeKeysFile } from "./keys-file.ts";
import { Metrics } from "./metrics.ts";
import { DEFAULT_OPTIONS, type ServiceOptions } from "./options.ts";
import { ServiceState } from "./state.ts";

/**
 * How long both listeners keep an idle keep-alive connection (Node's default: 5 s). k6 reuses a connection idle for
 * seconds between iterations, and a close racing that reuse loses the answer: a POST booking, or a POST clock hook
 * that the harness does not send again.
 */
const IDLE_CONNECTION_MS = 65_000;

export interface StartedService extends AsyncDisposable {
  apiUrl: string;
  controlUrl: string;
  controlToken: string;
  /** The live state, for in-process tests that want ground truth without HTTP. */
  state: ServiceState;
  stop(): Promise<void>;
}

/** Raised when a listener cannot bind (address in use, permission). */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListenError";
  }
}

function listen(server: Server, port: number, host: string, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === "EADDRINUSE"
          ? `port ${port} on ${host} is already in use`
          : error.code === "EACCES"
            ? `port ${port} on ${host} needs privileges`
            : `it failed (${error.code ?? error.message})`;
      reject(new ListenError(`the ${what} listener cannot bind: ${reason}`));
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

function trackConnections(server: Server, onChange?: (delta: number) => void): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    onChange?.(1);
    socket.once("close", () => {
      sockets.delete(socket);
      onChange?.(-1);
    });
  });
  return sockets;
}

export async function createService(options: Partial<ServiceOptions> = {}): Promise<StartedService> {
  const opts: ServiceOptions = { ...DEFAULT_OPTIONS, ...options };
  const state = new ServiceState(opts);
  const metrics = new Metrics();
  metrics.gauges.set("atd_bookings_total", () => state.bookingCount());
  metrics.gauges.set("atd_inventory_slots_touched", () => state.inventory.size);
  metrics.gauges.set("atd_scheduled_tasks", () => state.clock.pendingTasks);

  const apiHandler = createApiHandler(state, metrics);
  const controlHandler = createControlHandler(state, metrics, opts.controlToken);
  const accessLog = opts.accessLog === null ? undefined : new AccessLog(opts.accessLog);
  const api = createServer({ keepAliveTimeout: IDLE_CONNECTION_MS }, (req, res) => {
    accessLog?.track(req, res);
    void apiHandler(req, res);
  });
  const control = createServer({ keepAliveTimeout: IDLE_CONNECTION_MS }, (req, res) => {
    void controlHandler(req, res);
  });
  api.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  });
  const apiSockets = trackConnections(api, (delta) => (metrics.openConnections += delta));
  const controlSockets = trackConnections(control);

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    state.stop();
    metrics.stop();
    const closed = Promise.all(
      [api, control].map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.listening)
              s.close(() => {
                resolve();
              });
            else resolve();
          }),
      ),
    );
    for (const s of [...apiSockets, ...controlSockets]) s.destroy();
    api.closeAllConnections();
    control.closeAllConnections();
    await closed;
    await accessLog?.close();
  };

  try {
    const apiPort = await listen(api, opts.port, opts.host, "API");
    const controlPort = await listen(control, opts.controlPort, opts.host, "control");
    // After both binds, before the caller hears "listening": whoever waits for that line finds the file.
    if (opts.keysFile !== null) await writeKeysFile(opts.keysFile, state.partners.values());
    return {
      apiUrl: urlOf(opts.host, apiPort),
      controlUrl: urlOf(opts.host, controlPort),
      controlToken: opts.controlToken,
      state,
      stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
