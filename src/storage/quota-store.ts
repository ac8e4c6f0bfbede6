import type pino from 'pino';
import type { Clock, QuotaLedger, QuotaLimit, QuotaStatus, QuotaSubject, QuotaTarget, ReserveOutcome } from '../service/ports.js';
import { StorageCorruptError } from './errors.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { KvStore } from './kv-store.js';
import { type PeriodWindow, periodWindow } from './periods.js';
import { type EffectiveLimit, pickEffectiveLimit } from './quota-limits.js';
import { JobReservationRecord, LimitRecord, UsageRecord, jobKey, limitKey, scopeOf, usageKey } from './quota-records.js';

/** Usage records outlive their period by this much, so a late commit still finds them. */
const USAGE_SLACK_MS = 86_400_000;
const PERIODS = ['day', 'week', 'month'] as const;

/** Options of {@link KeyvQuotaStore}. */
export interface KeyvQuotaStoreOptions {
  kv: KvStore;
  /** Limit for DMs, user-installed contexts and servers without limits (QUOTA_DEFAULT_LIMIT / _PERIOD). */
  defaults: QuotaLimit;
  /** How long an unsettled reservation holds quota: the gateway deadline plus a margin. */
  reservationTtlMs: number;
  clock: Clock;
  logger: pino.Logger;
}

/**
 * The quota ledger over keyv. One usage record per (server or `dm`, member, period); a reservation is one
 * read (limits and usage together) and one write (usage record and job pointer) under the member's
 * in-process lock. keyv has no
 * atomic operations, so exactness relies on one process owning a server's keys: see the README.
 *
 * Corrupt records: a usage record that fails validation is logged at error and every reserve, commit, refund
 * and status on it throws {@link StorageCorruptError} (fail closed) until an admin resets the member's usage,
 * which overwrites it. A corrupt limit record is logged and ignored, so the next level applies. A corrupt job
 * pointer is logged and its job treated as unknown: the reservation then expires on its own.
 */
export class KeyvQuotaStore implements QuotaLedger {
  readonly #kv: KvStore;
  readonly #defaults: QuotaLimit;
  readonly #reservationTtlMs: number;
  readonly #clock: Clock;
  readonly #log: pino.Logger;
  readonly #mutex = new KeyedMutex();

  constructor(options: KeyvQuotaStoreOptions) {
    this.#kv = options.kv;
    this.#defaults = options.defaults;
    this.#reservationTtlMs = options.reservationTtlMs;
    this.#clock = options.clock;
    this.#log = options.logger.child({ module: 'quota-store' });
  }

