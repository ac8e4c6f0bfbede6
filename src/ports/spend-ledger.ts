/** The spend ledger port: money limits beside the image quota (implemented in src/storage). */
import type { MoneyLimit, QuotaSubject, QuotaTarget, SpendOutcome, SpendStatus } from '../core/quota.js';

/**
 * The money limits beside the image quota: the same ledger rules (a job's estimate is held as a lease, its actual
 * cost committed, a failure refunds), for members with a money limit set for them, one of their roles or their
 * server. A member without one is neither held nor counted. Exact across processes; fail-closed.
 */
export interface SpendLedger {
  /** Holds `usd` (the job's estimate) for job `jobId` when a money limit applies; refuses when it does not fit. */
  reserve(subject: QuotaSubject, jobId: string, usd: number): Promise<SpendOutcome>;
  /** Extends the job's hold by a lease period (see {@link QuotaLedger.renew}). */
  renew(jobId: string): Promise<void>;
  /** Charges the job's actual cost (even beyond its estimate) and releases its hold; once per job. */
  commit(jobId: string, usd: number): Promise<void>;
  /** Releases the job's hold. */
  refund(jobId: string): Promise<void>;
  /** The member's spending, or undefined when no money limit applies to them. */
  status(subject: QuotaSubject): Promise<SpendStatus | undefined>;
  /** Sets (or with undefined removes) a money limit; returns what was there before and after. */
  setLimit(target: QuotaTarget, limit: MoneyLimit | undefined): Promise<{ before: MoneyLimit | undefined; after: MoneyLimit | undefined }>;
}
