/**
 * Jobs whose process died: every live process renews its own journal and, on the same beat, claims the jobs of
 * processes whose journal lapsed (a restarted process does the same for its former self). Each claimed job is
 * refunded at once (its reservation would lapse on its own within JOB_LEASE_MS anyway), archived so its Re-roll
 * works, and its member told that it was cancelled and not charged. A job that was delivered (archived with
 * messages) before its process died is only refunded, which charges nothing more.
 */
import type { Logger } from 'pino';
import type { JobArchive } from './job-archive.js';
import { JournalEntry } from './job-journal-entry.js';
import type { AbandonedJobNotifier } from '../ports/abandoned-job-notifier.js';
import { keepLease, type Lease, type LeaseTimers, systemLeaseTimers } from './lease-renewal.js';
import type { AbandonedJobEntry, JobJournal } from '../ports/job-journal.js';
import type { QuotaLedger } from '../ports/quota-ledger.js';
import type { SpendLedger } from '../ports/spend-ledger.js';
import type { ClaimedJobs } from './claimed-jobs.js';

/** Options of {@link AbandonedJobs}. */
export interface AbandonedJobsOptions {
  journal: JobJournal;
  quotas: Pick<QuotaLedger, 'refund'>;
  /** The money limits: a held estimate is released too (a member without one holds nothing there). */
  spend?: Pick<SpendLedger, 'refund'> | undefined;
  archive: Pick<JobArchive, 'recall' | 'rememberAbandoned'>;
  notifier: AbandonedJobNotifier;
  /**
   * JOB_LEASE_MS: the journal is renewed, and lapsed ones are claimed, every sixth of it (a journal lapses two thirds
   * of a lease after its last renewal), so a dead process's members are told within one lease.
   */
  leaseMs: number;
  /** This process's running jobs: those another process claimed (the heartbeat says which) are stopped. */
  claims?: Pick<ClaimedJobs, 'stop'> | undefined;
  /** @default the global timers */
  timers?: LeaseTimers | undefined;
  logger: Logger;
}

/** See the module comment. */
export class AbandonedJobs {
  readonly #options: AbandonedJobsOptions;
  readonly #log: Logger;
  #beat: Lease | undefined;

  constructor(options: AbandonedJobsOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'abandoned-jobs' });
  }

  /** Renews this process's journal and sweeps once now, then every sixth of the lease until {@link stop}. */
  async start(): Promise<void> {
    await this.#tick().catch((err: unknown) => {
      this.#log.warn({ err }, 'job journal unreachable at start; retrying at the next beat');
    });
    this.#beat ??= keepLease({
      renew: () => this.#tick(),
      intervalMs: this.#options.leaseMs / 6,
      timers: this.#options.timers ?? systemLeaseTimers,
      log: this.#log,
    });
  }

  /** Stops the beat; resolves once no sweep is under way. */
  async stop(): Promise<void> {
    await this.#beat?.stop();
  }

  /** Claims the jobs of dead processes and settles each; resolves with how many members were told. */
  async sweep(): Promise<number> {
    const claimed = await this.#options.journal.claimAbandoned();
    let told = 0;
    for (const abandoned of claimed) {
      try {
        if (await this.#settle(abandoned)) told += 1;
      } catch (err) {
        // Told at most once: a claim is not repeated, so a member whose notice failed is not told later.
        this.#log.error({ err, jobId: abandoned.jobId }, 'could not settle an abandoned job');
      }
    }
    return told;
  }

  async #tick(): Promise<void> {
    const claimed = await this.#options.journal.heartbeat();
    const stopped = claimed.length > 0 ? (this.#options.claims?.stop(claimed) ?? 0) : 0;
    if (stopped > 0) this.#log.warn({ stopped }, 'stopped jobs another process claimed; they are neither delivered nor charged here');
    await this.sweep();
  }

  /** Refunds the job and tells its member; false when there was no one to tell (delivered, or unreadable). */
  async #settle({ jobId, entry }: AbandonedJobEntry): Promise<boolean> {
    const { quotas, spend, archive, notifier } = this.#options;
    await Promise.all([quotas.refund(jobId), spend?.refund(jobId)]);
    const parsed = JournalEntry.safeParse(entry);
    if (!parsed.success) {
      this.#log.warn({ jobId }, 'abandoned job refunded; its journal entry is unreadable, so its member cannot be told');
      return false;
    }
    const archived = await archive.recall(jobId);
    if (archived && archived.messageIds.length > 0) {
      this.#log.info({ jobId }, 'abandoned job had been delivered; nothing to tell');
      return false;
    }
    const { job, reply, locale } = parsed.data;
    await archive.rememberAbandoned(jobId, job);
    await notifier.tell({ jobId, prompt: job.request.prompt, requesterId: job.requesterId, guildId: job.guildId, channelId: job.channelId, reply, locale });
    this.#log.info({ jobId }, 'abandoned job refunded and its member told');
    return true;
  }
}
