/**
 * Step 3, hold: everything a job holds while it runs, as one object. The journal entry (so another process can tell
 * the member if this one dies), the quota reservation of its images, the spend hold of its estimate where a money
 * limit applies, and the lease that renews both every third of JOB_LEASE_MS until the job settles. It ends with
 * exactly one of {@link JobHolds.commit} and {@link JobHolds.refund}; neither rejects (a ledger that cannot be
 * reached lets the hold lapse with its lease).
 */
import type { Logger } from 'pino';
import { UserFacingError } from '../../errors.js';
import { journalEntryOf } from '../job-journal-entry.js';
import type { ImageJob, ReplyAddress } from '../../core/jobs.js';
import { keepLease, type Lease } from '../lease-renewal.js';
import type { QuotaStatus, SpendStatus } from '../../core/quota.js';
import type { JobDeps } from './deps.js';
import type { Prepared } from './job-values.js';

type HoldsDeps = JobDeps['holds'];

/** A job's holds; see the module comment. */
export class JobHolds {
  private readonly deps: HoldsDeps;
  private readonly jobId: string;
  private readonly log: Logger;
  /** The estimate is held (a money limit applies), so it is renewed, committed or refunded with the images. */
  readonly spendHeld: boolean;
  private readonly lease: Lease;

  private constructor(deps: HoldsDeps, jobId: string, spendHeld: boolean, log: Logger) {
    this.deps = deps;
    this.jobId = jobId;
    this.spendHeld = spendHeld;
    this.log = log;
    this.lease = keepLease({ renew: () => this.renew(), intervalMs: deps.jobLeaseMs / 3, timers: deps.leaseTimers, log });
  }

  /**
   * Journals the job (before anything is reserved, so a process that dies in between leaves a member to tell), then
   * reserves its images and its estimated cost where a money limit applies (refused when a limit applies and the
   * model's prices are not known). A refusal gives back what was held and closes the journal entry.
   */
  static async reserve(deps: HoldsDeps, job: ImageJob, prepared: Prepared, reply: ReplyAddress | undefined, log: Logger): Promise<JobHolds> {
    await deps.journal?.open(job.id, journalEntryOf(job, reply));
    try {
      const count = prepared.request.n ?? 1;
      const outcome = await deps.quotas.reserve(job.subject, job.id, count);
      if (!outcome.ok) throw quotaError(outcome.status, count);
      return new JobHolds(deps, job.id, await JobHolds.holdSpend(deps, job, prepared, log), log);
    } catch (err) {
      await closeJournal(deps, job.id, log);
      throw err;
    }
  }

  /** Holds the estimate where a money limit applies; a refusal gives the images back. */
  private static async holdSpend(deps: HoldsDeps, job: ImageJob, { estimate, unpricedModel }: Prepared, log: Logger): Promise<boolean> {
    const { spend } = deps;
    if (!spend) return false;
    try {
      if (estimate === undefined) {
        const status = await spend.status(job.subject);
        if (status) throw new UserFacingError('spend.unpriced', { model: unpricedModel });
        return false;
      }
      const held = await spend.reserve(job.subject, job.id, estimate);
      if (!held.ok) throw spendError(held.status, estimate);
      return held.held;
    } catch (err) {
      await refundQuota(deps, job.id, log);
      throw err;
    }
  }

  /** Extends the holds by a lease period (the lease calls it every third of one). */
  async renew(): Promise<void> {
    await Promise.all([this.deps.quotas.renew(this.jobId), this.spendHeld ? this.deps.spend?.renew(this.jobId) : undefined]);
  }

  /** Charges the delivered images, and the cost (`usd`: actual, else estimated) where a money limit held it. */
  async commit(delivered: number, usd: number): Promise<void> {
    await this.lease.stop();
    try {
      await this.deps.quotas.commit(this.jobId, delivered);
    } catch (err) {
      // The images are posted; the reservation, no longer renewed, lapses with its lease: the member is at worst not charged.
      this.log.error({ err }, 'quota commit failed');
    }
    if (this.spendHeld) {
      await this.deps.spend?.commit(this.jobId, usd).catch((err: unknown) => {
        this.log.error({ err }, 'spend commit failed; the estimate lapses with its lease');
      });
    }
    await closeJournal(this.deps, this.jobId, this.log);
  }

  /** Gives the images back, and the money held but `chargeUsd` (prompt help that ran), which is committed. */
  async refund(chargeUsd = 0): Promise<void> {
    await this.lease.stop();
    await refundQuota(this.deps, this.jobId, this.log);
    if (this.spendHeld) {
      const spend = this.deps.spend;
      const settle = chargeUsd > 0 ? spend?.commit(this.jobId, chargeUsd) : spend?.refund(this.jobId);
      await settle?.catch((err: unknown) => {
        this.log.error({ err }, `spend ${chargeUsd > 0 ? 'commit' : 'refund'} failed; the estimate lapses with its lease`);
      });
    }
    await closeJournal(this.deps, this.jobId, this.log);
  }
}

async function refundQuota(deps: HoldsDeps, jobId: string, log: Logger): Promise<void> {
  try {
    await deps.quotas.refund(jobId);
  } catch (err) {
    log.error({ err }, 'quota refund failed; the reservation lapses with its lease');
  }
}

async function closeJournal(deps: HoldsDeps, jobId: string, log: Logger): Promise<void> {
  await deps.journal?.close(jobId).catch((err: unknown) => {
    log.warn({ err }, 'could not close the job in the journal');
  });
}

/** The refusal of a request beyond the member's money limit. */
export function spendError(status: SpendStatus, estimate: number): UserFacingError {
  if (status.usd === 0) return new UserFacingError('quota.blocked');
  return new UserFacingError('spend.exceeded', { estimateUsd: estimate, limitUsd: status.usd, remainingUsd: status.remaining, resetsAt: status.resetsAt });
}

/** The refusal of a request beyond the member's image quota. */
export function quotaError(status: QuotaStatus, requested: number): UserFacingError {
  if (status.limit === 0) return new UserFacingError('quota.blocked');
  return new UserFacingError('quota.exceeded', { limit: status.limit, remaining: status.remaining, resetsAt: status.resetsAt, requested });
}
