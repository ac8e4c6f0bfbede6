/**
 * What /quota show tells a member about their quota and their spending, in their language (the interaction's
 * locale). `who` is `You` for the member themselves, or a mention of the member an admin asked about.
 */
import { formatUsd, t } from '../i18n/translate.js';
import type { QuotaStatus, SpendStatus } from '../service/ports.js';

const timestamp = (ms: number): string => `<t:${Math.ceil(ms / 1000)}:R>`;

/** Text of a member's quota. */
export function renderStatus(status: QuotaStatus, who: string, locale?: string | null): string {
  const self = who === 'You' ? 'yes' : 'no';
  if (status.limit === 0) return t(locale, 'quota.blocked', { self, who });
  return [
    t(locale, 'quota.status', { self, who, remaining: status.remaining, limit: status.limit, period: status.period }),
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
export function renderSpending(status: SpendStatus, who: string, locale?: string | null): string {
  const self = who === 'You' ? 'yes' : 'no';
  if (status.usd === 0) return t(locale, 'spending.blocked', { self, who });
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
