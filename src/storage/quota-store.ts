import type pino from 'pino';
import type { Clock } from '../ports/clock.js';
import type { QuotaLedger } from '../ports/quota-ledger.js';
import type { QuotaLimit, QuotaStatus, QuotaSubject, QuotaTarget, ReserveOutcome } from '../core/quota.js';
import { StorageCorruptError } from './errors.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { KvStore } from './kv-store.js';
import type { Ledger, LedgerChange } from './ledger.js';
import { LimitStore } from './limit-store.js';
import { periodWindow } from '../core/periods.js';
import { IMAGES, JobReservationRecord, type Meter, type UsageRecord, jobKey, scopeOf, usageKey } from './quota-records.js';
import { commitIn, readUsage, releaseIn, renewIn, reserveIn, statusOf } from './usage-changes.js';

/** Usage records outlive their period by this much, so a late commit still finds them. */
const USAGE_SLACK_MS = 86_400_000;
const PERIODS = ['day', 'week', 'month'] as const;

/** Options of {@link QuotaStore}. */
export interface QuotaStoreOptions {
  /** Limits (set by admins) live here. */
  kv: KvStore;
  /** Usage records and job records live here: atomic in the backend itself. */
  ledger: Ledger;
  /** Limit for DMs, user-installed contexts and servers without limits (QUOTA_DEFAULT_LIMIT / _PERIOD). */
  defaults: QuotaLimit;
  /** How long a reservation holds quota unless its job renews it (JOB_LEASE_MS). */
  leaseMs: number;
  /** How long a limit read is used before it is read again (see LimitStore). @default LIMIT_CACHE_MS */
  limitCacheMs?: number | undefined;
  /** What it counts: images (the default), or spend for the money limits (quota-records.ts SPEND). */
  meter?: Meter | undefined;
  clock: Clock;
  logger: pino.Logger;
}

/**
 * The quota ledger. Limits are read through keyv, and kept for a moment (limit-store.ts); each member's usage in a period is one record in the
 * {@link Ledger}, and every reservation, commit, refund and renewal is one atomic update of it in the backend, so
 * processes sharing a store are exact together. A reservation is a lease of `leaseMs` that the job renews; a
 * commit charges what was delivered (at most what was reserved) even when the lease has lapsed, once per job.
 * The in-process lock per member only saves optimistic backends from retrying against this process's own updates.
 *
 * Corrupt records: a usage record that fails validation is logged at error and every reserve, commit, refund,
 * renewal and status on it throws {@link StorageCorruptError} (fail closed) until an admin resets the member's
 * usage, which overwrites it. A corrupt limit record is logged and ignored, so the next level applies. A corrupt job
 * record is logged and its job treated as unknown: its reservation then lapses at the end of its lease.
 */
export class QuotaStore implements QuotaLedger {
  readonly #limits: LimitStore;
  readonly #ledger: Ledger;
  readonly #leaseMs: number;
  readonly #meter: Meter;
  readonly #clock: Clock;
  readonly #log: pino.Logger;
  readonly #mutex = new KeyedMutex();

