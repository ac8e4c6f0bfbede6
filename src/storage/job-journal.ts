/**
 * The job journal (the JobJournal port) over the ledger's atomic records: each process keeps the ids of its open
 * jobs in one record of its own, renewed as a lease, and each job's entry (where to answer it) in a record beside it.
 * A process whose lease lapsed is dead to the others; the first to claim its record takes its jobs, atomically, so
 * each job is claimed once however many processes sweep.
 *
 * In the ledger:
 *   journal:processes          ProcessList: the processes that have a journal (listed once, on their first write)
 *   journal:process:{id}       ProcessRecord: lease expiry, open job ids, ids claimed by others while it looked dead
 *   journal:job:{jobId}        JobEntryRecord: the service's entry, written with the id, dropped when the job closes
 *                              or is claimed
 */
import { randomUUID } from 'node:crypto';
import type pino from 'pino';
import { z } from 'zod';
import type { AbandonedJobEntry, JobJournal } from '../ports/job-journal.js';
import type { Clock } from '../ports/clock.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { Ledger, LedgerChange } from './ledger.js';

const LIST_KEY = 'journal:processes';
const processKey = (id: string) => `journal:process:${id}`;
const entryKey = (jobId: string) => `journal:job:${jobId}`;

/** How long the backend keeps journal records (real time) after their last write: longer than any job lives. */
const RECORD_TTL_MS = 7 * 86_400_000;
/** A lapsed process with nothing left to claim leaves the list after this long (a restart gets a new id). */
const FORGET_AFTER_MS = 86_400_000;
/** The list is rewritten at least this often (by the heartbeats), so its TTL never runs out under live processes. */
const LIST_REFRESH_MS = 86_400_000;

const ProcessList = z.object({ v: z.literal(1), processes: z.array(z.string()), touchedAt: z.number().default(0) });
const ProcessRecord = z.object({
  v: z.literal(1),
  expiresAt: z.number(),
  jobs: z.array(z.string()),
  /** Jobs another process claimed while this one looked dead; handed to this one's next heartbeat. */
  claimed: z.array(z.string()).default([]),
});
type ProcessRecord = z.infer<typeof ProcessRecord>;
const JobEntryRecord = z.object({ v: z.literal(1), entry: z.unknown() });

/** Options of {@link LedgerJobJournal}. */
export interface LedgerJobJournalOptions {
  ledger: Ledger;
  /**
   * JOB_LEASE_MS. A process that has not renewed its journal for two thirds of it is dead to the others; renewed every
   * sixth (AbandonedJobs), that leaves room for three missed renewals, and a dead process's members are told within
   * one lease of its death.
   */
  leaseMs: number;
  clock: Clock;
  logger: pino.Logger;
  /** This process's id in the journal. @default a random UUID (a restarted process is a new one) */
  processId?: string | undefined;
}

/** See the module comment. */
export class LedgerJobJournal implements JobJournal {
  readonly #ledger: Ledger;
  /** How long a renewal keeps this process alive in the others' eyes. */
  readonly #lapseMs: number;
  readonly #clock: Clock;
  readonly #log: pino.Logger;
  readonly #id: string;
  readonly #key: string;
  /** Serialises this process's writes of its own record, so they never race each other. */
  readonly #mutex = new KeyedMutex();
  #listed: Promise<void> | undefined;

  constructor(options: LedgerJobJournalOptions) {
    this.#ledger = options.ledger;
    this.#lapseMs = (options.leaseMs * 2) / 3;
    this.#clock = options.clock;
    this.#id = options.processId ?? randomUUID();
    this.#key = processKey(this.#id);
    this.#log = options.logger.child({ module: 'job-journal', process: this.#id });
  }

  /** This process's id in the journal. */
  get processId(): string {
    return this.#id;
  }

