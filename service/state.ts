/** Everything the service knows, in one object: catalogue, inventory, partners, bookings, clock, limiter, switches. */
import { randomBytes, randomUUID } from "node:crypto";
import { generateCatalogue, type Catalogue, type Product } from "../lib/reference/catalogue.ts";
import { VirtualClock } from "./clock.ts";
import { dayOf } from "../lib/reference/dates.ts";
import { DefectSwitchboard } from "./defects/index.ts";
import { VariationSwitchboard } from "./variations/index.ts";
import { Inventory } from "../lib/reference/inventory.ts";
import type { ServiceOptions } from "./options.ts";
import { seedPartners, type Partner } from "./partners.ts";
import { RateLimiter } from "./ratelimit.ts";
import { Prng, uuidV7 } from "../lib/reference/rng.ts";
import { BookingService } from "./bookings.ts";
import { Webhooks } from "./webhooks.ts";
import type { FaultConfig } from "./faults.ts";

export const NO_FAULTS: FaultConfig = { default: { latencyMs: 0, errorRate: 0, latencyFactor: 1 }, routes: {} };

export class ServiceState {
  readonly options: ServiceOptions;
  readonly clock: VirtualClock;
  readonly limiter: RateLimiter;
  readonly defects = new DefectSwitchboard();
  readonly variations: VariationSwitchboard;
  readonly startedAt = Date.now();
  seed: number;
  catalogue: Catalogue;
  inventory: Inventory;
  partners: Map<string, Partner>;
  faults: FaultConfig = NO_FAULTS;
  random: Prng;
  /** Cached orderings of the product list, by sort key; dropped when content changes. */
  sortCache = new Map<string, Product[]>();
  /** Serialised product list items by "language:index"; dropped when content changes. */
  renderCache = new Map<string, string>();
  readonly webhooks: Webhooks;
  readonly bookings: BookingService;

  constructor(options: ServiceOptions) {
    this.options = options;
    this.seed = options.seed;
    this.variations = new VariationSwitchboard(options.variations);
    this.clock = new VirtualClock(options.timeScale);
    this.limiter = new RateLimiter({
      limit: options.rateLimit,
      windowSeconds: options.rateWindowSeconds,
      algorithm: options.rateAlgorithm,
    });
    for (const name of options.defects) this.defects.set(name, true);
    if (options.faults !== null) this.faults = options.faults;
    this.catalogue = generateCatalogue(this.seed, options.products, dayOf(this.clock.now()), this.uuidVersion());
    this.inventory = new Inventory(this.seed);
    this.partners = seedPartners(this.options.keyPrefix, this.options.seed, this.options.partners);
    this.random = new Prng(this.seed);
    this.webhooks = new Webhooks(this.defects, this.variations, this.clock);
    this.bookings = new BookingService(this, this.webhooks);
  }

  /** The UUID version of identifiers: 7 under wire-uuids-v7 (RFC 9562 5.7), else 4. */
  uuidVersion(): 4 | 7 {
    return this.variations.on("wire-uuids-v7") ? 7 : 4;
  }

  /** A new identifier of something made at run time (a booking, a voucher), of uuidVersion(). */
  newUuid(): string {
    if (this.uuidVersion() === 4) return randomUUID();
    return uuidV7(this.now(), randomBytes(10).toString("hex"));
  }

  /** Virtual now (ms). */
  now(): number {
    return this.clock.now();
  }

  today(): number {
    return dayOf(this.clock.now());
  }

  /** Back to the seeded state: catalogue, inventory, partners, bookings, clock, limiter, events. Defects and faults
   * stay as they are (a test that switched one on keeps it across a reset it did itself). */
  reset(seed: number): void {
    this.seed = seed;
    // The time scale: back to the start setting, or (a variation: the contract leaves it open) as last set.
    this.clock.reset(
      this.variations.on("hooks-reset-keeps-time-scale") ? this.clock.timeScale : this.options.timeScale,
    );
    this.catalogue = generateCatalogue(seed, this.options.products, dayOf(this.clock.now()), this.uuidVersion());
    this.inventory = new Inventory(seed);
    // Keys follow the start seed, not this one: the keys file written at start stays true after any reset.
    this.partners = seedPartners(this.options.keyPrefix, this.options.seed, this.options.partners);
    this.random = new Prng(seed);
    this.sortCache = new Map();
    this.renderCache = new Map();
    this.limiter.reset();
    this.bookings.store.clear();
    this.webhooks.reset();
  }

  bookingCount(): number {
    return this.bookings.store.byUuid.size;
  }

  stop(): void {
    this.clock.stop();
    this.webhooks.stop();
  }
}
