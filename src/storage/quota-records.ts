import { z } from 'zod';
import type { QuotaTarget } from '../core/quota.js';
import type { PeriodWindow } from '../core/periods.js';

/*
 * Stored shapes and key layout of the quota ledger, private to src/storage. Every record carries `v` so a
 * later shape can be told apart; anything that fails its schema is treated as corrupt (see quota-store.ts).
 *
 * In the ledger (atomic records, see atomic-store.ts):
 *   usage:{guildId|dm}:{userId}:{day|week|month}:{start}   UsageRecord, expires after its period + slack
 *   job:{jobId}                                             JobReservationRecord, expires with its usage record
 * In keyv:
 *   limit:{guildId}:server | :role:{roleId} | :member:{userId}   LimitRecord, no expiry
 *
 * The money limits (issue 17) are a second meter with the same records under their own prefixes ({@link SPEND}):
 * `spend:…` usage in millionths of a dollar, `spendjob:…` job records and `spendlimit:…` limits.
 */

/** What a ledger counts, and under which key prefixes. */
export interface Meter {
  usage: string;
  job: string;
  limit: string;
  /** A commit charges what it is told even beyond what was reserved (an actual cost above its estimate). */
  uncapped: boolean;
  /** Without a limit set for a member (at any level), nothing is held or counted for them. */
  optional: boolean;
  /** Which of the member's perk multipliers (member-perks.ts) scales the limit that applies to them. */
  multiplier: 'quotaMultiplier' | 'moneyMultiplier';
}

/** Images: every member has a limit (the configured default at least); a commit charges at most what was reserved. */
export const IMAGES: Meter = { usage: 'usage', job: 'job', limit: 'limit', uncapped: false, optional: false, multiplier: 'quotaMultiplier' };
/** Spend in millionths of a US dollar, held only where an admin set a money limit. */
export const SPEND: Meter = { usage: 'spend', job: 'spendjob', limit: 'spendlimit', uncapped: true, optional: true, multiplier: 'moneyMultiplier' };

const Count = z.number().int().nonnegative();

/** An open reservation inside a usage record: a lease that holds `count` images until `expiresAt` unless renewed. */
const Reservation = z.object({ count: Count.positive(), expiresAt: z.number() });

/**
 * A member's usage in one period: committed images, open reservations by job id, and the jobs already committed
 * (job id → when that memory lapses), so a repeated commit charges nothing.
 */
export const UsageRecord = z.object({
  v: z.literal(1),
  used: Count,
  reservations: z.record(z.string(), Reservation),
  committed: z.record(z.string(), z.number()).default({}),
});
export type UsageRecord = z.infer<typeof UsageRecord>;

/** A limit set by an admin on a server, role or member. */
export const LimitRecord = z.object({
  v: z.literal(1),
  limit: Count,
  period: z.enum(['day', 'week', 'month']),
});
export type LimitRecord = z.infer<typeof LimitRecord>;

/**
 * Where a job's reservation lives, so commit, refund and renew find it from the job id alone, and what it reserved,
 * so a commit still charges (at most that) when the reservation itself has lapsed or been released.
 */
export const JobReservationRecord = z.object({
  v: z.literal(1),
  /** The member's key (`{guildId|dm}:{userId}`), which serialises their updates within a process. */
  member: z.string().min(1),
  usageKey: z.string().min(1),
  /** End of the usage record's period, to keep its TTL when rewriting it. */
  periodEnd: z.number(),
  count: Count.positive(),
});
export type JobReservationRecord = z.infer<typeof JobReservationRecord>;

/** The key scope of a subject: its server, or `dm` outside servers. */
export function scopeOf(guildId: string | null): string {
  return guildId ?? 'dm';
}

export function usageKey(scope: string, userId: string, window: PeriodWindow, meter: Meter = IMAGES): string {
  return `${meter.usage}:${scope}:${userId}:${window.label}`;
}

export function limitKey(target: QuotaTarget, meter: Meter = IMAGES): string {
  switch (target.kind) {
    case 'server':
      return `${meter.limit}:${target.guildId}:server`;
    case 'role':
      return `${meter.limit}:${target.guildId}:role:${target.roleId}`;
    case 'member':
      return `${meter.limit}:${target.guildId}:member:${target.userId}`;
  }
}

export function jobKey(jobId: string, meter: Meter = IMAGES): string {
  return `${meter.job}:${jobId}`;
}
