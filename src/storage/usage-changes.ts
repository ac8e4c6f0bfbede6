/**
 * The quota rules on one usage record, as pure functions of the record and the time: what a reservation, a commit,
 * a refund and a lease renewal make of it. quota-store.ts runs them inside the ledger's atomic updates.
 */
import type { QuotaStatus } from '../core/quota.js';
import { StorageCorruptError } from './errors.js';
import type { PeriodWindow } from '../core/periods.js';
import type { EffectiveLimit } from '../core/quota-precedence.js';
import { UsageRecord } from './quota-records.js';

/** How long a usage record remembers a committed job, so a repeated commit charges nothing. */
export const COMMIT_MEMORY_MS = 86_400_000;

/** A member's usage as it stands at `now`: lapsed reservations and forgotten commits dropped; empty when missing. */
export function readUsage(raw: unknown, now: number): UsageRecord {
  if (raw === undefined) return { v: 1, used: 0, reservations: {}, committed: {} };
  const parsed = UsageRecord.safeParse(raw);
  if (!parsed.success) throw new StorageCorruptError('usage', 'Quota usage record is unreadable; an admin must reset this member');
  const { reservations, committed } = parsed.data;
  return {
    ...parsed.data,
    reservations: Object.fromEntries(Object.entries(reservations).filter(([, r]) => r.expiresAt > now)),
    committed: Object.fromEntries(Object.entries(committed).filter(([, until]) => until > now)),
  };
}

export function statusOf(limit: EffectiveLimit, window: PeriodWindow, usage: UsageRecord): QuotaStatus {
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

/** `usage` with `count` images held for `jobId` until `expiresAt`, or undefined when they do not fit under `limit`. */
export function reserveIn(usage: UsageRecord, limit: number, jobId: string, count: number, expiresAt: number): UsageRecord | undefined {
  const reserved = Object.values(usage.reservations).reduce((sum, r) => sum + r.count, 0);
  if (usage.used + reserved + count > limit) return undefined;
  return { ...usage, reservations: { ...usage.reservations, [jobId]: { count, expiresAt } } };
}

/**
 * `usage` with `charge` images of `jobId` committed and its reservation (if any is left) released: a commit charges
 * whether or not the reservation is still there. Undefined when the job was already committed.
 */
export function commitIn(usage: UsageRecord, jobId: string, charge: number, now: number): UsageRecord | undefined {
  if (jobId in usage.committed) return undefined;
  const { [jobId]: _released, ...reservations } = usage.reservations;
  return { ...usage, used: usage.used + charge, reservations, committed: { ...usage.committed, [jobId]: now + COMMIT_MEMORY_MS } };
}

/** `usage` without `jobId`'s reservation, or undefined when it holds none (refunded, lapsed or committed). */
export function releaseIn(usage: UsageRecord, jobId: string): UsageRecord | undefined {
  if (!(jobId in usage.reservations)) return undefined;
  const { [jobId]: _released, ...reservations } = usage.reservations;
  return { ...usage, reservations };
}

/**
 * `usage` with `jobId`'s lease extended to `expiresAt`. A live job whose reservation lapsed or was released gets its
 * `count` held again (`restored`), so its member cannot book the same quota while it runs. Undefined when the job
 * was committed: there is nothing left to hold.
 */
export function renewIn(usage: UsageRecord, jobId: string, count: number, expiresAt: number): { next: UsageRecord; restored: boolean } | undefined {
  if (jobId in usage.committed) return undefined;
  const held = usage.reservations[jobId];
  const next = { ...usage, reservations: { ...usage.reservations, [jobId]: { count: held?.count ?? count, expiresAt } } };
  return { next, restored: held === undefined };
}
