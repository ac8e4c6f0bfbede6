/**
 * What /quota tells a member about their quota and their spending, and an admin about a change, in their language
 * (the interaction's locale). `who` is the mention of the member an admin asked about, or undefined for the member themselves.
 */
import { formatUsd, t } from '../../i18n/translate.js';
import type { StrikeStatus } from '../../core/reports.js';
import type { MoneyLimit, QuotaLimit, QuotaStatus, QuotaTarget, SpendStatus } from '../../core/quota.js';

const timestamp = (ms: number): string => `<t:${Math.ceil(ms / 1000)}:R>`;
/** A moment as a date and time each client writes in its own language and time zone. */
const dateTime = (ms: number): string => `<t:${Math.ceil(ms / 1000)}:f>`;

/** Text of a member's quota. */
export function renderStatus(status: QuotaStatus, who: string | undefined, locale?: string | null): string {
  const self = who === undefined ? 'yes' : 'no';
  if (status.limit === 0) return t(locale, 'quota.blocked', { self, who: who ?? '' });
  return [
    t(locale, 'quota.status', { self, who: who ?? '', remaining: status.remaining, limit: status.limit, period: status.period }),
    t(locale, 'quota.used', {
      used: status.used,
      hasReserved: status.reserved > 0 ? 'yes' : 'no',
      reserved: status.reserved,
      resetsAt: timestamp(status.resetsAt),
    }),
    t(locale, 'quota.limitFrom', { source: status.source }),
  ].join('\n');
}

/** Text of a member's spending against the money limit that applies to them. */
export function renderSpending(status: SpendStatus, who: string | undefined, locale?: string | null): string {
  const self = who === undefined ? 'yes' : 'no';
  if (status.usd === 0) return t(locale, 'spending.blocked', { self, who: who ?? '' });
  const money = (value: number) => formatUsd(locale, value);
  return [
    t(locale, 'spending.status', {
      spent: money(status.spent),
      limit: money(status.usd),
      period: status.period,
      hasReserved: status.reserved > 0 ? 'yes' : 'no',
      reserved: money(status.reserved),
      remaining: money(status.remaining),
    }),
    t(locale, 'spending.note', { resetsAt: timestamp(status.resetsAt), source: status.source }),
  ].join('\n');
}

/** Whom an admin's change applies to: a member or a role (mentioned), or everyone on the server. */
function targetText(target: QuotaTarget, locale?: string | null): string {
  if (target.kind === 'member') return `<@${target.userId}>`;
  if (target.kind === 'role') return `<@&${target.roleId}>`;
  return t(locale, 'admin.quota.everyone');
}

/** The answer to `/quota set`: the limit now, and what it was. */
export function renderLimitChange(
  target: QuotaTarget,
  { before, after }: { before: QuotaLimit | undefined; after: QuotaLimit },
  locale?: string | null,
): string {
  return t(locale, 'admin.quota.set', {
    who: targetText(target, locale),
    blocked: after.limit === 0 ? 'yes' : 'no',
    limit: after.limit,
    period: after.period,
    hasBefore: before ? 'yes' : 'no',
    before: before?.limit ?? 0,
    beforePeriod: before?.period ?? after.period,
  });
}

/** The answer to `/quota money` and `/quota money-remove`: the money limit now (or none), and what it was. */
export function renderMoneyChange(
  target: QuotaTarget,
  { before, after }: { before: MoneyLimit | undefined; after: MoneyLimit | undefined },
  locale?: string | null,
): string {
  return t(locale, 'admin.quota.money', {
    who: targetText(target, locale),
    state: after === undefined ? 'removed' : after.usd === 0 ? 'blocked' : 'limited',
    usd: formatUsd(locale, after?.usd),
    period: after?.period ?? before?.period ?? 'month',
    hasBefore: before ? 'yes' : 'no',
    beforeUsd: formatUsd(locale, before?.usd),
    beforePeriod: before?.period ?? 'month',
  });
}

/** The answer to `/quota reset`: whose usage was cleared, and what it was. */
export function renderUsageReset(userId: string, usedBefore: number, locale?: string | null): string {
  return t(locale, 'admin.quota.reset', { who: `<@${userId}>`, used: usedBefore });
}

/** What /quota show adds about moderation strikes: the member's pause, else their strikes within the window (if any). */
export function renderStrikes(status: StrikeStatus | undefined, who: string | undefined, locale?: string | null): string | undefined {
  if (status === undefined) return undefined;
  if (status.pausedUntil !== undefined)
    return t(locale, 'quota.paused', { self: who === undefined ? 'yes' : 'no', who: who ?? '', until: dateTime(status.pausedUntil) });
  if (status.strikes === 0) return undefined;
  return t(locale, 'quota.strikes', { hours: status.windowHours, strikes: status.strikes, limit: status.limit });
}

/** The answer to `/quota strikes-clear`: whose strikes were cleared, how many, and the pause lifted. */
export function renderStrikesCleared(userId: string, before: StrikeStatus, locale?: string | null): string {
  return t(locale, 'admin.quota.strikesCleared', {
    who: `<@${userId}>`,
    strikes: before.strikes,
    paused: before.pausedUntil === undefined ? 'no' : 'yes',
    until: before.pausedUntil === undefined ? '' : dateTime(before.pausedUntil),
  });
}
