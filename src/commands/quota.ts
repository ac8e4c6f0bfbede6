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
import { boosts, subjectOf } from './job-from-interaction.js';
import { QUOTA_DATA, QuotaMoneyRequest, QuotaSetRequest } from './quota-data.js';
import { readSubcommand, subcommandOf, type SubcommandName, type SubcommandReader } from './option-reader.js';
import {
  renderLimitChange,
  renderMoneyChange,
  renderSpending,
  renderStatus,
  renderStrikes,
  renderStrikesCleared,
  renderUsageReset,
} from '../discord/views/quota-text.js';
import { requireGuild, requireManageServer } from './server-admin.js';
import { phrase } from '../core/phrase.js';
import { issueDetail } from './issue-detail.js';

const QUOTAS_IN_SERVERS = phrase('detail.guild.quotas');

interface QuotaDeps {
  quotas: Pick<QuotaAdmin, 'show' | 'spending' | 'setLimit' | 'setSpendLimit' | 'resetUsage'>;
  moderation: Pick<ModerationGate, 'status' | 'lift'>;
}

/** /quota's subcommands, and the reader of each one's own options. */
type Sub = SubcommandName<typeof QUOTA_DATA>;
type Read<S extends Sub> = SubcommandReader<typeof QUOTA_DATA, S>;

/** Creates /quota. */
export function createQuotaCommand(deps: QuotaDeps): ChatCommand {
  return {
    kind: 'chat',
    data: QUOTA_DATA,
    async execute(interaction) {
      const sub = subcommandOf(interaction.options, QUOTA_DATA);
      if (sub !== 'show') requireManageServer(interaction);
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const content = await answer(interaction, deps, sub);
      await interaction.editReply({ content, allowedMentions: { parse: [] } });
    },
  };
}

/** Subcommand `name`'s answer, its options read by its own definition. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- S ties the row to its reader (a correlated union)
function answer<S extends Sub>(interaction: ChatInputCommandInteraction, deps: QuotaDeps, name: S): Promise<string> {
  return SUBCOMMANDS[name](interaction, readSubcommand(interaction.options, QUOTA_DATA, name), deps);
}

async function show(interaction: ChatInputCommandInteraction, read: Read<'show'>, deps: QuotaDeps): Promise<string> {
  const user = read.user('user');
  if (user && user.id !== interaction.user.id) requireManageServer(interaction);
  const subject: QuotaSubject =
    user && user.id !== interaction.user.id
      ? { guildId: interaction.guildId, userId: user.id, roleIds: rolesOf(read.member('user')), booster: boosts(read.member('user')) }
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

/** `/quota money usd:…` sets a money limit; `/quota money-remove` (no amount) removes one. */
async function money(
  interaction: ChatInputCommandInteraction,
  raw: { usd: number | undefined; userId: string | undefined; roleId: string | undefined; period: string | undefined },
  deps: QuotaDeps,
): Promise<string> {
  const guildId = requireGuild(interaction, QUOTAS_IN_SERVERS);
  const parsed = QuotaMoneyRequest.safeParse(raw);
  if (!parsed.success) throw new UserFacingError('input.invalid', { param: 'user/role', detail: issueDetail(parsed.error.issues[0]) });
  const { usd: amount, userId, roleId, period } = parsed.data;
  const target: QuotaTarget = userId ? { kind: 'member', guildId, userId } : roleId ? { kind: 'role', guildId, roleId } : { kind: 'server', guildId };
  const change = await deps.quotas.setSpendLimit(interaction.user.id, target, amount, period, { locale: interaction.guildLocale });
  return renderMoneyChange(target, change, interaction.locale);
}

async function set(interaction: ChatInputCommandInteraction, read: Read<'set'>, deps: QuotaDeps): Promise<string> {
  const guildId = requireGuild(interaction, QUOTAS_IN_SERVERS);
  const parsed = QuotaSetRequest.safeParse({
    limit: read.integer('limit'),
    userId: read.user('user')?.id,
    roleId: read.role('role')?.id,
    period: read.string('period'),
  });
  if (!parsed.success) throw new UserFacingError('input.invalid', { param: 'user/role', detail: issueDetail(parsed.error.issues[0]) });
  const { limit, userId, roleId, period } = parsed.data;
  const target: QuotaTarget = userId ? { kind: 'member', guildId, userId } : roleId ? { kind: 'role', guildId, roleId } : { kind: 'server', guildId };
  const change = await deps.quotas.setLimit(interaction.user.id, target, limit, period, { locale: interaction.guildLocale });
  return renderLimitChange(target, change, interaction.locale);
}

async function reset(interaction: ChatInputCommandInteraction, read: Read<'reset'>, deps: QuotaDeps): Promise<string> {
  const guildId = requireGuild(interaction, QUOTAS_IN_SERVERS);
  const user = read.user('user');
  const { usedBefore } = await deps.quotas.resetUsage(interaction.user.id, guildId, user.id, { locale: interaction.guildLocale });
  return renderUsageReset(user.id, usedBefore, interaction.locale);
}

/** `/quota strikes-clear user:` clears a member's moderation strikes and lifts their pause. */
async function strikesClear(interaction: ChatInputCommandInteraction, read: Read<'strikes-clear'>, deps: QuotaDeps): Promise<string> {
  const guildId = requireGuild(interaction, QUOTAS_IN_SERVERS);
  const user = read.user('user');
  const before = await deps.moderation.lift(interaction.user.id, { guildId, userId: user.id }, { locale: interaction.guildLocale });
  return renderStrikesCleared(user.id, before, interaction.locale);
}

/** The subcommands (a table): each reads its own options, as QUOTA_DATA defines them. */
const SUBCOMMANDS: { [S in Sub]: (interaction: ChatInputCommandInteraction, read: Read<S>, deps: QuotaDeps) => Promise<string> } = {
  show,
  set,
  money: (interaction, read, deps) =>
    money(interaction, { usd: read.number('usd'), userId: read.user('user')?.id, roleId: read.role('role')?.id, period: read.string('period') }, deps),
  'money-remove': (interaction, read, deps) =>
    money(interaction, { usd: undefined, userId: read.user('user')?.id, roleId: read.role('role')?.id, period: undefined }, deps),
  reset,
  'strikes-clear': strikesClear,
};

function rolesOf(member: ReturnType<ChatInputCommandInteraction['options']['getMember']> | undefined): string[] {
  if (!member) return [];
  return Array.isArray(member.roles) ? [...member.roles] : [...member.roles.cache.keys()];
}
