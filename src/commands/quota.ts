/**
 * /quota show|set|money|money-remove|reset|strikes-clear. Anyone sees their own quota (and moderation pause);
 * everything else needs Manage Server, checked here from the member's permissions in the interaction (not only
 * Discord's command settings).
 */
import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { ModerationGate } from '../service/moderation-gate.js';
import type { QuotaAdmin } from '../service/quota-admin.js';
import type { QuotaSubject, QuotaTarget } from '../core/quota.js';
import type { ChatCommand } from './command.js';
import { subjectOf } from './job-from-interaction.js';
import { QUOTA_DATA, QuotaMoneyRequest, QuotaSetRequest } from './quota-data.js';
import { renderLimitChange, renderMoneyChange, renderSpending, renderStatus, renderStrikes, renderStrikesCleared, renderUsageReset } from './quota-text.js';
import { requireGuild, requireManageServer } from './server-admin.js';
import { phrase } from '../core/phrase.js';
import { issueDetail } from './issue-detail.js';

const QUOTAS_IN_SERVERS = phrase('detail.guild.quotas');

interface QuotaDeps {
  quotas: Pick<QuotaAdmin, 'show' | 'spending' | 'setLimit' | 'setSpendLimit' | 'resetUsage'>;
  moderation: Pick<ModerationGate, 'status' | 'lift'>;
}

/** Creates /quota. */
export function createQuotaCommand(deps: QuotaDeps): ChatCommand {
  return {
    kind: 'chat',
    data: QUOTA_DATA,
    async execute(interaction) {
      const sub = interaction.options.getSubcommand(true);
      if (sub !== 'show') requireManageServer(interaction);
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const content = await SUBCOMMANDS[sub]?.(interaction, deps);
      if (content === undefined) throw new UserFacingError('input.invalid', { param: 'subcommand' });
      await interaction.editReply({ content, allowedMentions: { parse: [] } });
    },
  };
}

async function show(interaction: ChatInputCommandInteraction, deps: QuotaDeps): Promise<string> {
  const user = interaction.options.getUser('user');
  if (user && user.id !== interaction.user.id) requireManageServer(interaction);
  const subject: QuotaSubject =
    user && user.id !== interaction.user.id
      ? { guildId: interaction.guildId, userId: user.id, roleIds: rolesOf(interaction.options.getMember('user')) }
      : subjectOf(interaction);
  const [status, spending, strikes] = await Promise.all([
    deps.quotas.show(subject),
    deps.quotas.spending(subject),
    deps.moderation.status({ guildId: subject.guildId, userId: subject.userId }),
  ]);
  const who = user && user.id !== interaction.user.id ? `<@${user.id}>` : undefined;
  const { locale } = interaction;
  return [renderStatus(status, who, locale), spending && renderSpending(spending, who, locale), renderStrikes(strikes, who, locale)].filter(Boolean).join('\n');
}

/** `/quota money usd:…` sets a money limit; `/quota money-remove` removes one. */
async function money(interaction: ChatInputCommandInteraction, deps: QuotaDeps): Promise<string> {
  const guildId = requireGuild(interaction, QUOTAS_IN_SERVERS);
  const parsed = QuotaMoneyRequest.safeParse({
    usd: interaction.options.getNumber('usd') ?? undefined,
    userId: interaction.options.getUser('user')?.id,
    roleId: interaction.options.getRole('role')?.id,
    period: interaction.options.getString('period') ?? undefined,
  });
  if (!parsed.success) throw new UserFacingError('input.invalid', { param: 'user/role', detail: issueDetail(parsed.error.issues[0]) });
  const { usd: amount, userId, roleId, period } = parsed.data;
  const target: QuotaTarget = userId ? { kind: 'member', guildId, userId } : roleId ? { kind: 'role', guildId, roleId } : { kind: 'server', guildId };
  const change = await deps.quotas.setSpendLimit(interaction.user.id, target, amount, period, { locale: interaction.guildLocale });
  return renderMoneyChange(target, change, interaction.locale);
}

async function set(interaction: ChatInputCommandInteraction, deps: QuotaDeps): Promise<string> {
  const guildId = requireGuild(interaction, QUOTAS_IN_SERVERS);
  const parsed = QuotaSetRequest.safeParse({
    limit: interaction.options.getInteger('limit', true),
    userId: interaction.options.getUser('user')?.id,
    roleId: interaction.options.getRole('role')?.id,
    period: interaction.options.getString('period') ?? undefined,
  });
  if (!parsed.success) throw new UserFacingError('input.invalid', { param: 'user/role', detail: issueDetail(parsed.error.issues[0]) });
  const { limit, userId, roleId, period } = parsed.data;
  const target: QuotaTarget = userId ? { kind: 'member', guildId, userId } : roleId ? { kind: 'role', guildId, roleId } : { kind: 'server', guildId };
  const change = await deps.quotas.setLimit(interaction.user.id, target, limit, period, { locale: interaction.guildLocale });
  return renderLimitChange(target, change, interaction.locale);
}

async function reset(interaction: ChatInputCommandInteraction, deps: QuotaDeps): Promise<string> {
  const guildId = requireGuild(interaction, QUOTAS_IN_SERVERS);
  const user = interaction.options.getUser('user', true);
  const { usedBefore } = await deps.quotas.resetUsage(interaction.user.id, guildId, user.id, { locale: interaction.guildLocale });
  return renderUsageReset(user.id, usedBefore, interaction.locale);
}

/** `/quota strikes-clear user:` clears a member's moderation strikes and lifts their pause. */
async function strikesClear(interaction: ChatInputCommandInteraction, deps: QuotaDeps): Promise<string> {
  const guildId = requireGuild(interaction, QUOTAS_IN_SERVERS);
  const user = interaction.options.getUser('user', true);
  const before = await deps.moderation.lift(interaction.user.id, { guildId, userId: user.id }, { locale: interaction.guildLocale });
  return renderStrikesCleared(user.id, before, interaction.locale);
}

const SUBCOMMANDS: Record<string, (interaction: ChatInputCommandInteraction, deps: QuotaDeps) => Promise<string>> = {
  show,
  set,
  money,
  'money-remove': money,
  reset,
  'strikes-clear': strikesClear,
};

function rolesOf(member: ReturnType<ChatInputCommandInteraction['options']['getMember']>): string[] {
  if (!member) return [];
  return Array.isArray(member.roles) ? [...member.roles] : [...member.roles.cache.keys()];
}
