import type { Lane } from '../core/server-settings.js';

/**
 * Job slots shared by every process on one store, so MAX_CONCURRENT_JOBS and MAX_RUNNING_PER_MEMBER hold across all
 * of them: a job holds one global slot and one of its member's while it runs. The Redis and PostgreSQL stores offer
 * them; the hold of a process that died frees itself (PostgreSQL with its connection, Redis when its expiry passes
 * unrefreshed).
 *
 * Lanes (issue 32): the jobs waiting for a slot, in every process, share the freed slots by the lanes' rule
 * (src/core/lane-turns.ts): while jobs of both lanes wait, the priority lane takes at most PRIORITY_LANE_WEIGHT slots
 * in a row before a waiting normal job takes one.
 */
export interface JobSlots {
  /**
   * Waits until a global slot and one of `memberId`'s are both free, and it is `lane`'s turn (normal by default),
   * and holds them. Calls `onWait` once when they are not free at the first try. Rejects with `signal.reason` once
   * `signal` aborts, holding nothing then, and with a StorageUnavailableError when the store fails.
   */
  acquire(memberId: string, options: SlotRequest): Promise<SlotHold>;
}

/** How a job asks for its slots. */
export interface SlotRequest {
  signal: AbortSignal;
  onWait?: (() => void) | undefined;
  /** The lane the job waits in. @default 'normal' */
  lane?: Lane | undefined;
}

/** The slots one job holds. */
export interface SlotHold {
  /** Frees them; idempotent, and never rejects (a failure is logged, and the hold lapses on its own). */
  release(): Promise<void>;
}
