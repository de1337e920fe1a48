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

export function prepareTraffic(config: K6Config, model: TrafficModel): CatalogueSample {
  const sample = readCatalogueSample((i) => setupClient(config, i), {
    products: 60,
    withTypes: 12,
    pageSize: model.catalogueSync.pageSize,
  });
  if (model.weights.backOffice > 0) {
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
      checkResponse(client.createBooking(bookingRequestFor(type, date, timeslot, k)), [200, 201]);
    }
  }
  return sample;
}
