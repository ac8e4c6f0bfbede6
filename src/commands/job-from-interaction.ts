/**
 * Turns an interaction and its parsed request into a service job: who is charged, where it came from.
 */
import { PermissionFlagsBits, type BaseInteraction, type GuildMember } from 'discord.js';
import { channelOf } from './channel-facts.js';
import { newJobId } from '../service/job-id.js';
import { type ImageJob } from '../core/jobs.js';
import type { GenerateRequest } from '../core/images.js';
import type { QuotaSubject } from '../core/quota.js';

/**
 * The quota subject: the server the command ran in when the app is installed there (with its bot user or only its
 * commands), or null (configuration defaults) for DMs and for a member's own (user) install used in a server that
 * has not installed the app. Read from the interaction's authorizing_integration_owners, never from the bot's guild
 * cache, which holds no server where only the commands are installed.
 */
export function subjectOf(interaction: BaseInteraction): QuotaSubject {
  const guildInstalled = interaction.inGuild() && interaction.authorizingIntegrationOwners.guildId === interaction.guildId;
  if (!interaction.inGuild() || !guildInstalled) return { guildId: null, userId: interaction.user.id, roleIds: [] };
  return { guildId: interaction.guildId, userId: interaction.user.id, roleIds: memberRoleIds(interaction.member), booster: boosts(interaction.member) };
}

/** Whether the member boosts the server: Discord sends `premium_since` with every interaction's member. */
export function boosts(member: BaseInteraction['member'] | { roles: string[]; premium_since?: string | null | undefined } | undefined): boolean {
  if (!member) return false;
  // Uncached, the member is the raw payload (its roles an array), as for memberRoleIds.
  if (Array.isArray(member.roles)) return 'premium_since' in member && member.premium_since != null;
  return (member as GuildMember).premiumSinceTimestamp !== null;
}

function memberRoleIds(member: BaseInteraction['member']): string[] {
  if (!member) return [];
  if (Array.isArray(member.roles)) return [...member.roles];
  return [...(member as GuildMember).roles.cache.keys()];
}

/** Builds a job for the service. */
export function buildJob(interaction: BaseInteraction, kind: ImageJob['kind'], request: GenerateRequest, edit?: ImageJob['edit']): ImageJob {
  const place = channelOf(interaction);
  return {
    id: newJobId(),
    kind,
    subject: subjectOf(interaction),
    origin: {
      guildId: interaction.guildId,
      channelId: interaction.channelId,
      parentChannelId: place.parentChannelId,
      requesterId: interaction.user.id,
      manager: memberCan(interaction, PermissionFlagsBits.ManageGuild),
      ageRestricted: place.ageRestricted,
      locale: interaction.locale,
      guildLocale: interaction.guildLocale,
    },
    request,
    edit,
  };
}

/** Whether the member holds a permission in this interaction (false outside servers). */
export function memberCan(interaction: BaseInteraction, permission: bigint): boolean {
  // memberPermissions is null outside servers (DMs and group DMs carry no member).
  return interaction.memberPermissions?.has(permission) ?? false;
}
