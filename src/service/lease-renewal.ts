/**
 * Keeps a job's quota reservation alive: the ledger holds a reservation for one lease period (JOB_LEASE_MS), and a
 * job renews it every third of that while it is queued, generating or delivering, so it never lapses under a live
 * job, while the reservation of a job whose process died frees itself within one lease period.
 */
import type { Logger } from 'pino';

/** The timer functions lease renewal needs; injected so tests can drive time by hand. */
export interface LeaseTimers {
  /**
   * Calls `fn` after `ms` milliseconds. `fn` resolves once the renewal it starts has settled and the next one is
   * scheduled, so a test's timers can await it before moving time on; it never rejects.
   */
  setTimeout(fn: () => Promise<void>, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The global timers; unref'd, so a pending renewal never keeps the process alive by itself. */
export const systemLeaseTimers: LeaseTimers = {
  setTimeout: (fn, ms) =>
    setTimeout(() => {
      // Not awaited: fn never rejects (a failed renewal is logged inside it).
      void fn();
    }, ms).unref(),
  clearTimeout: (handle) => {
    clearTimeout(handle as Parameters<typeof clearTimeout>[0]);
  },
};

/** A running renewal; see {@link keepLease}. */
export interface Lease {
  /** Stops renewing and resolves once no renewal is in flight, so nothing renews after the job settles. Idempotent. */
  stop(): Promise<void>;
}

/** Options of {@link keepLease}. */
export interface KeepLeaseOptions {
  /** Extends the lease (QuotaLedger.renew for the job). */
  renew: () => Promise<void>;
  /** Time between the end of one renewal and the start of the next. */
  intervalMs: number;
  timers: LeaseTimers;
  log: Logger;
}

/**
 * Renews a lease every `intervalMs` until stopped. A renewal that fails (the store is unreachable for a moment) is
 * logged and tried again at the next tick; it never fails the job, whose commit charges what it delivers anyway.
 */
export function keepLease(options: KeepLeaseOptions): Lease {
  const { renew, intervalMs, timers, log } = options;
  let stopped = false;
  let handle: unknown;
  let inFlight: Promise<void> = Promise.resolve();
  const tick = (): Promise<void> => {
    inFlight = renew()
      .catch((err: unknown) => {
        log.warn({ err }, 'lease renewal failed; retrying at the next tick');
      })
      .finally(() => {
        if (!stopped) handle = timers.setTimeout(tick, intervalMs);
      });
    return inFlight;
  };
  handle = timers.setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      timers.clearTimeout(handle);
      await inFlight;
    },
  };
}
