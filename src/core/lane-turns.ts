/**
 * How the two lanes (issue 32) share the starts, one rule for the process's queue (src/service/fair-queue.ts) and the
 * cluster job slots (src/storage/job-slots-*.ts): while both lanes have a job that could start, the priority lane
 * takes `weight` starts in a row (member-perks.ts PRIORITY_LANE_WEIGHT by default), then the normal lane one. So the priority
 * lane goes first, and the normal lane gets at least one start in every `weight + 1` while it has a job waiting.
 */
import type { Lane } from './server-settings.js';

/**
 * The rule's weight, and its state: `run` counts the priority lane's starts since the normal lane's last one,
 * counted only while the normal lane had a job that could start.
 */
export interface LaneTurns {
  weight: number;
  run: number;
}

/** Which lane starts next when `priority` and `normal` say whether each has a job that could start; undefined: neither. */
export function nextLane(turns: LaneTurns, priority: boolean, normal: boolean): Lane | undefined {
  if (priority && normal) return turns.run >= turns.weight ? 'normal' : 'priority';
  return priority ? 'priority' : normal ? 'normal' : undefined;
}

/** `turns` after a start in `lane`, the normal lane having had a job that could start (`contested`) or not. */
export function afterStart(turns: LaneTurns, lane: Lane, contested: boolean): LaneTurns {
  return { weight: turns.weight, run: lane === 'priority' && contested ? turns.run + 1 : 0 };
}

/** Whether a job of `lane` may start now, the other lane having a job waiting (`otherWaits`) or not. */
export function laneMayStart(turns: LaneTurns, lane: Lane, otherWaits: boolean): boolean {
  const waits = { priority: lane === 'priority' || otherWaits, normal: lane === 'normal' || otherWaits };
  return nextLane(turns, waits.priority, waits.normal) === lane;
}
