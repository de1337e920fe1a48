/**
 * When each toxic goes on and comes off, and which faults were in effect at a given moment. Pure, so the timing
 * rules are unit-tested without Toxiproxy.
 */
import type { ChaosPlan, Link, ScheduledFault } from "./chaos-file.ts";

export interface ScheduleStep {
  /** Seconds after the chaos starts. */
  atSeconds: number;
  action: "add" | "remove";
  fault: ScheduledFault;
}

/**
 * The plan as a time-ordered list of toxic additions and removals. At equal times removals come first, so a fault
 * that follows another of the same type on the same link finds the toxic gone.
 */
export function scheduleSteps(plan: ChaosPlan): ScheduleStep[] {
  const steps: ScheduleStep[] = plan.faults.flatMap((fault) => [
    { atSeconds: fault.startSeconds, action: "add" as const, fault },
    { atSeconds: fault.startSeconds + fault.durationSeconds, action: "remove" as const, fault },
  ]);
  return steps.sort(
    (a, b) => a.atSeconds - b.atSeconds || (a.action === b.action ? 0 : a.action === "remove" ? -1 : 1),
  );
}

/** What really happened to one fault during the run (epoch milliseconds), as chaos.jsonl and the verdict show it. */
export interface TimelineEntry {
  fault: string;
  link: Link;
  type: string;
  attributes: Record<string, number>;
  stream: string;
  toxicity: number;
  plannedStartSeconds: number;
  plannedEndSeconds: number;
  recoverWithinSeconds: number;
  /** When the toxic was in place; undefined: it never was (run ended first, or Toxiproxy refused it). */
  startedAt?: number;
  /** When the toxic was removed (or the run's end, if it was still on). */
  endedAt?: number;
  error?: string;
}

export function timelineEntry(fault: ScheduledFault): TimelineEntry {
  return {
    fault: fault.name,
    link: fault.link,
    type: fault.toxic.type,
    attributes: fault.toxic.attributes,
    stream: fault.toxic.stream,
    toxicity: fault.toxic.toxicity,
    plannedStartSeconds: fault.startSeconds,
    plannedEndSeconds: fault.startSeconds + fault.durationSeconds,
    recoverWithinSeconds: fault.recoverWithinSeconds,
  };
}

/**
 * The faults in effect at a moment: on, or ended less than their recovery time ago. A request that started during a
 * fault ends (and its check runs) after it, and the rule allows that long for the effects to pass.
 */
export function faultsInEffectAt(timeline: readonly TimelineEntry[], time: number, runEnd: number): TimelineEntry[] {
  return timeline.filter((e) => {
    if (e.startedAt === undefined) return false;
    const end = e.endedAt ?? runEnd;
    return time >= e.startedAt && time <= end + e.recoverWithinSeconds * 1000;
  });
}

/** "api-reset (reset_peer on api, 5s-10s)": how the verdict names a fault. */
export function describeFault(e: TimelineEntry, chaosStartedAt: number): string {
  if (e.startedAt === undefined)
    return `${e.fault} (${e.type} on ${e.link}, never applied: ${e.error ?? "the run ended first"})`;
  const at = (ms: number | undefined) => (ms === undefined ? "?" : `${((ms - chaosStartedAt) / 1000).toFixed(1)}s`);
  return `${e.fault} (${e.type} on ${e.link}, ${at(e.startedAt)}-${at(e.endedAt)})`;
}