  constructor(options: QuotaStoreOptions) {
    if (!(options.leaseMs > 0)) throw new RangeError(`leaseMs must be positive, got ${options.leaseMs}`);
    this.#ledger = options.ledger;
    this.#leaseMs = options.leaseMs;
    this.#meter = options.meter ?? IMAGES;
    this.#clock = options.clock;
    this.#log = options.logger.child({ module: 'quota-store' });
    this.#limits = new LimitStore({
      kv: options.kv,
      defaults: options.defaults,
      cacheMs: options.limitCacheMs,
      meter: this.#meter,
      clock: options.clock,
      logger: this.#log,
    });
  }

  async reserve(subject: QuotaSubject, jobId: string, count: number): Promise<ReserveOutcome> {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${count}`);
    if (jobId === '') throw new RangeError('jobId must not be empty');
    const member = memberKey(subject.guildId, subject.userId);
    return this.#mutex.run(member, async () => {
      const now = this.#clock.now();
      const limit = await this.#limits.effective(subject);
      const window = periodWindow(limit.period, now);
      // No limit set for this member: nothing to hold, and nothing to commit or refund later (an unknown job).
      if (this.#meter.optional && limit.source === 'default')
        return { ok: true, reservationId: jobId, status: statusOf(limit, window, readUsage(undefined, now)) };
      const key = usageKey(scopeOf(subject.guildId), subject.userId, window, this.#meter);
      const ttlMs = this.#usageTtl(window.end, now);
      const job: JobReservationRecord = { v: 1, member, usageKey: key, periodEnd: window.end, count };
      return this.#change(key, now, (usage): LedgerChange<ReserveOutcome> => {
        if (usage.reservations[jobId]) return { result: { ok: true, reservationId: jobId, status: statusOf(limit, window, usage) } };
        const next = reserveIn(usage, limit.limit, jobId, count, now + this.#leaseMs);
        if (!next) return { result: { ok: false, status: statusOf(limit, window, usage) } };
        // The job's record is written in the same atomic step, so a reservation is never without it.
        const write = { value: next, ttlMs, beside: [{ key: jobKey(jobId, this.#meter), value: job, ttlMs }] };
        return { result: { ok: true, reservationId: jobId, status: statusOf(limit, window, next) }, write };
      });
    });
  }

  async commit(jobId: string, delivered: number): Promise<void> {
    if (!Number.isInteger(delivered) || delivered < 0) throw new RangeError(`delivered must be a non-negative integer, got ${delivered}`);
    await this.#onJob(jobId, 'commit', (job, usage, now) => {
      const next = commitIn(usage, jobId, this.#meter.uncapped ? delivered : Math.min(delivered, job.count), now);
      return { result: undefined, write: next && { value: next, ttlMs: this.#usageTtl(job.periodEnd, now) } };
    });
  }

  async refund(jobId: string): Promise<void> {
    await this.#onJob(jobId, 'refund', (job, usage, now) => {
      const next = releaseIn(usage, jobId);
      return { result: undefined, write: next && { value: next, ttlMs: this.#usageTtl(job.periodEnd, now) } };
    });
  }

  async renew(jobId: string): Promise<void> {
    const restored = await this.#onJob(jobId, 'renew', (job, usage, now) => {
      const renewed = renewIn(usage, jobId, job.count, now + this.#leaseMs);
      return { result: renewed?.restored ?? false, write: renewed && { value: renewed.next, ttlMs: this.#usageTtl(job.periodEnd, now) } };
    });
    // The job outlived its lease (renewals failed or came late) or someone released it while it ran.
    if (restored) this.#log.warn({ jobId }, 'lapsed reservation held again by its live job');
  }

  async status(subject: QuotaSubject): Promise<QuotaStatus> {
    const now = this.#clock.now();
    const limit = await this.#limits.effective(subject);
    const window = periodWindow(limit.period, now);
    const key = usageKey(scopeOf(subject.guildId), subject.userId, window, this.#meter);
    const usage = this.#read(key, await this.#ledger.get(key), now);
    return statusOf(limit, window, usage);
  }

  setLimit(target: QuotaTarget, limit: QuotaLimit): Promise<{ before: QuotaLimit | undefined; after: QuotaLimit }> {
    return this.#limits.set(target, limit);
  }

  /** Removes a limit, so the next level applies; returns the one removed. */
  clearLimit(target: QuotaTarget): Promise<{ before: QuotaLimit | undefined }> {
    return this.#limits.clear(target);
  }

  /** Clears committed usage in the current day, week and month records (whichever exist); keeps open reservations. */
  async resetUsage(guildId: string, userId: string): Promise<{ usedBefore: number }> {
    return this.#mutex.run(memberKey(guildId, userId), async () => {
      const now = this.#clock.now();
      const used = await Promise.all(
        PERIODS.map((period) => {
          const window = periodWindow(period, now);
          return this.#ledger.update(usageKey(scopeOf(guildId), userId, window, this.#meter), (raw): LedgerChange<number> => {
            if (raw === undefined) return { result: 0 };
            // A corrupt record is overwritten: this reset is the documented way to repair it.
            const usage = safeRead(raw, now);
            const next = { v: 1, used: 0, reservations: usage?.reservations ?? {}, committed: usage?.committed ?? {} };
            return { result: usage?.used ?? 0, write: { value: next, ttlMs: this.#usageTtl(window.end, now) } };
          });
        }),
      );
      return { usedBefore: Math.max(...used) };
    });
  }

  /** Runs `change` on the usage record of a known job, in one atomic update; undefined for an unknown job. */
  async #onJob<R>(
    jobId: string,
    action: string,
    change: (job: JobReservationRecord, usage: UsageRecord, now: number) => LedgerChange<R>,
  ): Promise<R | undefined> {
    const job = await this.#readJob(jobId);
    if (!job) {
      // Job records live as long as their usage record, so only a corrupt or removed one ends here.
      if (action === 'commit' && !this.#meter.optional) this.#log.warn({ jobId }, 'commit for an unknown job: delivered images not charged');
      else this.#log.debug({ jobId, action }, 'quota change for an unknown job ignored');
      return undefined;
    }
    return this.#mutex.run(job.member, () => {
      const now = this.#clock.now();
      return this.#change(job.usageKey, now, (usage) => change(job, usage, now));
    });
  }

  /** One atomic update of the usage record at `key`, seen as it stands at `now`. */
  async #change<R>(key: string, now: number, change: (usage: UsageRecord) => LedgerChange<R>): Promise<R> {
    try {
      return await this.#ledger.update(key, (raw) => change(readUsage(raw, now)));
    } catch (error) {
      if (error instanceof StorageCorruptError) this.#log.error({ key }, 'corrupt usage record');
      throw error;
    }
  }

  #read(key: string, raw: unknown, now: number): UsageRecord {
    try {
      return readUsage(raw, now);
    } catch (error) {
      if (error instanceof StorageCorruptError) this.#log.error({ key }, 'corrupt usage record');
      throw error;
    }
  }

  async #readJob(jobId: string): Promise<JobReservationRecord | undefined> {
    const raw = await this.#ledger.get(jobKey(jobId, this.#meter));
    if (raw === undefined) return undefined;
    const parsed = JobReservationRecord.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.#log.error({ jobId }, 'corrupt job record ignored');
    return undefined;
  }

  #usageTtl(periodEnd: number, now: number): number {
    return Math.max(periodEnd - now, this.#leaseMs) + USAGE_SLACK_MS;
  }
}

/** The usage record, or undefined when it is corrupt. */
function safeRead(raw: unknown, now: number): UsageRecord | undefined {
  try {
    return readUsage(raw, now);
  } catch {
    return undefined;
  }
}

/** A member's quota key: all their usage records, whatever the period. */
function memberKey(guildId: string | null, userId: string): string {
  return `${scopeOf(guildId)}:${userId}`;
}
