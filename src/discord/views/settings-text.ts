/**
 * What /settings tells an admin about the server's settings, in their language (the interaction's locale). Values
 * admins typed (models, sizes, qualities) stay as they are; channels and roles are mentions.
 */
import { formatList, formatUsd, t } from '../../i18n/translate.js';
import { MAX_IMAGES_PER_REQUEST } from '../../core/image-request.js';
import type { Perk, PrioritySettings, ServerSettings } from '../../core/server-settings.js';
import { PRIORITY_LANE_WEIGHT } from '../../core/member-perks.js';
import { sizeText } from '../../core/sizes.js';

const has = (value: unknown): 'yes' | 'no' => (value === undefined ? 'no' : 'yes');
const code = (text: string): string => `\`${text}\``;
const channel = (id: string): string => `<#${id}>`;
const role = (id: string): string => `<@&${id}>`;

/** The settings as an admin reads them. */
export function renderSettings(settings: ServerSettings, locale?: string | null): string {
  const { defaults, channels } = settings;
  const shown = { ...defaults, size: defaults.size && sizeText(defaults.size) };
  const defaultParts = (['model', 'size', 'quality', 'outputFormat'] as const)
    .filter((part) => shown[part] !== undefined)
    .map((part) => t(locale, 'admin.settings.default', { part: part === 'outputFormat' ? 'format' : part, value: code(String(shown[part])) }));
  const lines = [
    t(locale, 'admin.settings.title'),
    t(locale, 'admin.settings.defaults', { hasDefaults: defaultParts.length > 0 ? 'yes' : 'no', defaults: defaultParts.join(' · ') }),
    t(locale, 'admin.settings.drafts', {
      mode: settings.drafts.everywhere ? 'everywhere' : settings.drafts.channelIds.length > 0 ? 'channels' : 'off',
      channels: formatList(locale, settings.drafts.channelIds.map(channel)),
    }),
    t(locale, 'admin.settings.models', {
      hasModels: settings.allowedModels.length > 0 ? 'yes' : 'no',
      models: formatList(locale, settings.allowedModels.map(code)),
    }),
    t(locale, 'admin.settings.maxCount', { hasMax: has(settings.maxCount), max: settings.maxCount ?? 0, botMax: MAX_IMAGES_PER_REQUEST }),
    t(locale, 'admin.settings.sizeQuality', {
      hasSize: has(settings.maxSize),
      size: settings.maxSize ? sizeText(settings.maxSize) : '',
      hasQuality: has(settings.maxQuality),
      quality: settings.maxQuality ?? '',
    }),
    t(locale, 'admin.settings.where', { mode: channels.mode, channels: formatList(locale, channels.ids.map(channel)) }),
    t(locale, 'admin.settings.nsfw', {
      mode: settings.nsfw.mode,
      roles: formatList(locale, settings.nsfw.roleIds.map(role)),
    }),
    t(locale, 'admin.settings.spoilers', {
      hasChannels: settings.spoilerChannelIds.length > 0 ? 'yes' : 'no',
      channels: formatList(locale, settings.spoilerChannelIds.map(channel)),
    }),
    t(locale, 'admin.settings.previews', { enabled: settings.previews ? 'yes' : 'no' }),
    t(locale, 'admin.settings.promptHelp', { enabled: settings.promptHelp ? 'yes' : 'no' }),
    t(locale, 'admin.settings.describeLimit', {
      hasLimit: has(settings.describeLimit),
      limit: settings.describeLimit?.count ?? 0,
      period: settings.describeLimit?.period ?? 'day',
    }),
    renderPriority(settings.priority, locale),
    t(locale, 'admin.settings.confirmCost', { hasThreshold: has(settings.confirmAboveUsd), usd: formatUsd(locale, settings.confirmAboveUsd) }),
    t(locale, 'admin.settings.audit', { hasChannel: has(settings.auditChannelId), channel: channel(settings.auditChannelId ?? '') }),
    t(locale, 'admin.settings.showcase', { hasChannel: has(settings.showcaseChannelId), channel: channel(settings.showcaseChannelId ?? '') }),
  ];
  if (settings.updatedBy !== undefined && settings.updatedAt !== undefined)
    lines.push(t(locale, 'admin.settings.lastChanged', { by: `<@${settings.updatedBy}>`, when: `<t:${Math.floor(settings.updatedAt / 1000)}:R>` }));
  return lines.join('\n');
}

/** Who has which perks (boosters first, then the roles in the order they got them), and the normal lane's share. */
function renderPriority(priority: PrioritySettings, locale: string | null | undefined): string {
  const perk = (who: string, { lane, quotaMultiplier, moneyMultiplier }: Perk) =>
    t(locale, 'admin.settings.perk', { who, lane, quota: quotaMultiplier, money: moneyMultiplier });
  const perks = [
    ...(priority.boosters ? [perk(t(locale, 'admin.settings.boosters'), priority.boosters)] : []),
    ...priority.roles.map((grant) => perk(role(grant.roleId), grant)),
  ];
  return t(locale, 'admin.settings.priority', { hasPerks: perks.length > 0 ? 'yes' : 'no', perks: perks.join(' · '), turns: PRIORITY_LANE_WEIGHT + 1 });
}

/** The answer to a change: that it was made, and the settings now. */
export function renderSettingsChanged(after: ServerSettings, locale?: string | null): string {
  return `${t(locale, 'admin.settings.changed')}\n\n${renderSettings(after, locale)}`;
}
