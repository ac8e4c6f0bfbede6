/**
 * /usage [period] [user] [role] [format] (Manage Server): the server's images and cost in the current day, week or month,
 * top members, by model, refusals by reason and failures, moderation strikes and pauses and who is paused now; with
 * `user`, that member's own; `format:csv` attaches the period's jobs. Read from what settled jobs stored
 * (service/usage-report.ts) and the strikes' records (service/moderation-gate.ts). A chart of the period's days (by
 * model and by top members, service/usage-chart.ts) is attached with its alt text whenever there is something to
 * draw; when it cannot be drawn, a line says so and the rest of the answer is as it would be.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, AttachmentBuilder, MessageFlags } from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { ModerationGate } from '../service/moderation-gate.js';
import type { Clock } from '../ports/clock.js';
import type { UsageReport } from '../service/usage-report.js';
import { renderUsageReply } from '../discord/views/usage-text.js';
import { usageChartAlt, usageChartMissing, usageChartTexts } from '../discord/views/usage-chart-text.js';
import { displayNames } from '../discord/member-names.js';
import type { UsageCharts } from '../service/usage-chart.js';
import type { ChatCommand } from './command.js';
import { PERIOD_CHOICES, requireGuild, requireManageServer, SERVER_ADMIN_ONLY } from './server-admin.js';
import { chatInputData, readOptions } from './option-reader.js';
import { phrase } from '../core/phrase.js';

export const USAGE_DATA = chatInputData({
  type: ApplicationCommandType.ChatInput,
  name: 'usage',
  description: "This server's images and cost (Manage Server)",
  ...SERVER_ADMIN_ONLY,
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'period',
      description: 'The current day, week or month (UTC); month by default',
      choices: PERIOD_CHOICES,
    },
    { type: ApplicationCommandOptionType.User, name: 'user', description: "One member's figures only" },
    { type: ApplicationCommandOptionType.Role, name: 'role', description: 'The figures of members with this role only' },
    {
      type: ApplicationCommandOptionType.String,
      name: 'format',
      description: 'text (default), or csv to attach the period’s jobs',
      choices: (['text', 'csv'] as const).map((f) => ({ name: f, value: f })),
    },
  ],
});

/** Creates /usage. */
export function createUsageCommand(deps: {
  usage: Pick<UsageReport, 'summary' | 'csv'>;
  usageCharts: Pick<UsageCharts, 'chart'>;
  moderation: Pick<ModerationGate, 'report'>;
  clock: Clock;
}): ChatCommand {
  return {
    kind: 'chat',
    data: USAGE_DATA,
    async execute(interaction) {
      requireManageServer(interaction);
      const guildId = requireGuild(interaction, phrase('detail.guild.usage'));
      const read = readOptions(interaction.options, USAGE_DATA.options);
      const period = read.string('period') ?? 'month';
      const userId = read.user('user')?.id;
      const roleId = read.role('role')?.id;
      if (userId !== undefined && roleId !== undefined)
        throw new UserFacingError('input.invalid', { param: 'user/role', detail: phrase('detail.target.both') });
      const csv = read.string('format') === 'csv';
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const summary = await deps.usage.summary(guildId, period, deps.clock.now(), { userId, roleId });
      const { locale } = interaction;
      // Strikes are counted per member, not per role: a role's figures leave them out.
      const strikes = roleId === undefined ? await deps.moderation.report(guildId, period, userId) : undefined;
      const text = renderUsageReply(summary, period, { userId, roleId }, strikes, locale);
      const chart = await deps.usageCharts.chart(summary, usageChartTexts(locale), (ids) => displayNames(interaction, ids));
      const content = chart.kind === 'failed' ? `${text}\n${usageChartMissing(locale)}` : text;
      const date = new Date(summary.from).toISOString().slice(0, 10);
      const files: AttachmentBuilder[] = [];
      if (chart.kind === 'drawn')
        files.push(new AttachmentBuilder(chart.png, { name: `usage-${period}-${date}.png`, description: usageChartAlt(summary, locale) }));
      if (csv)
        files.push(new AttachmentBuilder(Buffer.from(await deps.usage.csv(summary, { userId, roleId }), 'utf8'), { name: `usage-${period}-${date}.csv` }));
      await interaction.editReply({ content, files, allowedMentions: { parse: [] } });
    },
  };
}
