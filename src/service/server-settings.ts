/**
 * A server's settings (issue 17), as admins set them with /settings: defaults for requests that name none, the
 * models members may use and the most images per request, where generation is allowed, and whether previews
 * (streamed partial images, extra output tokens) are on. Stored versioned and validated (settings-store.ts); the
 * rules they impose on a job are {@link applySettings}'s; the settings themselves are src/core/server-settings.ts's.
 */
import { UserFacingError } from '../errors.js';
import { type SizeChoice, sizeText } from '../core/sizes.js';
import { literal, phrase } from '../core/phrase.js';
import type { GenerateRequest } from '../core/image-request.js';
import { perksOf } from '../core/member-perks.js';
import type { QuotaSubject } from '../core/quota.js';
import type { ServerSettings } from '../core/server-settings.js';
import { QUALITY_ORDER, qualityRank } from '../core/drafts.js';

/** Where and by whom a job is asked, as the settings' rules need it. */
export interface JobPlace {
  /** The channel, or for a thread its parent (threads follow their parent channel). */
  channelId: string | null;
  /** A thread whose parent is not known (`channelId` is then the thread's): the channel rules fail closed. */
  parentUnknown?: boolean | undefined;
  /** Manage Server: not bound by allowed models and the most images. */
  manager: boolean;
  /** The channel (or the thread's parent) is age-restricted. */
  ageRestricted: boolean;
  /** The requester's roles on the server. */
  roleIds: readonly string[];
}

/**
 * The request with the server's defaults filled in, after checking the settings' rules: the channel rules (for
 * everyone, so admins see them work too), and for members the allowed models and the most images.
 * @throws UserFacingError naming where generation is allowed, the allowed models, or the most images
 */
export function applySettings(request: GenerateRequest, settings: ServerSettings, place: JobPlace): GenerateRequest {
  checkChannel(settings, place.channelId, place.parentUnknown === true);
  if (request.moderation === 'low') checkModeration(settings, place);
  const { defaults } = settings;
  const filled = {
    model: request.model ?? defaults.model ?? settings.allowedModels[0],
    // A ratio or resolution asks for its own size: the server's default size does not stand in for it.
    size: request.ratio !== undefined || request.resolution !== undefined ? request.size : (request.size ?? defaults.size),
    quality: request.quality ?? defaults.quality,
    outputFormat: request.outputFormat ?? defaults.outputFormat,
  };
  // Only the fields that have a value: an absent field stays absent (the schemas read `undefined` as set).
  const applied: GenerateRequest = { ...request, ...Object.fromEntries(Object.entries(filled).filter(([, value]) => value !== undefined)) };
  if (place.manager) return applied;
  const model = applied.model;
  if (settings.allowedModels.length > 0 && (model === undefined || !settings.allowedModels.includes(model)))
    throw new UserFacingError('settings.modelNotAllowed', { allowed: literal(...settings.allowedModels) });
  if (settings.maxCount !== undefined && (applied.n ?? 1) > settings.maxCount) throw new UserFacingError('settings.tooMany', { limit: settings.maxCount });
  if (settings.maxQuality !== undefined && applied.quality !== undefined && qualityRank(applied.quality) > qualityRank(settings.maxQuality))
    throw new UserFacingError('input.invalid', {
      param: 'quality',
      detail: phrase('detail.server.maxQuality', { quality: settings.maxQuality }),
      allowed: literal(...QUALITY_ORDER.filter((q) => qualityRank(q) <= qualityRank(settings.maxQuality ?? 'max'))),
    });
  return applied;
}

/**
 * Prompt help (describe) may run here: the server has not turned it off, and the channel rules allow it.
 * @throws UserFacingError
 */
export function checkPromptHelp(settings: ServerSettings, channelId: string | null, parentUnknown = false): void {
  checkChannel(settings, channelId, parentUnknown);
  if (!settings.promptHelp) throw new UserFacingError('promptHelp.off');
}

/**
 * The channel rules (`only`/`except`) for `channelId` (a thread's parent); a thread whose parent is not known is refused.
 * @throws UserFacingError naming where the bot may be used
 */
export function checkChannel(settings: ServerSettings, channelId: string | null, parentUnknown: boolean): void {
  const { mode, ids } = settings.channels;
  if (mode === 'everywhere' || channelId === null) return;
  // A thread of an unknown channel could be one of the excluded (or outside the listed) ones: refused, never let through.
  if (parentUnknown) throw new UserFacingError('settings.threadUnknown');
  const listed = ids.includes(channelId);
  if (mode === 'only' && !listed) throw new UserFacingError('settings.channelOnly', { channels: ids.map((id) => `<#${id}>`).join(', ') });
  if (mode === 'except' && listed) throw new UserFacingError('settings.channelExcept', { channels: ids.map((id) => `<#${id}>`).join(', ') });
}

/**
 * The server's largest size, for members, on the size the request asks for once its ratio is turned into one.
 * @throws UserFacingError naming the largest size allowed
 */
export function checkServerSize(request: GenerateRequest, settings: ServerSettings, place: Pick<JobPlace, 'manager'>): void {
  if (place.manager || settings.maxSize === undefined || request.size === undefined) return;
  if (pixelsOf(request.size) > pixelsOf(settings.maxSize))
    throw new UserFacingError('input.invalid', {
      param: 'size',
      detail: phrase('detail.server.maxSize', { size: sizeText(settings.maxSize) }),
      allowed: phrase('allowed.serverSize', { size: sizeText(settings.maxSize) }),
    });
}

/** Pixels of a size; 0 for auto. */
function pixelsOf(size: SizeChoice): number {
  return size === 'auto' ? 0 : size.width * size.height;
}

/** `moderation:low` by the server's NSFW policy: nowhere; age-restricted channels or admins (the default); or the chosen roles (and admins) anywhere. */
function checkModeration(settings: ServerSettings, place: JobPlace): void {
  const { mode, roleIds } = settings.nsfw;
  if (mode === 'nowhere') throw new UserFacingError('settings.moderationOff');
  if (place.manager) return;
  if (mode === 'age-restricted' && place.ageRestricted) return;
  if (mode === 'roles' && roleIds.some((id) => place.roleIds.includes(id))) return;
  if (mode === 'roles') throw new UserFacingError('settings.moderationRoles', { roles: roleIds.map((id) => `<@&${id}>`).join(', ') });
  throw new UserFacingError('input.moderationNotAllowed');
}

/**
 * Whether results of a job asked in `channelId` (a thread's parent) are posted as spoilers; in a thread whose parent
 * is not known, whenever the server has spoiler channels at all (it could be one of them).
 */
export function postsSpoilers(settings: ServerSettings, channelId: string | null, parentUnknown = false): boolean {
  if (parentUnknown) return settings.spoilerChannelIds.length > 0;
  return channelId !== null && settings.spoilerChannelIds.includes(channelId);
}

/**
 * `subject` with the perks `settings` give them (issue 32: their queue lane and their limits' multipliers), from their
 * roles and whether they boost the server; outside servers, as it is (no perks).
 */
export function withPerks(subject: QuotaSubject, settings: ServerSettings): QuotaSubject {
  if (subject.guildId === null) return subject;
  return { ...subject, perks: perksOf(settings.priority, subject) };
}
