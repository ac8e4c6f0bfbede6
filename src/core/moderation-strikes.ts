/**
 * Moderation strikes (issue 27): every request the gateway's moderation refuses is a strike against its member on
 * that server; MODERATION_STRIKES of them within MODERATION_STRIKE_WINDOW_HOURS pause the member from generating for
 * MODERATION_PAUSE_HOURS, so that one member's prompts cannot earn the whole gateway resource a provider's block.
 * A member's record decides (one atomic update of it per strike, storage/strike-store.ts); the server's record keeps
 * who is paused and each day's strikes and pauses for /usage. Pure (zod and periods.ts only).
 */
import { z } from 'zod';
import { isoDate } from './periods.js';

const DAY_MS = 86_400_000;

/** Days of strikes and pauses a server's record keeps: the longest /usage period (a month) and a little more. */
export const STRIKE_DAYS_KEPT = 40;

/** The rule: `strikes` within `windowMs` pause for `pauseMs`; `strikes` 0 turns it off. */
export interface StrikePolicy {
  strikes: number;
  windowMs: number;
  pauseMs: number;
}

/** Whose strikes: a member of a server, or a user outside servers (`guildId` null, like their quota). */
export interface StrikeMember {
  guildId: string | null;
  userId: string;
}

/** A member's strikes on one server. */
export const MemberStrikes = z.object({
  v: z.literal(1),
  /** When each strike of the current window came (ms since epoch, the injected clock), oldest first. */
  strikes: z.array(z.number()),
  /** Until when the member is paused (ms since epoch); absent or past: not paused. */
  pausedUntil: z.number().optional(),
});
export type MemberStrikes = z.infer<typeof MemberStrikes>;

const DayCounts = z.object({ strikes: z.number().int().nonnegative(), pauses: z.number().int().nonnegative() });
export type DayCounts = z.infer<typeof DayCounts>;

/** A server's moderation: who is paused until when, and each day's (`YYYY-MM-DD`, UTC) strikes and pauses per member. */
export const ServerStrikes = z.object({
  v: z.literal(1),
  paused: z.record(z.string(), z.number()),
  days: z.record(z.string(), z.record(z.string(), DayCounts)),
});
export type ServerStrikes = z.infer<typeof ServerStrikes>;

/** What one strike did. */
export interface StrikeOutcome {
  record: MemberStrikes;
  /** The member's strikes within the window, this one included (none counted while a pause holds). */
  strikes: number;
  /** Set when this strike paused the member: until when. */
  pausedUntil?: number | undefined;
}

/** Until when `record` pauses its member at `now`; undefined when it does not. */
export function pausedUntil(record: MemberStrikes | undefined, now: number): number | undefined {
  const until = record?.pausedUntil;
  return until !== undefined && until > now ? until : undefined;
}

/** The strikes of `record` still within the window at `now`. */
export function strikesWithin(record: MemberStrikes | undefined, now: number, windowMs: number): number[] {
  return (record?.strikes ?? []).filter((at) => at > now - windowMs && at <= now);
}

/**
 * `record` with a strike at `now`. A member already paused stays paused as they are (the strike still counts in
 * the reports); otherwise the strike that makes `policy.strikes` within the window pauses them, and the strikes start
 * again from none once the pause is over.
 */
export function withStrike(record: MemberStrikes | undefined, now: number, policy: StrikePolicy): StrikeOutcome {
  if (record && pausedUntil(record, now) !== undefined) return { record, strikes: record.strikes.length };
  const strikes = [...strikesWithin(record, now, policy.windowMs), now];
  if (strikes.length < policy.strikes) return { record: { v: 1, strikes }, strikes: strikes.length };
  const until = now + policy.pauseMs;
  return { record: { v: 1, strikes: [], pausedUntil: until }, strikes: strikes.length, pausedUntil: until };
}

/** How long the store keeps a member's record after a write at `now`: while a strike or the pause still counts. */
export function memberKeepMs(record: MemberStrikes, now: number, policy: StrikePolicy): number {
  return Math.max(policy.windowMs, (record.pausedUntil ?? now) - now) + 60_000;
}

const EMPTY_SERVER: ServerStrikes = { v: 1, paused: {}, days: {} };

/**
 * The server's record with `userId`'s strike at `now` counted on its day (and its pause, when it paused them), days
 * older than {@link STRIKE_DAYS_KEPT} and pauses already over dropped.
 */
export function withServerStrike(record: ServerStrikes | undefined, userId: string, now: number, pausedUntilNow: number | undefined): ServerStrikes {
  const base = kept(record ?? EMPTY_SERVER, now);
  const day = isoDate(now);
  const was = base.days[day]?.[userId] ?? { strikes: 0, pauses: 0 };
  const counts = { strikes: was.strikes + 1, pauses: was.pauses + (pausedUntilNow === undefined ? 0 : 1) };
  const paused = pausedUntilNow === undefined ? base.paused : { ...base.paused, [userId]: pausedUntilNow };
  return { v: 1, paused, days: { ...base.days, [day]: { ...base.days[day], [userId]: counts } } };
}

/** The server's record without `userId`'s pause (an admin lifted it). */
export function withoutPause(record: ServerStrikes | undefined, userId: string, now: number): ServerStrikes {
  const base = kept(record ?? EMPTY_SERVER, now);
  const paused = Object.fromEntries(Object.entries(base.paused).filter(([id]) => id !== userId));
  return { ...base, paused };
}

function kept(record: ServerStrikes, now: number): ServerStrikes {
  const from = isoDate(now - STRIKE_DAYS_KEPT * DAY_MS);
  return {
    v: 1,
    paused: Object.fromEntries(Object.entries(record.paused).filter(([, until]) => until > now)),
    days: Object.fromEntries(Object.entries(record.days).filter(([day]) => day >= from)),
  };
}

/** The strikes and pauses of `days` in `record`: the server's, or with `userId` one member's. */
export function countStrikes(record: ServerStrikes | undefined, days: readonly string[], userId?: string): DayCounts {
  const total = { strikes: 0, pauses: 0 };
  for (const day of days)
    for (const [id, counts] of Object.entries(record?.days[day] ?? {})) {
      if (userId !== undefined && id !== userId) continue;
      total.strikes += counts.strikes;
      total.pauses += counts.pauses;
    }
  return total;
}
