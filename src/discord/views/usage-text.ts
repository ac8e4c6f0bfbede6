/**
 * What /usage tells an admin (commands/usage.ts), in the admin's language: the server's, a member's or a role's
 * figures for the period, and the moderation strikes and pauses.
 */
import { formatList, formatUsdPrecise, t } from '../../i18n/translate.js';
import type { StrikeReport } from '../../core/reports.js';
import type { QuotaPeriod } from '../../core/quota.js';
import type { UsageSummary } from '../../core/reports.js';
import { MAX_JOB_IDS_PER_DAY } from '../../core/usage-totals.js';
import { draftsSaved } from '../../core/drafts.js';
import { anyActions } from '../../core/member-actions.js';

/** Members listed at most under "Top members". */
const TOP = 10;

/** A Discord locale (the interaction's); English when unknown. */
type Locale = string | null | undefined;

/** The members who made the most images, with their cost. */
function topMembers(summary: UsageSummary, locale: Locale): string {
  const members = summary.members.slice(0, TOP).map((m) => `<@${m.userId}> ${m.images} (${formatUsdPrecise(locale, m.costUsd)})`);
  return t(locale, 'admin.usage.top', { hasMembers: members.length > 0 ? 'yes' : 'no', members: formatList(locale, members) });
}

/** The images and requests of the period, with their cost. */
function imagesLine(summary: UsageSummary, cost: string, locale: Locale): string {
  return t(locale, 'admin.usage.images', { images: summary.images, jobs: summary.jobs, cost });
}

/** What drafting saved against high quality, when the period had drafts (the server's, the member's or the role's). */
function draftsLine({ drafts }: UsageSummary, locale: Locale): string[] {
  if (!drafts || drafts.jobs === 0) return [];
  return [t(locale, 'admin.usage.drafts', { usd: formatUsdPrecise(locale, draftsSaved(drafts)), drafts: drafts.jobs, hd: drafts.hd })];
}

/** The emoji, stickers, showcase posts and styles members made, when they made any. */
function actionsLine({ actions }: UsageSummary, locale: Locale): string[] {
  return actions && anyActions(actions) ? [t(locale, 'admin.usage.actions', actions)] : [];
}

/** Paused members listed at most (soonest back first); the count names them all. */
const PAUSED_LISTED = 10;

/** The period's moderation strikes and pauses, and who is paused now until when; nothing while strikes are off. */
export function renderStrikeReport(report: StrikeReport | undefined, locale: Locale): string[] {
  if (report === undefined) return [];
  const paused = report.paused
    .slice(0, PAUSED_LISTED)
    .map((p) => t(locale, 'admin.usage.pausedMember', { who: `<@${p.userId}>`, until: `<t:${Math.ceil(p.until / 1000)}:f>` }));
  return [
    t(locale, 'admin.usage.moderation', { strikes: report.strikes, pauses: report.pauses }),
    t(locale, 'admin.usage.paused', { hasPaused: paused.length > 0 ? 'yes' : 'no', count: report.paused.length, paused: formatList(locale, paused) }),
  ];
}

const since = (summary: UsageSummary): string => `<t:${Math.floor(summary.from / 1000)}:D>`;

/** A role's figures as an admin reads them, in the admin's language. */
export function renderRoleUsage(summary: UsageSummary, period: QuotaPeriod, roleId: string, locale?: Locale): string {
  return [
    t(locale, 'admin.usage.roleTitle', { role: `<@&${roleId}>`, period, since: since(summary) }),
    imagesLine(summary, formatUsdPrecise(locale, summary.costUsd ?? 0), locale),
    topMembers(summary, locale),
    ...draftsLine(summary, locale),
    t(locale, 'admin.usage.refusedTotal', { count: summary.refusals['all'] ?? 0 }),
    t(locale, 'admin.usage.roleNote'),
  ].join('\n');
}

/** The figures as an admin reads them, in the admin's language. */
export function renderUsage(summary: UsageSummary, period: QuotaPeriod, userId: string | undefined, locale?: Locale): string {
  if (userId !== undefined) {
    return [
      t(locale, 'admin.usage.memberTitle', { who: `<@${userId}>`, period, since: since(summary) }),
      imagesLine(summary, formatUsdPrecise(locale, summary.members[0]?.costUsd ?? 0), locale),
      ...draftsLine(summary, locale),
      ...(summary.promptHelpUsd > 0 ? [t(locale, 'admin.usage.promptHelpMember', { usd: formatUsdPrecise(locale, summary.promptHelpUsd) })] : []),
      t(locale, 'admin.usage.refusedTotal', { count: summary.refusals['all'] ?? 0 }),
    ].join('\n');
  }
  const costs = [
    summary.reportedUsd > 0 && t(locale, 'admin.usage.cost', { source: 'reported', usd: formatUsdPrecise(locale, summary.reportedUsd) }),
    summary.estimatedUsd > 0 && t(locale, 'admin.usage.cost', { source: 'estimated', usd: formatUsdPrecise(locale, summary.estimatedUsd) }),
  ].filter((part): part is string => typeof part === 'string');
  // Refusal reasons are identifiers (`quota.exceeded`), shown as code.
  const refusals = Object.entries(summary.refusals)
    .sort(([, a], [, b]) => b - a)
    .map(([reason, count]) => `\`${reason}\` ${count}`);
  const models = summary.models.map((m) => `\`${m.model}\` ${m.images}`);
  return [
    t(locale, 'admin.usage.serverTitle', { period, since: since(summary) }),
    imagesLine(summary, costs.length > 0 ? costs.join(' + ') : t(locale, 'admin.usage.costNone'), locale),
    topMembers(summary, locale),
    t(locale, 'admin.usage.byModel', { hasModels: models.length > 0 ? 'yes' : 'no', models: formatList(locale, models) }),
    ...draftsLine(summary, locale),
    ...actionsLine(summary, locale),
    ...(summary.promptHelpCalls > 0
      ? [t(locale, 'admin.usage.promptHelp', { calls: summary.promptHelpCalls, usd: formatUsdPrecise(locale, summary.promptHelpUsd) })]
      : []),
    t(locale, 'admin.usage.refused', { hasRefusals: refusals.length > 0 ? 'yes' : 'no', refusals: formatList(locale, refusals), failures: summary.failures }),
    ...(summary.jobIdsCut ? [t(locale, 'admin.usage.csvCut', { max: MAX_JOB_IDS_PER_DAY })] : []),
  ].join('\n');
}

/** /usage's reply: a role's figures, or the server's or a member's with the period's strikes (counted per member, so none for a role). */
export function renderUsageReply(
  summary: UsageSummary,
  period: QuotaPeriod,
  target: { userId: string | undefined; roleId: string | undefined },
  strikes: StrikeReport | undefined,
  locale?: Locale,
): string {
  if (target.roleId !== undefined) return renderRoleUsage(summary, period, target.roleId, locale);
  return [renderUsage(summary, period, target.userId, locale), ...renderStrikeReport(strikes, locale)].join('\n');
}
