/**
 * /usage [period] [user] [role] [format] (Manage Server): the server's images and cost in the current day, week or month,
 * top members, by model, refusals by reason and failures, moderation strikes and pauses and who is paused now; with
 * `user`, that member's own; `format:csv` attaches the period's jobs. Read from what settled jobs stored
 * (service/usage-report.ts) and the strikes' records (service/moderation-gate.ts).
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  AttachmentBuilder,
  MessageFlags,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { UserFacingError } from '../errors.js';
import { formatList, formatUsdPrecise, t } from '../i18n/translate.js';
import type { ModerationGate, StrikeReport } from '../service/moderation-gate.js';
import type { Clock } from '../ports/clock.js';
import type { QuotaPeriod } from '../core/quota.js';
import type { UsageReport, UsageSummary } from '../service/usage-report.js';
import { MAX_JOB_IDS_PER_DAY } from '../core/usage-totals.js';
import type { ChatCommand } from './command.js';
import { requireGuild, requireManageServer, SERVER_ADMIN_ONLY } from './server-admin.js';
import { phrase } from '../core/phrase.js';

export const USAGE_DATA = {
  type: ApplicationCommandType.ChatInput,
  name: 'usage',
  description: "This server's images and cost (Manage Server)",
  ...SERVER_ADMIN_ONLY,
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'period',
      description: 'The current day, week or month (UTC); month by default',
      choices: ['day', 'week', 'month'].map((p) => ({ name: p, value: p })),
    },
    { type: ApplicationCommandOptionType.User, name: 'user', description: "One member's figures only" },
    { type: ApplicationCommandOptionType.Role, name: 'role', description: 'The figures of members with this role only' },
    {
      type: ApplicationCommandOptionType.String,
      name: 'format',
      description: 'text (default), or csv to attach the period’s jobs',
      choices: ['text', 'csv'].map((f) => ({ name: f, value: f })),
    },
  ],
} satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** Members listed at most under "Top members". */
const TOP = 10;

/** A Discord locale (the interaction's); English when unknown. */
type Locale = string | null | undefined;

/** Creates /usage. */
export function createUsageCommand(deps: {
  usage: Pick<UsageReport, 'summary' | 'csv'>;
  moderation: Pick<ModerationGate, 'report'>;
  clock: Clock;
}): ChatCommand {
  return {
    kind: 'chat',
    data: USAGE_DATA,
    async execute(interaction) {
      requireManageServer(interaction);
      const guildId = requireGuild(interaction, phrase('detail.guild.usage'));
      const period = (interaction.options.getString('period') ?? 'month') as QuotaPeriod;
      const userId = interaction.options.getUser('user')?.id;
      const roleId = interaction.options.getRole('role')?.id;
      if (userId !== undefined && roleId !== undefined)
        throw new UserFacingError('input.invalid', { param: 'user/role', detail: phrase('detail.target.both') });
      const csv = interaction.options.getString('format') === 'csv';
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const summary = await deps.usage.summary(guildId, period, deps.clock.now(), { userId, roleId });
      const { locale } = interaction;
      // Strikes are counted per member, not per role: a role's figures leave them out.
      const strikes = roleId === undefined ? await deps.moderation.report(guildId, period, userId) : undefined;
      const content =
        roleId === undefined
          ? [renderUsage(summary, period, userId, locale), ...renderStrikeReport(strikes, locale)].join('\n')
          : renderRoleUsage(summary, period, roleId, locale);
      if (!csv) {
        await interaction.editReply({ content, allowedMentions: { parse: [] } });
        return;
      }
      const file = new AttachmentBuilder(Buffer.from(await deps.usage.csv(summary, { userId, roleId }), 'utf8'), {
        name: `usage-${period}-${new Date(summary.from).toISOString().slice(0, 10)}.csv`,
      });
      await interaction.editReply({ content, files: [file], allowedMentions: { parse: [] } });
    },
  };
}

/** The members who made the most images, with their cost. */
function topMembers(summary: UsageSummary, locale: Locale): string {
  const members = summary.members.slice(0, TOP).map((m) => `<@${m.userId}> ${m.images} (${formatUsdPrecise(locale, m.costUsd)})`);
  return t(locale, 'admin.usage.top', { hasMembers: members.length > 0 ? 'yes' : 'no', members: formatList(locale, members) });
}

/** The images and requests of the period, with their cost. */
function imagesLine(summary: UsageSummary, cost: string, locale: Locale): string {
  return t(locale, 'admin.usage.images', { images: summary.images, jobs: summary.jobs, cost });
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
    ...(summary.promptHelpCalls > 0
      ? [t(locale, 'admin.usage.promptHelp', { calls: summary.promptHelpCalls, usd: formatUsdPrecise(locale, summary.promptHelpUsd) })]
      : []),
    t(locale, 'admin.usage.refused', { hasRefusals: refusals.length > 0 ? 'yes' : 'no', refusals: formatList(locale, refusals), failures: summary.failures }),
    ...(summary.jobIdsCut ? [t(locale, 'admin.usage.csvCut', { max: MAX_JOB_IDS_PER_DAY })] : []),
  ].join('\n');
}
