/**
 * /settings show|defaults|models|max-count|max-size|max-quality|channels|nsfw|spoilers|audit|previews|prompt-help|confirm-cost (Manage Server, checked here from the member's
 * permissions as well as by Discord's command settings). Each change answers with what it was and what it is now,
 * and is logged with who made it.
 */
import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { t } from '../i18n/translate.js';
import { GenerateRequest } from '../core/image-request.js';
import { parseSize } from '../core/sizes.js';
import { validateGenerateRequest } from '../core/image-rules.js';
import type { AuditTrail } from '../ports/audit-trail.js';
import type { QuotaPeriod } from '../core/quota.js';
import type { ServerSettings } from '../service/server-settings.js';
import type { SettingsChange, SettingsStore } from '../service/settings-store.js';
import type { ChatCommand, InteractionContext } from './command.js';
import { requireGuild, requireManageServer } from './server-admin.js';
import { CHANNEL_OPTIONS, ROLE_OPTIONS, SETTINGS_DATA } from './settings-data.js';
import { renderSettings } from './settings-text.js';
import { phrase } from '../core/phrase.js';

/** What /settings needs. */
export interface SettingsCommandDeps {
  settings: Pick<SettingsStore, 'get' | 'update'>;
  /** Tells the audit channel (the one set before the change, or after it when there was none). */
  audit?: Pick<AuditTrail, 'settingsChanged'> | undefined;
}

type Change = (settings: ServerSettings) => ServerSettings;

/** Creates /settings. */
export function createSettingsCommand(deps: SettingsCommandDeps): ChatCommand {
  return {
    kind: 'chat',
    data: SETTINGS_DATA,
    async execute(interaction, ctx) {
      requireManageServer(interaction);
      const guildId = requireGuild(interaction, phrase('detail.guild.settings'));
      const sub = interaction.options.getSubcommand(true);
      // Parsed before anything is deferred: bad input is answered at once.
      const change = sub === 'show' ? undefined : changeOf(sub, interaction);
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      if (!change) {
        await interaction.editReply({ content: renderSettings(await deps.settings.get(guildId), interaction.locale), allowedMentions: { parse: [] } });
        return;
      }
      const result = await deps.settings.update(guildId, change, interaction.user.id);
      log(ctx, sub, guildId, interaction.user.id, result);
      const auditChannelId = result.before.auditChannelId ?? result.after.auditChannelId;
      if (auditChannelId !== undefined)
        await deps.audit?.settingsChanged({
          guildId,
          auditChannelId,
          by: interaction.user.id,
          setting: sub,
          locale: interaction.guildLocale,
          ...comparable(result),
        });
      const content = `${t(interaction.locale, 'admin.settings.changed')}\n\n${renderSettings(result.after, interaction.locale)}`;
      await interaction.editReply({ content, allowedMentions: { parse: [] } });
    },
  };
}

