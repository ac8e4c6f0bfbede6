/**
 * What the server admins' commands share (/quota's admin subcommands, /settings, /usage): registration for servers
 * and Manage Server, and the same checks again in the handler, since Discord's command settings can be changed by
 * the server.
 */
import { InteractionContextType, PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { memberCan } from './job-from-interaction.js';
import type { Phrase } from '../core/phrase.js';
import type { QuotaPeriod } from '../core/quota.js';

/** Registration fields of a command only admins of a server see. */
export const SERVER_ADMIN_ONLY = {
  contexts: [InteractionContextType.Guild],
  default_member_permissions: String(PermissionFlagsBits.ManageGuild),
};

/** The choices of a `period` option (the admins' commands'): read back typed as the period. */
export const PERIOD_CHOICES = (['day', 'week', 'month'] as const satisfies readonly QuotaPeriod[]).map((p) => ({ name: p, value: p }));

/** @throws UserFacingError unless the member has Manage Server here */
export function requireManageServer(interaction: ChatInputCommandInteraction): void {
  if (!memberCan(interaction, PermissionFlagsBits.ManageGuild)) throw new UserFacingError('permission.manageServer');
}

/** The server the command ran in. @throws UserFacingError outside servers, with `detail` as the reason */
export function requireGuild(interaction: ChatInputCommandInteraction, detail: Phrase): string {
  if (!interaction.guildId) throw new UserFacingError('input.invalid', { param: 'server', detail });
  return interaction.guildId;
}
