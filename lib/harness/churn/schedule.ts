/**
 * The churn schedule: a pure, seeded sequence of inventory changes, so a run's churn can be replayed exactly (same
 * seed, same targets, same configuration -> same changes at the same offsets). The driver (extension.ts) applies it.
 */
import { addDays } from "../../contract/index.ts";
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import { CHURN_KINDS, type ChurnConfig, type ChurnKind } from "./config.ts";

export interface ChurnChange {
  seq: number;
  /** Milliseconds after the driver's start. */
  atMs: number;
  /** Milliseconds after the driver's start when it is undone; undefined for content updates (not undone). */
  restoreAtMs: number | undefined;
  kind: ChurnKind;
  productTypeUuid: string;
  /** Slot changes only. */
  date?: string;
  timeslot?: string;
  /** capacity-cut: the share of seats kept; caps: the cap per category. */
  keepShare?: number;
  cap?: number;
}

/** mulberry32: small, fast and the same on every platform. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weighted(random: () => number, mix: ChurnConfig["mix"]): ChurnKind {
  const total = CHURN_KINDS.reduce((sum, k) => sum + mix[k], 0);
  let x = random() * total;
  for (const kind of CHURN_KINDS) {
    x -= mix[kind];
    if (x < 0) return kind;
  }
  return CHURN_KINDS.find((k) => mix[k] > 0) ?? "content";
}

/** The first `count` changes of the schedule (or those starting before `untilMs`). */
export function churnSchedule(
  seed: number,
  config: ChurnConfig,
  targets: readonly ControlProductType[],
  today: string,
  limits: { count?: number; untilMs?: number },
): ChurnChange[] {
  const changes: ChurnChange[] = [];
  if (targets.length === 0 || config.ratePerSecond <= 0) return changes;
  const random = prng(seed ^ 0x43485552);
  const gapMs = 1000 / config.ratePerSecond;
  const maxCount = limits.count ?? Number.POSITIVE_INFINITY;
  for (let seq = 0; seq < maxCount; seq++) {
    // Poisson-like arrivals around the configured rate: jitter within one gap keeps the order.
    const atMs = Math.round((seq + random()) * gapMs);
    if (limits.untilMs !== undefined && atMs >= limits.untilMs) break;
    const kind = weighted(random, config.mix);
    const target = targets[Math.floor(random() * targets.length)] as ControlProductType;
    const span = config.days.to - config.days.from + 1;
    const date = addDays(today, target.daysInAdvance + config.days.from + Math.floor(random() * span));
    const timeslot = target.timeslots.length
      ? target.timeslots[Math.floor(random() * target.timeslots.length)]
      : undefined;
    const hold = config.holdSeconds.min + random() * (config.holdSeconds.max - config.holdSeconds.min);
    const change: ChurnChange = {
      seq,
      atMs,
      restoreAtMs: kind === "content" ? undefined : atMs + Math.round(hold * 1000),
      kind,
      productTypeUuid: target.uuid,
    };
    if (kind === "capacity-cut" || kind === "sell-out-timeslot" || kind === "caps") {
      change.date = date;
      if (timeslot !== undefined) change.timeslot = timeslot;
    }
    if (kind === "sell-out-date") change.date = date;
    if (kind === "capacity-cut") change.keepShare = Math.round((0.1 + random() * 0.4) * 100) / 100;
    if (kind === "caps") change.cap = 1 + Math.floor(random() * 3);
    changes.push(change);
  }
  return changes;
}
