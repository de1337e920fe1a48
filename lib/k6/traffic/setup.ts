/** setup() of the traffic scenarios: the catalogue sample, and a booking per key for the back office to find. */
import { addDays, todayUtc } from "../../contract/index.ts";
import { checkResponse } from "../checks.ts";
import type { K6Config } from "../config.ts";
import { runnerKeys, setupClient } from "../partner.ts";
import { readCatalogueSample, type CatalogueSample } from "./catalogue-sample.ts";
import { bookingRequestFor } from "./journeys.ts";
import type { TrafficModel } from "../../contract/traffic-model.ts";

/** At most this many keys get a seed booking: enough for the back office, bounded for large key files. */
const MAX_SEEDED_KEYS = 100;
/** Dates a key's seed booking may move forward to past sold-out ones. */
const SEED_DATES_TRIED = 3;

/** The sample, and the seed booking setup() made for each of this runner's keys (by key index; "" where none). */
export interface TrafficSample extends CatalogueSample {
  seedBookings?: string[];
}

export function prepareTraffic(config: K6Config, model: TrafficModel): TrafficSample {
  const sample = readCatalogueSample((i) => setupClient(config, i), {
    products: 60,
    withTypes: 12,
    pageSize: model.catalogueSync.pageSize,
  });
  const seedBookings: string[] = [];
  // A fitted model's booking reads need a booking to read in a session that made none (fitted-walk.ts).
  if (model.weights.backOffice > 0 || model.fitted) {
    // Each of this runner's keys gets one reserved booking, so that the back office's lists are never empty whatever
    // key it uses.
    const keys = Math.min(runnerKeys(config).keys.length, MAX_SEEDED_KEYS);
    for (let k = 0; k < keys; k++) {
      const type = sample.productTypes[k % sample.productTypes.length];
      if (!type) break;
      const client = setupClient(config, k);
      // The first open date from the key's own: a sold-out one (the reference service seeds about one in twelve)
      // would refuse the booking, rightly.
      let open: { date: string; timeslot: string | undefined } | undefined;
      for (let d = 0; d < SEED_DATES_TRIED && !open; d++) {
        const date = addDays(todayUtc(), type.daysInAdvance + 2 + ((k + d) % 10));
        const single = client.getPriceForDate(type.uuid, date);
        if (single.data?.available !== true) continue;
        const slots = Array.isArray(single.data.timeslots)
          ? (single.data.timeslots as { timeslot: string; available: boolean }[])
          : [];
        const timeslot = type.timeslotted ? slots.find((s) => s.available)?.timeslot : undefined;
        if (!type.timeslotted || timeslot) open = { date, timeslot };
      }
      if (!open) continue;
      const { date, timeslot } = open;
      const created = client.createBooking(bookingRequestFor(type, date, timeslot, k));
      if (checkResponse(created, [200, 201]) && created.data) seedBookings[k] = String(created.data.uuid);
    }
  }
  // Array.from fills the holes of keys that got no booking.
  return { ...sample, seedBookings: Array.from(seedBookings, (uuid: string | undefined) => uuid ?? "") };
}
