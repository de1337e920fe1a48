import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "wire-extra-keys",
  freedom: "wire-format-extra-keys",
  description:
    'The booking detail, the origin restrictions and the config carry keys the contract does not name, holding null, empty and nested values (timeslotUuid: null, supplierReference: "", tags: [], attributes: {}, a pickup object), and the objects nested in an answer\'s data and links (links, timeslots, options, photos, categories, locations) carry one more key (note: null).',
});