function changeOf(sub: string, interaction: ChatInputCommandInteraction): Change {
  const options = interaction.options;
  switch (sub) {
    case 'defaults': {
      const raw = {
        model: options.getString('model') ?? undefined,
        size: options.getString('size') ?? undefined,
        quality: options.getString('quality') ?? undefined,
        outputFormat: options.getString('format') ?? undefined,
      };
      const given = GenerateRequest.pick({ model: true, size: true, quality: true, outputFormat: true }).safeParse(raw);
      if (!given.success) throw new UserFacingError('input.invalid', { param: String(given.error.issues[0]?.path[0] ?? 'default') });
      // The general rules (sizes, formats): a default no request could use is refused now, not at every request.
      const checked = validateGenerateRequest({ prompt: 'settings', ...given.data });
      const defined = Object.fromEntries(
        (['model', 'size', 'quality', 'outputFormat'] as const).filter((key) => given.data[key] !== undefined).map((key) => [key, checked[key]]),
      );
      const clear = options.getBoolean('clear') === true;
      return (s) => ({ ...s, defaults: { ...(clear ? {} : s.defaults), ...defined } });
    }
    case 'models': {
      const text = options.getString('allowed', true).trim();
      const models = text.toLowerCase() === 'all' ? [] : [...new Set(text.split(/[\s,]+/).filter((m) => m.length > 0))];
      return (s) => ({ ...s, allowedModels: models });
    }
    case 'max-count': {
      const count = options.getInteger('count', true);
      return (s) => ({ ...s, maxCount: count === 0 ? undefined : count });
    }
    case 'max-size': {
      const text = options.getString('size', true).trim().toLowerCase();
      if (text === 'any') return (s) => ({ ...s, maxSize: undefined });
      const size = parseSize(text);
      if (!size || size.width < 1 || size.height < 1)
        throw new UserFacingError('input.invalid', { param: 'size', allowed: phrase('allowed.serverSizeSetting') });
      return (s) => ({ ...s, maxSize: `${size.width}x${size.height}` });
    }
    case 'max-quality': {
      const quality = options.getString('quality', true);
      return (s) => ({ ...s, maxQuality: quality === 'any' ? undefined : (quality as ServerSettings['maxQuality']) });
    }
    case 'channels': {
      const mode = options.getString('mode', true) as ServerSettings['channels']['mode'];
      const ids = channelsGiven(interaction);
      if (mode !== 'everywhere' && ids.length === 0)
        throw new UserFacingError('input.invalid', { param: 'channel1', detail: phrase('detail.settings.channels', { mode }) });
      return (s) => ({ ...s, channels: { mode, ids: mode === 'everywhere' ? [] : ids } });
    }
    case 'nsfw': {
      const mode = options.getString('mode', true) as ServerSettings['nsfw']['mode'];
      const roleIds = [...new Set(ROLE_OPTIONS.map((name) => options.getRole(name)?.id).filter((id): id is string => id !== undefined))];
      if (mode === 'roles' && roleIds.length === 0) throw new UserFacingError('input.invalid', { param: 'role1', detail: phrase('detail.settings.roles') });
      return (s) => ({ ...s, nsfw: { mode, roleIds: mode === 'roles' ? roleIds : [] } });
    }
    case 'spoilers': {
      const ids = channelsGiven(interaction);
      return (s) => ({ ...s, spoilerChannelIds: ids });
    }
    case 'audit': {
      const channelId = options.getChannel('channel')?.id;
      return (s) => ({ ...s, auditChannelId: channelId });
    }
    case 'confirm-cost': {
      const threshold = options.getNumber('usd') ?? undefined;
      return (s) => ({ ...s, confirmAboveUsd: threshold });
    }
    case 'previews': {
      const enabled = options.getBoolean('enabled', true);
      return (s) => ({ ...s, previews: enabled });
    }
    case 'prompt-help': {
      const enabled = options.getBoolean('enabled', true);
      const count = options.getInteger('describes') ?? undefined;
      const period = (options.getString('period') ?? 'day') as QuotaPeriod;
      return (s) => ({ ...s, promptHelp: enabled, describeLimit: count === undefined ? undefined : { count, period } });
    }
    default:
      throw new UserFacingError('input.invalid', { param: 'subcommand' });
  }
}

/** The channels given in channel1…channel5, each once. */
function channelsGiven(interaction: ChatInputCommandInteraction): string[] {
  return [...new Set(CHANNEL_OPTIONS.map((name) => interaction.options.getChannel(name)?.id).filter((id): id is string => id !== undefined))];
}

function log(ctx: InteractionContext, sub: string, guildId: string, by: string, change: SettingsChange): void {
  ctx.logger.info({ guildId, by, setting: sub, ...comparable(change) }, 'server settings changed');
}

/** Before and after, without who changed them when. */
function comparable({ before, after }: SettingsChange): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const { updatedAt: _a, updatedBy: _b, ...was } = before;
  const { updatedAt: _c, updatedBy: _d, ...now } = after;
  return { before: was, after: now };
}
