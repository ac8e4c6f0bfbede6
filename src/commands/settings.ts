/**
 * /settings show|defaults|models|max-count|max-size|max-quality|channels|nsfw|spoilers|audit|showcase|drafts|previews|prompt-help|priority|confirm-cost (Manage Server, checked here from the member's
 * permissions as well as by Discord's command settings). Each change answers with what it was and what it is now,
 * and is logged with who made it.
 */
import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { GenerateRequest } from '../core/image-request.js';
import { readSize } from '../core/sizes.js';
import { validateGenerateRequest } from '../core/image-rules.js';
import type { AuditTrail } from '../ports/audit-trail.js';
import { MAX_LISTED_CHANNELS, MAX_PERK_ROLES, type ServerSettings } from '../core/server-settings.js';
import { changeDrafts } from '../core/drafts.js';
import { grantPerk } from '../core/member-perks.js';
import type { SettingsChange, SettingsStore } from '../service/settings-store.js';
import type { ChatCommand, InteractionContext } from './command.js';
import { requireGuild, requireManageServer } from './server-admin.js';
import { CHANNEL_OPTIONS, ROLE_OPTIONS, SETTINGS_DATA } from './settings-data.js';
import { renderSettings, renderSettingsChanged } from '../discord/views/settings-text.js';
import { readSubcommand, subcommandOf, type SubcommandName, type SubcommandReader } from './option-reader.js';
import { phrase } from '../core/phrase.js';

/** What /settings needs. */
export interface SettingsCommandDeps {
  settings: Pick<SettingsStore, 'get' | 'update'>;
  /** Tells the audit channel (the one set before the change, or after it when there was none). */
  audit?: Pick<AuditTrail, 'settingsChanged'> | undefined;
}

type Change = (settings: ServerSettings) => ServerSettings;

/** The subcommands that change a setting (all but `show`). */
type Setting = Exclude<SubcommandName<typeof SETTINGS_DATA>, 'show'>;
/** The reader of a subcommand's own options (as SETTINGS_DATA defines them). */
type Read<S extends Setting> = SubcommandReader<typeof SETTINGS_DATA, S>;

/** Creates /settings. */
export function createSettingsCommand(deps: SettingsCommandDeps): ChatCommand {
  return {
    kind: 'chat',
    data: SETTINGS_DATA,
    async execute(interaction, ctx) {
      requireManageServer(interaction);
      const guildId = requireGuild(interaction, phrase('detail.guild.settings'));
      const sub = subcommandOf(interaction.options, SETTINGS_DATA);
      // Parsed before anything is deferred: bad input is answered at once.
      const change = sub === 'show' ? undefined : changeOf(interaction, sub);
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
      await interaction.editReply({ content: renderSettingsChanged(result.after, interaction.locale), allowedMentions: { parse: [] } });
    },
  };
}

/** Subcommand `name`'s change, its options read by its own definition. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- S ties the row to its reader (a correlated union)
function changeOf<S extends Setting>(interaction: ChatInputCommandInteraction, name: S): Change {
  return SETTINGS[name](readSubcommand(interaction.options, SETTINGS_DATA, name));
}

/**
 * The settings table (a table, exempt from the function length rule): each subcommand of SETTINGS_DATA but `show`,
 * and how its options change the settings. The compiler holds it to the definition: a subcommand without a row, or a
 * row reading an option its subcommand does not have, does not compile.
 */
