/**
 * Builds INTERACTION_CREATE payloads with everything discord.js dereferences (doc §1.2, §6.3): entitlements,
 * authorizing_integration_owners, a `channel` object, member with permissions (or user in DMs), app_permissions,
 * attachment_size_limit, locale, guild, version and application_id.
 */
import { channelJson, memberJson, memberPermissions, memberRoleIds, Permissions, threadJson, userJson } from './fixtures.js';
import type { EmulatorState } from './state.js';
import type { GuildFixture, InteractionContext, SlashOption } from './types.js';

export interface Envelope {
  payload: Record<string, unknown>;
  channelId: string;
  attachmentSizeLimit: number;
}

/** The fields every interaction carries, for a user acting in a guild channel or in their DM with the bot. */
export function envelope(state: EmulatorState, ctx: InteractionContext, ids: { id: string; token: string; type: number }, channelOverride?: string): Envelope {
  // A component's message decides where the interaction happens (its guild, or the DM it was sent in).
  const overrideGuild = channelOverride === undefined ? undefined : state.isDmChannel(channelOverride) ? null : state.guildOf(channelOverride);
  const guild = overrideGuild !== undefined ? overrideGuild : ctx.guild === undefined ? state.fixtures.guild : ctx.guild;
  const attachmentSizeLimit = ctx.attachmentSizeLimit ?? state.options.attachmentSizeLimit;
  // The bot's permissions where the interaction happens (@everyone's unless a test set them; in a DM, those too).
  const appPermissions = (guild ? state.expressions.botPermissionsIn(guild.id) : Permissions.everyone).toString();
  const common = {
    ...ids,
    application_id: state.applicationId,
    version: 1,
    locale: ctx.locale ?? 'en-US',
    entitlements: [],
    app_permissions: appPermissions,
    attachment_size_limit: attachmentSizeLimit,
  };
  if (!guild) {
    const channel = state.dmChannelFor(ctx.user);
    const channelId = String(channel['id']);
    const payload = { ...common, channel_id: channelId, channel, user: userJson(ctx.user), context: 1, authorizing_integration_owners: { '0': '0' } };
    return { payload, channelId, attachmentSizeLimit };
  }
  const channelId = channelOverride ?? ctx.channelId ?? guild.channels.general.id;
  const channel = guildChannelJson(state, guild, channelId);
  const roles = ctx.roles ?? memberRoleIds(guild, ctx.user);
  const payload = {
    ...common,
    guild_id: guild.id,
    guild: { id: guild.id, locale: ctx.guildLocale ?? 'en-US', features: [] },
    guild_locale: ctx.guildLocale ?? 'en-US',
    channel_id: channelId,
    channel: { ...channel, permissions: appPermissions },
    member: {
      ...memberJson(guild, ctx.user, roles),
      premium_since: ctx.premiumSince ?? null,
      permissions: ctx.memberPermissions ?? memberPermissions(guild, ctx.user, roles),
    },
    context: 0,
    authorizing_integration_owners: ctx.userInstall ? { '1': ctx.user.id } : { '0': guild.id },
  };
  return { payload, channelId, attachmentSizeLimit };
}

/**
 * The `channel` object of an interaction in `guild`: a text channel, or a thread (with its `parent_id`, as Discord sends
 * it, whether or not the bot has the thread or its parent).
 */
function guildChannelJson(state: EmulatorState, guild: GuildFixture, channelId: string): Record<string, unknown> {
  const found = state.findAnyGuildChannel(channelId);
  if (found?.guild.id === guild.id) return channelJson(found.channel);
  const thread = state.findThread(channelId);
  if (thread?.guild.id === guild.id) return threadJson(thread.thread);
  throw new Error(`Discord emulator: channel ${channelId} is not a channel of guild ${guild.id}`);
}

/**
 * `data.resolved` for the user (6), channel (7), role (8), mentionable (9) and attachment (11) options among
 * `options` (walking subcommands); attachments come from ctx.resolvedAttachments or the CDN store.
 */
export function resolveOptions(
  state: EmulatorState,
  options: readonly SlashOption[],
  ctx: InteractionContext,
): Record<string, Record<string, unknown>> | undefined {
  const resolved: Record<string, Record<string, unknown>> = {};
  const put = (kind: string, id: string, value: unknown) => ((resolved[kind] ??= {})[id] = value);
  const guild = ctx.guild === undefined ? state.fixtures.guild : ctx.guild;
  const walk = (list: readonly SlashOption[]): void => {
    for (const option of list) {
      if (option.options) walk(option.options);
      if (option.value === undefined || option.focused) continue;
      const id = String(option.value);
      if (option.type === 11) put('attachments', id, ctx.resolvedAttachments?.find((a) => a.id === id) ?? required(state.cdn.get(id), 'attachment', id));
      if (option.type === 6 || option.type === 9) resolveUser(state, guild, id, put);
      if (option.type === 8 || option.type === 9) {
        const role = state.guilds.flatMap((g) => Object.values(g.roles)).find((r) => r.id === id);
        if (role) put('roles', id, role);
        else if (option.type === 8) required(undefined, 'role', id);
      }
      if (option.type === 7) {
        // Resolved in any server, the bot's or one that installed only the commands.
        const found = state.findAnyGuildChannel(id);
        const channel = required(state.channelJson(id) ?? (found && channelJson(found.channel)), 'channel', id);
        put('channels', id, { id, name: channel['name'], type: channel['type'], permissions: Permissions.everyone.toString() });
      }
    }
  };
  walk(options);
  return Object.keys(resolved).length === 0 ? undefined : resolved;
}

function resolveUser(state: EmulatorState, guild: GuildFixture | null, id: string, put: (kind: string, id: string, value: unknown) => void): void {
  const user = state.findUser(id);
  if (!user) return;
  put('users', id, userJson(user));
  if (!guild) return;
  // Resolved members are partial: no user, deaf or mute (doc §1.2).
  const { user: _user, deaf: _deaf, mute: _mute, ...member } = memberJson(guild, user);
  put('members', id, { ...member, permissions: memberPermissions(guild, user, memberRoleIds(guild, user)) });
}

function required<T>(value: T | undefined, kind: string, id: string): T {
  if (value === undefined) throw new Error(`Discord emulator: unknown ${kind} ${id} in interaction options`);
  return value;
}

/**
 * Modal submit components in the Label (type 18) shape of doc §6.3, one Label per field: a text input for a string,
 * a string select (its chosen values) for a list.
 */
export function modalComponents(fields: Record<string, string | readonly string[]>): unknown[] {
  return Object.entries(fields).map(([customId, value], index) => ({
    type: 18,
    id: index * 2 + 1,
    component:
      typeof value === 'string'
        ? { type: 4, id: index * 2 + 2, custom_id: customId, value }
        : { type: 3, id: index * 2 + 2, custom_id: customId, values: [...value] },
  }));
}
