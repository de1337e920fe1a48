/** setup() of the traffic scenarios: the catalogue sample, and a booking per key for the back office to find. */
import { addDays, todayUtc } from "../../contract/index.ts";
import { checkResponse } from "../checks.ts";
import type { K6Config } from "../config.ts";
import { runnerKeys, setupClient } from "../partner.ts";
import { readCatalogueSample, type CatalogueSample } from "./catalogue-sample.ts";
import { bookingRequestFor } from "./journeys.ts";
import type { TrafficModel } from "./model.ts";

/** At most this many keys get a seed booking: enough for the back office, bounded for large key files. */
const MAX_SEEDED_KEYS = 100;

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
      const date = addDays(todayUtc(), type.daysInAdvance + 2 + (k % 10));
      const single = client.getPriceForDate(type.uuid, date);
      const slots = Array.isArray(single.data?.timeslots)
        ? (single.data.timeslots as { timeslot: string; available: boolean }[])
        : [];
      const timeslot = type.timeslotted ? slots.find((s) => s.available)?.timeslot : undefined;
      if (type.timeslotted && !timeslot) continue;
      checkResponse(client.createBooking(bookingRequestFor(type, date, timeslot, k)), [200, 201]);
    }
  }
  return sample;
}