const SETTINGS: { [S in Setting]: (read: Read<S>) => Change } = {
  defaults(read) {
    const given = GenerateRequest.pick({ model: true, size: true, quality: true, outputFormat: true }).safeParse({
      model: read.string('model'),
      size: read.string('size'),
      quality: read.string('quality'),
      outputFormat: read.string('format'),
    });
    if (!given.success) throw new UserFacingError('input.invalid', { param: String(given.error.issues[0]?.path[0] ?? 'default') });
    // The general rules (sizes, formats): a default no request could use is refused now, not at every request.
    const checked = validateGenerateRequest({ prompt: 'settings', ...given.data });
    const defined = Object.fromEntries(
      (['model', 'size', 'quality', 'outputFormat'] as const).filter((key) => given.data[key] !== undefined).map((key) => [key, checked[key]]),
    );
    const clear = read.boolean('clear') === true;
    return (s) => ({ ...s, defaults: { ...(clear ? {} : s.defaults), ...defined } });
  },
  models(read) {
    const text = read.string('allowed').trim();
    const models = text.toLowerCase() === 'all' ? [] : [...new Set(text.split(/[\s,]+/).filter((m) => m.length > 0))];
    return (s) => ({ ...s, allowedModels: models });
  },
  'max-count'(read) {
    const count = read.integer('count');
    return (s) => ({ ...s, maxCount: count === 0 ? undefined : count });
  },
  'max-size'(read) {
    const text = read.string('size').trim().toLowerCase();
    if (text === 'any') return (s) => ({ ...s, maxSize: undefined });
    const size = readSize(text);
    if (size === undefined || size === 'auto' || size.width < 1 || size.height < 1)
      throw new UserFacingError('input.invalid', { param: 'size', allowed: phrase('allowed.serverSizeSetting') });
    return (s) => ({ ...s, maxSize: size });
  },
  'max-quality'(read) {
    const quality = read.string('quality');
    return (s) => ({ ...s, maxQuality: quality === 'any' ? undefined : quality });
  },
  channels(read) {
    const mode = read.string('mode');
    const ids = given(CHANNEL_OPTIONS.map((name) => read.channel(name)?.id));
    if (mode !== 'everywhere' && ids.length === 0)
      throw new UserFacingError('input.invalid', { param: 'channel1', detail: phrase('detail.settings.channels', { mode }) });
    return (s) => ({ ...s, channels: { mode, ids: mode === 'everywhere' ? [] : ids } });
  },
  nsfw(read) {
    const mode = read.string('mode');
    const roleIds = given(ROLE_OPTIONS.map((name) => read.role(name)?.id));
    if (mode === 'roles' && roleIds.length === 0) throw new UserFacingError('input.invalid', { param: 'role1', detail: phrase('detail.settings.roles') });
    return (s) => ({ ...s, nsfw: { mode, roleIds: mode === 'roles' ? roleIds : [] } });
  },
  spoilers(read) {
    const ids = given(CHANNEL_OPTIONS.map((name) => read.channel(name)?.id));
    return (s) => ({ ...s, spoilerChannelIds: ids });
  },
  audit(read) {
    const channelId = read.channel('channel')?.id;
    return (s) => ({ ...s, auditChannelId: channelId });
  },
  priority(read) {
    const target = { roleId: read.role('role')?.id, boosters: read.boolean('boosters') === true };
    if (target.roleId === undefined && !target.boosters)
      throw new UserFacingError('input.invalid', { param: 'role', detail: phrase('detail.settings.priorityTarget') });
    const perk = {
      lane: read.string('lane') ?? 'normal',
      quotaMultiplier: read.integer('quota-multiplier') ?? 1,
      moneyMultiplier: read.integer('money-multiplier') ?? 1,
    };
    return (s) => {
      const priority = grantPerk(s.priority, target, perk);
      if (priority.roles.length > MAX_PERK_ROLES)
        throw new UserFacingError('input.invalid', { param: 'role', detail: phrase('detail.settings.priorityRoles', { max: MAX_PERK_ROLES }) });
      return { ...s, priority };
    };
  },
  showcase(read) {
    const channelId = read.channel('channel')?.id;
    return (s) => ({ ...s, showcaseChannelId: channelId });
  },
  'confirm-cost'(read) {
    const threshold = read.number('usd');
    return (s) => ({ ...s, confirmAboveUsd: threshold });
  },
  drafts(read) {
    const change = { enabled: read.boolean('enabled'), channelId: read.channel('channel')?.id };
    return (s) => {
      const changed = changeDrafts(s.drafts, change, MAX_LISTED_CHANNELS);
      if ('refused' in changed)
        throw new UserFacingError('input.invalid', {
          param: 'channel',
          detail: phrase(changed.refused === 'full' ? 'detail.settings.draftsFull' : 'detail.settings.draftsEverywhere', { max: MAX_LISTED_CHANNELS }),
        });
      return { ...s, drafts: { everywhere: changed.places.everywhere, channelIds: [...changed.places.channelIds] } };
    };
  },
  previews(read) {
    const enabled = read.boolean('enabled');
    return (s) => ({ ...s, previews: enabled });
  },
  'prompt-help'(read) {
    const enabled = read.boolean('enabled');
    const count = read.integer('describes');
    const period = read.string('period') ?? 'day';
    return (s) => ({ ...s, promptHelp: enabled, describeLimit: count === undefined ? undefined : { count, period } });
  },
};

/** The ids given (channel1…channel5, role1…role3), each once, in option order. */
function given(ids: readonly (string | undefined)[]): string[] {
  return [...new Set(ids.filter((id) => id !== undefined))];
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
