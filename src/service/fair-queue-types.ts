/**
 * The public vocabulary of the fair queue: its options, tickets, refusals and errors.
 */
import type { JobSlots } from '../ports/job-slots.js';

/** Limits of a {@link FairQueue}. */
export interface FairQueueOptions {
  /** Jobs running at once across all members. @default 4 */
  concurrency?: number | undefined;
  /** Jobs one member may have running at once. @default 2 */
  perMemberRunning?: number | undefined;
  /** Jobs one member may have waiting; further submissions are refused. @default 10 */
  perMemberQueued?: number | undefined;
  /**
   * Starts the priority lane gets for each one of the normal lane while both have jobs waiting.
   * @default PRIORITY_LANE_WEIGHT (3: ordinary members get at least a quarter of the starts)
   */
  priorityWeight?: number | undefined;
  /**
   * Slots shared with the other processes on the store (Redis, PostgreSQL), so the running caps hold across all of
   * them; without them (SQLite, memory) the caps are this process's own. @default undefined
   */
  slots?: JobSlots | undefined;
}

/** Callbacks about one job's progress through the queue. Errors they throw are ignored. */
export interface SubmitHooks {
  /** 1-based place among waiting jobs; called on accept and whenever it changes while waiting. */
  onPosition?: ((position: number) => void) | undefined;
  /** Called when the job leaves the queue and starts running. */
  onStart?: (() => void) | undefined;
}

/** An accepted job. */
export interface QueueTicket<T> {
  accepted: true;
  id: string;
  /** 0 when it started immediately, else its place among waiting jobs. */
  position: number;
  /** Settles with the job's outcome; rejects with QueueCancelledError or QueueClosedError when the queue stopped it. */
  result: Promise<T>;
  /** Removes the job if waiting, aborts its signal if running; the result then rejects with QueueCancelledError. */
  cancel(): void;
}

/** A refused submission. */
export interface QueueRefusal {
  accepted: false;
  reason: 'member_queue_full' | 'closed';
}

/** The queue was closed before or while the job ran. */
export class QueueClosedError extends Error {
  override name = 'QueueClosedError';
}

/** The job was cancelled through its ticket. */
export class QueueCancelledError extends Error {
  override name = 'QueueCancelledError';
}
