/** The quota ledger port (implemented in src/storage). */
import type { QuotaLimit, QuotaStatus, QuotaSubject, QuotaTarget, ReserveOutcome } from '../core/quota.js';

/**
 * The quota ledger: exact under concurrency, also across processes sharing a store; fail-closed (storage errors are
 * thrown). A reservation is a lease: it holds its images for a lease period (JOB_LEASE_MS) unless its job renews it,
 * so the quota of a job whose process died frees itself.
 */
export interface QuotaLedger {
  /** Reserves `count` images for job `jobId` for one lease period; refuses when it does not fit. */
  reserve(subject: QuotaSubject, jobId: string, count: number): Promise<ReserveOutcome>;
  /**
   * Extends the job's lease by a lease period from now. A live job whose reservation lapsed or was released holds
   * its images again. A committed or unknown job is a no-op.
   */
  renew(jobId: string): Promise<void>;
  /**
   * Charges `delivered` images (at most what was reserved) and releases the reservation. Charges even when the
   * reservation has lapsed or was released meanwhile; a second commit of the same job charges nothing.
   */
  commit(jobId: string, delivered: number): Promise<void>;
  /** Releases the whole reservation. A refunded, lapsed, committed or unknown job is a no-op. */
  refund(jobId: string): Promise<void>;
  /** The member's quota now. */
  status(subject: QuotaSubject): Promise<QuotaStatus>;
  /** Sets a limit; returns what was there before (undefined when nothing was set) and after. */
  setLimit(target: QuotaTarget, limit: QuotaLimit): Promise<{ before: QuotaLimit | undefined; after: QuotaLimit }>;
  /** Clears a member's usage in the current period; returns the usage before. */
  resetUsage(guildId: string, userId: string): Promise<{ usedBefore: number }>;
}
