/**
 * /usage [period] [user] [role] [format] (Manage Server): the server's images and cost in the current day, week or month,
 * top members, by model, refusals by reason and failures; with `user`, that member's own; `format:csv` attaches the
 * period's jobs. Read from what settled jobs stored (service/usage-report.ts).
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  AttachmentBuilder,
  MessageFlags,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { Clock, QuotaPeriod } from '../service/ports.js';
import type { UsageReport, UsageSummary } from '../service/usage-report.js';
import type { ChatCommand } from './command.js';
import { requireGuild, requireManageServer, SERVER_ADMIN_ONLY } from './server-admin.js';
import { phrase } from '../service/phrase.js';

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

/** Creates /usage. */
export function createUsageCommand(deps: { usage: Pick<UsageReport, 'summary' | 'csv'>; clock: Clock }): ChatCommand {
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
      const content = roleId === undefined ? renderUsage(summary, period, userId) : renderRoleUsage(summary, period, roleId);
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

const usd = (value: number): string => `$${value.toFixed(4)}`;

/** The members who made the most images, with their cost. */
function topMembers(summary: UsageSummary): string {
  if (summary.members.length === 0) return 'none';
  return summary.members
    .slice(0, TOP)
    .map((m) => `<@${m.userId}> ${m.images} (${usd(m.costUsd)})`)
    .join(', ');
}

/** A role's figures as an admin reads them. */
export function renderRoleUsage(summary: UsageSummary, period: QuotaPeriod, roleId: string): string {
  return [
    `**Usage of members with <@&${roleId}> this ${period}** (since <t:${Math.floor(summary.from / 1000)}:D>)`,
    `Images: ${summary.images} from ${summary.jobs} request${summary.jobs === 1 ? '' : 's'} · cost: ${usd(summary.costUsd ?? 0)}`,
    `Top members: ${topMembers(summary)}`,
    `Refused: ${summary.refusals['all'] ?? 0}`,
    '-# Counted by the roles members held when each job settled; a member in the list shows all their jobs of the period.',
  ].join('\n');
}

/** The figures as an admin reads them. */
export function renderUsage(summary: UsageSummary, period: QuotaPeriod, userId: string | undefined): string {
  const since = `<t:${Math.floor(summary.from / 1000)}:D>`;
  if (userId !== undefined) {
    const own = summary.members[0];
    return [
      `**<@${userId}>'s usage this ${period}** (since ${since})`,
      `Images: ${summary.images} from ${summary.jobs} request${summary.jobs === 1 ? '' : 's'} · cost: ${usd(own?.costUsd ?? 0)}`,
      `Refused: ${summary.refusals['all'] ?? 0}`,
    ].join('\n');
  }
  const cost = [summary.reportedUsd > 0 && `${usd(summary.reportedUsd)} reported`, summary.estimatedUsd > 0 && `${usd(summary.estimatedUsd)} estimated`].filter(
    Boolean,
  );
  const refusals = Object.entries(summary.refusals).sort(([, a], [, b]) => b - a);
  return [
    `**Usage on this server this ${period}** (since ${since})`,
    `Images: ${summary.images} from ${summary.jobs} request${summary.jobs === 1 ? '' : 's'} · cost: ${cost.length > 0 ? cost.join(' + ') : 'none reported or estimated'}`,
    `Top members: ${topMembers(summary)}`,
    `By model: ${summary.models.length > 0 ? summary.models.map((m) => `\`${m.model}\` ${m.images}`).join(', ') : 'none'}`,
    `Refused: ${refusals.length > 0 ? refusals.map(([reason, count]) => `${reason} ${count}`).join(', ') : 'none'} · failed: ${summary.failures}`,
    ...(summary.jobIdsCut ? ['-# The CSV holds the first 5,000 jobs of each day.'] : []),
  ].join('\n');
}
