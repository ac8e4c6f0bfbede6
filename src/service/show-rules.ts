/**
 * What /show must obey before it posts a result again (issue 29): it posts publicly, where the member is now, so it
 * meets the rules a new job would meet there. The server's channel rules for the target channel; a result made with
 * `moderation:low` only in an age-restricted channel (or in a direct message, which nobody else reads); the member's
 * Attach Files permission there (an interaction reply is not bound by it, so the bot checks); and the target channel's
 * spoiler setting. Pure.
 */
import { UserFacingError } from '../errors.js';
import type { HistoryEntry } from '../core/history-entries.js';
import { checkChannel, postsSpoilers } from './server-settings.js';
import { type ServerSettings } from '../core/server-settings.js';

/** Where /show is asked, as its rules need it. */
export interface ShowPlace {
  /** The channel, or for a thread its parent; null in a direct message. */
  channelId: string | null;
  /** A thread whose parent is not known: the channel rules fail closed and spoilers apply if the server has any. */
  parentUnknown: boolean;
  /** The channel (or the thread's parent) is age-restricted. */
  ageRestricted: boolean;
  /** The member may attach files here (always true in a direct message). */
  canAttachFiles: boolean;
}

/**
 * Checks that `entry` may be shown at `place`; `spoiler`: its images go out as spoilers there.
 * @throws UserFacingError naming the rule that refuses it
 */
export function checkShow(entry: Pick<HistoryEntry, 'moderation'>, settings: ServerSettings, place: ShowPlace): { spoiler: boolean } {
  checkChannel(settings, place.channelId, place.parentUnknown);
  if (!place.canAttachFiles) throw new UserFacingError('show.noAttachFiles');
  // An entry recorded before the level was kept could be a `low` one: treated as one.
  const low = entry.moderation !== 'auto';
  if (low && place.channelId !== null && !place.ageRestricted) throw new UserFacingError('show.ageRestrictedOnly');
  return { spoiler: postsSpoilers(settings, place.channelId, place.parentUnknown) };
}