  async open(jobId: string, entry: unknown): Promise<void> {
    await this.#changeOwn((own, now) => ({
      result: undefined,
      write: {
        value: { ...own, expiresAt: Math.max(own.expiresAt, now + this.#lapseMs), jobs: [...own.jobs.filter((id) => id !== jobId), jobId] },
        ttlMs: RECORD_TTL_MS,
        beside: [{ key: entryKey(jobId), value: { v: 1, entry }, ttlMs: RECORD_TTL_MS }],
      },
    }));
  }

  async close(jobId: string): Promise<void> {
    await this.#changeOwn((own) => ({
      result: undefined,
      // The entry holds an interaction token: dropped now rather than left to expire.
      write: {
        value: { ...own, jobs: own.jobs.filter((id) => id !== jobId) },
        ttlMs: RECORD_TTL_MS,
        beside: [{ key: entryKey(jobId), value: null, ttlMs: 1 }],
      },
    }));
  }

  async heartbeat(): Promise<string[]> {
    // Listed again if the list was lost or this process was dropped from it; refreshed once a day.
    await this.#list();
    const claimed = await this.#changeOwn((own, now) => ({
      result: own.claimed,
      write: { value: { ...own, expiresAt: now + this.#lapseMs, claimed: [] }, ttlMs: RECORD_TTL_MS },
    }));
    if (claimed.length > 0) this.#log.error({ jobs: claimed.length }, 'another process took this process for dead and claimed its jobs');
    return claimed;
  }

  async claimAbandoned(): Promise<AbandonedJobEntry[]> {
    const list = ProcessList.safeParse(await this.#ledger.get(LIST_KEY));
    const others = list.success ? list.data.processes.filter((id) => id !== this.#id) : [];
    const claimed: AbandonedJobEntry[] = [];
    const forget: string[] = [];
    for (const id of others) {
      const now = this.#clock.now();
      const ids = await this.#ledger.update(processKey(id), (raw): LedgerChange<string[] | 'forget'> => {
        const record = ProcessRecord.safeParse(raw);
        if (!record.success) return { result: 'forget' };
        const { expiresAt, jobs, claimed: before } = record.data;
        if (expiresAt > now) return { result: [] };
        if (jobs.length === 0) return { result: expiresAt < now - FORGET_AFTER_MS ? 'forget' : [] };
        // Claimed: the jobs leave the dead process's record in the same step, so no other claimer sees them.
        return { result: jobs, write: { value: { ...record.data, jobs: [], claimed: [...before, ...jobs] }, ttlMs: RECORD_TTL_MS } };
      });
      if (ids === 'forget') {
        forget.push(id);
        continue;
      }
      for (const jobId of ids) {
        claimed.push({ jobId, entry: await this.#entry(jobId) });
        // The entry holds an interaction token and the request: gone once taken, not kept for the records' 7 days.
        await this.#ledger.delete(entryKey(jobId));
      }
      if (ids.length > 0) this.#log.warn({ from: id, jobs: ids.length }, 'claimed the jobs of a process whose journal lapsed');
    }
    if (forget.length > 0) await this.#updateList((ids) => ids.filter((id) => !forget.includes(id)));
    return claimed;
  }

  async retire(): Promise<void> {
    await this.#changeOwn((own) => ({ result: undefined, write: { value: { ...own, expiresAt: 0 }, ttlMs: RECORD_TTL_MS } }));
    await this.#updateList((ids) => ids.filter((id) => id !== this.#id));
    this.#listed = undefined;
  }

  /** One atomic change of this process's record (listing the process first, once). */
  async #changeOwn<R>(change: (own: ProcessRecord, now: number) => LedgerChange<R>): Promise<R> {
    this.#listed ??= this.#list().catch((error: unknown) => {
      this.#listed = undefined;
      throw error;
    });
    await this.#listed;
    return this.#mutex.run(this.#key, () => {
      const now = this.#clock.now();
      return this.#ledger.update(this.#key, (raw) => {
        const parsed = ProcessRecord.safeParse(raw);
        // Missing (first write) or unreadable: start again; the jobs it named can no longer be told apart.
        const own: ProcessRecord = parsed.success ? parsed.data : { v: 1, expiresAt: now + this.#lapseMs, jobs: [], claimed: [] };
        return change(own, now);
      });
    });
  }

  #list(): Promise<void> {
    return this.#updateList((ids) => (ids.includes(this.#id) ? ids : [...ids, this.#id]));
  }

  /** Changes the list of processes; writes only when it changed or is due for a refresh. */
  async #updateList(change: (ids: string[]) => string[]): Promise<void> {
    const now = this.#clock.now();
    await this.#ledger.update(LIST_KEY, (raw) => {
      const parsed = ProcessList.safeParse(raw);
      const ids = parsed.success ? parsed.data.processes : [];
      const next = change(ids);
      const fresh = parsed.success && now - parsed.data.touchedAt < LIST_REFRESH_MS;
      return {
        result: undefined,
        write: next.length === ids.length && fresh ? undefined : { value: { v: 1, processes: next, touchedAt: now }, ttlMs: RECORD_TTL_MS },
      };
    });
  }

  async #entry(jobId: string): Promise<unknown> {
    const parsed = JobEntryRecord.safeParse(await this.#ledger.get(entryKey(jobId)));
    return parsed.success ? parsed.data.entry : undefined;
  }
}
