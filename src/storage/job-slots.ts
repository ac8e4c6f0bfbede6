/**
 * What the cluster job slots of every backend share: their limits, their lifetime and how a caller waits for one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { JobSlots, SlotHold, SlotRequest } from '../ports/job-slots.js';

/** The limits the slots hold across every process on the store. */
export interface JobSlotLimits {
  /** Jobs running at once across all processes (MAX_CONCURRENT_JOBS). */
  global: number;
  /** One member's jobs running at once across all processes (MAX_RUNNING_PER_MEMBER). */
  perMember: number;
}

/** Job slots over a backend connection of their own. */
export interface ClusterJobSlots extends JobSlots {
  /** Frees every hold of this process and disconnects; idempotent. */
  close(): Promise<void>;
}

/** First pause between two attempts; it doubles up to {@link MAX_POLL_MS}. */
const FIRST_POLL_MS = 20;
/** Longest pause: how late at most a waiting job notices a freed slot (gateway calls take seconds). */
const MAX_POLL_MS = 250;

/**
 * How Redis's slots wait (PostgreSQL's are woken by a NOTIFY as well: job-slots-postgres.ts).
 * Calls `tryOnce` until it returns a hold, pausing between attempts with capped exponential backoff and jitter (so
 * processes waiting together do not poll in step). Calls `onWait` after the first failed attempt. Once `signal`
 * aborts, rejects with its reason and holds nothing (a hold won meanwhile is released).
 */
export async function pollForHold(tryOnce: () => Promise<SlotHold | undefined>, options: Pick<SlotRequest, 'signal' | 'onWait'>): Promise<SlotHold> {
  const { signal } = options;
  for (let attempt = 0; ; attempt++) {
    signal.throwIfAborted();
    const hold = await tryOnce();
    if (hold !== undefined) {
      if (!signal.aborted) return hold;
      await hold.release();
      signal.throwIfAborted();
    }
    if (attempt === 0) options.onWait?.();
    const pauseMs = Math.min(FIRST_POLL_MS * 2 ** attempt, MAX_POLL_MS) * (0.5 + Math.random() / 2);
    // An abort ends the pause early; the check at the top of the loop then rejects with the signal's reason.
    await sleep(pauseMs, undefined, { signal }).catch(() => undefined);
  }
}
