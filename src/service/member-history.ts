/**
 * Members' histories (issue 18) as the commands use them: the service records each delivered job for the member it
 * was made for, and a member pages through, searches, shows again and clears their own history on the server they
 * ask from. The owner always comes from who asks (the interaction), never from an option, so nobody reaches anyone
 * else's history, admins included.
 */
import { pageOf } from '../core/paging.js';
import type { HistoryPage } from '../core/reports.js';
import { UserFacingError } from '../errors.js';
import type { HistoryEntry, HistoryOwner } from '../core/history-entries.js';
import type { HistoryStore } from '../ports/history-store.js';
import type { ImageJob, Posted } from '../core/jobs.js';
import type { PostedImage, PostedImages } from '../ports/posted-images.js';
import type { Clock } from '../ports/clock.js';
import { DEFAULT_SETTINGS } from '../core/server-settings.js';
import type { SettingsStore } from './settings-store.js';
import { checkShow, type ShowPlace } from './show-rules.js';
import { sizeText } from '../core/sizes.js';

/** Entries on one page of /history (one embed each; a message holds 10). */
export const HISTORY_PAGE_SIZE = 5;
/** Autocomplete offers at most 25 choices (Discord's limit). */
const MAX_CHOICES = 25;

/** Options of {@link MemberHistory}. */
export interface MemberHistoryOptions {
  store: HistoryStore;
  images: PostedImages;
  clock: Clock;
  /** HISTORY_DAYS in milliseconds: entries older than that are neither shown nor kept. */
  keepMs: number;
  /** The servers' settings, whose rules /show obeys; without it, every server has the defaults. */
  settings?: Pick<SettingsStore, 'get'> | undefined;
}

/** See the module comment. */
export class MemberHistory {
  readonly #options: MemberHistoryOptions;

  constructor(options: MemberHistoryOptions) {
    this.#options = options;
  }

  /** Adds a delivered job (its request as sent) to its member's history; nothing when the delivery named no message. */
  async record(job: ImageJob, delivered: { model: string; images: number; posted: Posted }): Promise<void> {
    const { posted } = delivered;
    const channelId = posted.channelId ?? job.origin.channelId;
    const messageId = posted.messageIds[0];
    if (channelId === null || messageId === undefined) return;
    const now = this.#options.clock.now();
    const entry: HistoryEntry = {
      jobId: job.id,
      kind: job.kind,
      prompt: job.request.prompt,
      model: delivered.model,
      size: job.request.size ? sizeText(job.request.size) : null,
      images: delivered.images,
      createdAt: now,
      guildId: posted.guildId === undefined ? job.origin.guildId : posted.guildId,
      channelId,
      messageId,
      ...(posted.imageUrl === undefined ? {} : { imageUrl: posted.imageUrl }),
      moderation: job.request.moderation === 'low' ? 'low' : 'auto',
      originChannelId: job.origin.parentChannelId ?? job.origin.channelId,
    };
    await this.#options.store.add(ownerOf(job), entry, { keepFrom: now - this.#options.keepMs, keepMs: this.#options.keepMs });
  }

  /** Page `page` (0-based, clamped) of the owner's history as it stood at `asOf`, newest first. */
  async page(owner: HistoryOwner, page: number, asOf = this.#options.clock.now()): Promise<HistoryPage> {
    return {
      ...pageOf(
        (await this.#kept(owner)).filter((e) => e.createdAt <= asOf),
        page,
        HISTORY_PAGE_SIZE,
      ),
      asOf,
    };
  }

  /** The owner's jobs whose prompt contains `text` or whose id starts with it (any case), newest first, at most 25. */
  async search(owner: HistoryOwner, text: string): Promise<HistoryEntry[]> {
    const needle = text.trim().toLowerCase();
    const matches = (e: HistoryEntry) => e.prompt.toLowerCase().includes(needle) || e.jobId.toLowerCase().startsWith(needle);
    return (await this.#kept(owner)).filter(matches).slice(0, MAX_CHOICES);
  }

  /**
   * One of the owner's jobs with the images its message carries now, held in the memory budget until `release`, once
   * the server's rules allow showing it at `place` (show-rules.ts); nothing is downloaded for a job refused there.
   * `spoiler`: post its images as spoilers.
   * @throws UserFacingError `history.unknownJob` when it is not in the owner's history, a rule's refusal, or
   * `history.resultGone` when its message is gone or has no images left
   */
  async show(
    owner: HistoryOwner,
    jobId: string,
    place: ShowPlace,
  ): Promise<{ entry: HistoryEntry; images: PostedImage[]; spoiler: boolean; release: () => void }> {
    const entry = (await this.#kept(owner)).find((e) => e.jobId === jobId);
    if (!entry) throw new UserFacingError('history.unknownJob');
    const settings = owner.guildId === null ? DEFAULT_SETTINGS : ((await this.#options.settings?.get(owner.guildId)) ?? DEFAULT_SETTINGS);
    const { spoiler } = checkShow(entry, settings, place);
    const fetched = await this.#options.images.fetch(entry);
    if (!fetched || fetched.images.length === 0) {
      fetched?.release();
      throw new UserFacingError('history.resultGone');
    }
    return { entry, images: fetched.images, spoiler, release: () => fetched.release() };
  }

  /** Deletes the owner's history from the store. */
  clear(owner: HistoryOwner): Promise<void> {
    return this.#options.store.clear(owner);
  }

  async #kept(owner: HistoryOwner): Promise<HistoryEntry[]> {
    const keepFrom = this.#options.clock.now() - this.#options.keepMs;
    return (await this.#options.store.entries(owner)).filter((e) => e.createdAt >= keepFrom);
  }
}

/** A job's history is its requester's, on the server it was asked from. */
function ownerOf(job: ImageJob): HistoryOwner {
  return { guildId: job.origin.guildId, userId: job.origin.requesterId };
}
