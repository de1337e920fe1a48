/** Control routes over bookings, inventory, catalogue changes and events (added as those parts land). */
import type { Route } from "../http.ts";
import type { ControlHandler } from "./server.ts";

export const extraControlRoutes: Route<ControlHandler>[] = [];