  async reserve(subject: QuotaSubject, jobId: string, count: number): Promise<ReserveOutcome> {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${count}`);
    if (jobId === '') throw new RangeError('jobId must not be empty');
    return this.#mutex.run(memberKey(subject.guildId, subject.userId), async () => {
      const now = this.#clock.now();
      const { limit, window, key, usage } = await this.#load(subject, now);
      if (usage.reservations[jobId]) return { ok: true, reservationId: jobId, status: toStatus(limit, window, usage) };
      const before = toStatus(limit, window, usage);
      if (usage.used + before.reserved + count > limit.limit) return { ok: false, status: before };
      const expiresAt = now + this.#reservationTtlMs;
      const next: UsageRecord = { ...usage, reservations: { ...usage.reservations, [jobId]: { count, expiresAt } } };
      const job: JobReservationRecord = { v: 1, member: memberKey(subject.guildId, subject.userId), usageKey: key, periodEnd: window.end };
      await this.#kv.setMany([
        { key, value: next, ttlMs: this.#usageTtl(window.end, now) },
        { key: jobKey(jobId), value: job, ttlMs: this.#reservationTtlMs + USAGE_SLACK_MS },
      ]);
      return { ok: true, reservationId: jobId, status: toStatus(limit, window, next) };
    });
  }

  async commit(jobId: string, delivered: number): Promise<void> {
    if (!Number.isInteger(delivered) || delivered < 0) throw new RangeError(`delivered must be a non-negative integer, got ${delivered}`);
    await this.#settle(jobId, delivered);
  }

  async refund(jobId: string): Promise<void> {
    await this.#settle(jobId, 0);
  }

  async status(subject: QuotaSubject): Promise<QuotaStatus> {
    const { limit, window, usage } = await this.#load(subject, this.#clock.now());
    return toStatus(limit, window, usage);
  }

  async setLimit(target: QuotaTarget, limit: QuotaLimit): Promise<{ before: QuotaLimit | undefined; after: QuotaLimit }> {
    const parsed = LimitRecord.safeParse({ v: 1, ...limit });
    if (!parsed.success) throw new RangeError('limit must be a non-negative integer with period day, week or month');
    const key = limitKey(target);
    return this.#mutex.run(key, async () => {
      const before = this.#parseLimit(key, await this.#kv.get(key));
      await this.#kv.set(key, parsed.data, undefined);
      return { before, after: { limit: parsed.data.limit, period: parsed.data.period } };
    });
  }

  /** Clears committed usage in the current day, week and month records (whichever exist); keeps open reservations. */
  async resetUsage(guildId: string, userId: string): Promise<{ usedBefore: number }> {
    return this.#mutex.run(memberKey(guildId, userId), async () => {
      const now = this.#clock.now();
      const slots = PERIODS.map((period) => {
        const window = periodWindow(period, now);
        return { window, key: usageKey(scopeOf(guildId), userId, window) };
      });
      const values = await this.#kv.getMany(slots.map((slot) => slot.key));
      let usedBefore = 0;
      const writes = slots.flatMap(({ window, key }, index) => {
        const raw = values[index];
        if (raw === undefined) return [];
        // A corrupt record is overwritten: this reset is the documented way to repair it.
        const parsed = UsageRecord.safeParse(raw);
        usedBefore = Math.max(usedBefore, parsed.success ? parsed.data.used : 0);
        const next: UsageRecord = { v: 1, used: 0, reservations: parsed.success ? liveReservations(parsed.data, now) : {} };
        return [{ key, value: next, ttlMs: this.#usageTtl(window.end, now) }];
      });
      if (writes.length > 0) await this.#kv.setMany(writes);
      return { usedBefore };
    });
  }

  /** Commits `delivered` (at most what was reserved) and releases the rest. No-op when already settled. */
  async #settle(jobId: string, delivered: number): Promise<void> {
    const job = await this.#readJob(jobId);
    if (!job) return;
    await this.#mutex.run(job.member, async () => {
      const now = this.#clock.now();
      const usage = await this.#readUsage(job.usageKey, now);
      const reservation = usage.reservations[jobId];
      if (!reservation) {
        this.#log.debug({ jobId }, 'settle of a settled or expired reservation ignored');
        return;
      }
      const { [jobId]: _settled, ...reservations } = usage.reservations;
      const next: UsageRecord = { v: 1, used: usage.used + Math.min(delivered, reservation.count), reservations };
      await this.#kv.set(job.usageKey, next, this.#usageTtl(job.periodEnd, now));
    });
  }

  /**
   * One round trip for everything a decision needs: the member, server and role limits and the member's usage
   * records of all three periods (the winning limit picks which one applies).
   */
  async #load(subject: QuotaSubject, now: number): Promise<Loaded> {
    const { guildId, userId } = subject;
    const limitKeys =
      guildId === null
        ? []
        : [
            limitKey({ kind: 'member', guildId, userId }),
            limitKey({ kind: 'server', guildId }),
            ...subject.roleIds.map((roleId) => limitKey({ kind: 'role', guildId, roleId })),
          ];
    const windows = PERIODS.map((period) => periodWindow(period, now));
    const usageKeys = windows.map((window) => usageKey(scopeOf(guildId), userId, window));
    const values = await this.#kv.getMany([...limitKeys, ...usageKeys]);
    const [member, server, ...roles] = limitKeys.map((key, index) => this.#parseLimit(key, values[index]));
    const limit = pickEffectiveLimit({
      member,
      server,
      roles: roles.filter((found): found is QuotaLimit => found !== undefined),
      defaults: this.#defaults,
    });
    const index = PERIODS.indexOf(limit.period);
    const window = windows[index] ?? periodWindow(limit.period, now);
    const key = usageKeys[index] ?? usageKey(scopeOf(guildId), userId, window);
    return { limit, window, key, usage: this.#parseUsage(key, values[limitKeys.length + index], now) };
  }

  #parseLimit(key: string, raw: unknown): QuotaLimit | undefined {
    if (raw === undefined) return undefined;
    const parsed = LimitRecord.safeParse(raw);
    if (parsed.success) return { limit: parsed.data.limit, period: parsed.data.period };
    this.#log.error({ key }, 'corrupt limit record ignored');
    return undefined;
  }

  /** The usage record with expired reservations dropped; empty when missing; throws when corrupt. */
  async #readUsage(key: string, now: number): Promise<UsageRecord> {
    return this.#parseUsage(key, await this.#kv.get(key), now);
  }

  #parseUsage(key: string, raw: unknown, now: number): UsageRecord {
    if (raw === undefined) return { v: 1, used: 0, reservations: {} };
    const parsed = UsageRecord.safeParse(raw);
    if (!parsed.success) {
      this.#log.error({ key }, 'corrupt usage record');
      throw new StorageCorruptError('usage', 'Quota usage record is unreadable; an admin must reset this member');
    }
    return { ...parsed.data, reservations: liveReservations(parsed.data, now) };
  }

  async #readJob(jobId: string): Promise<JobReservationRecord | undefined> {
    const raw = await this.#kv.get(jobKey(jobId));
    if (raw === undefined) return undefined;
    const parsed = JobReservationRecord.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.#log.error({ jobId }, 'corrupt job record ignored');
    return undefined;
  }

  #usageTtl(periodEnd: number, now: number): number {
    return Math.max(periodEnd - now, this.#reservationTtlMs) + USAGE_SLACK_MS;
  }
}

/** What a quota decision is made from. */
interface Loaded {
  limit: EffectiveLimit;
  window: PeriodWindow;
  /** Key of the usage record of the winning limit's period. */
  key: string;
  usage: UsageRecord;
}

/** The lock of a member's quota: all their usage records, whatever the period. */
function memberKey(guildId: string | null, userId: string): string {
  return `${scopeOf(guildId)}:${userId}`;
}

/** Reservations whose `expiresAt` has not passed: this is how an unsettled reservation expires. */
function liveReservations(usage: UsageRecord, now: number): UsageRecord['reservations'] {
  return Object.fromEntries(Object.entries(usage.reservations).filter(([, r]) => r.expiresAt > now));
}

function toStatus(limit: EffectiveLimit, window: PeriodWindow, usage: UsageRecord): QuotaStatus {
  const reserved = Object.values(usage.reservations).reduce((sum, r) => sum + r.count, 0);
  return {
    limit: limit.limit,
    period: limit.period,
    used: usage.used,
    reserved,
    remaining: Math.max(0, limit.limit - usage.used - reserved),
    resetsAt: window.end,
    source: limit.source,
  };
}
