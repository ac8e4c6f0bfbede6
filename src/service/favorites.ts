/**
 * ⭐ on a result (issue 32): the member's favorites, and the server's showcase. A star is counted against the member's
 * rate limit first, then saves the result to their favorites on that server (core/favorites.ts: at most 100, the oldest
 * pushed out). Where the server has a showcase channel, the result is posted there once: the showcase channel's own
 * gates are checked again for it (the server's channel rules, a `moderation:low` result only in an age-restricted
 * channel, the bot's permissions there), the post is claimed atomically in the store (two stars, by two members or in
 * two processes, post once; a failed post gives its claim back), and the card's image is downloaded again like a
 * reference (room in the memory budget first, its header checked against MAX_DECODE_PIXELS), in the member's line.
 */
import type { Logger } from 'pino';
import {
  favoritePrompt,
  favoritesPage,
  ShowcasePostError,
  type FavoriteRemoved,
  type FavoritesPage,
  type ShowcaseOutcome,
  type ShowcaseRefusal,
  type StarOutcome,
} from '../core/favorites.js';
import { messageLink, type HistoryOwner } from '../core/history-entries.js';
import { unsizedImageBytes } from '../core/image-rules.js';
import type { AttachmentRef } from '../core/jobs.js';
import { DEFAULT_SETTINGS } from '../core/server-settings.js';
import { UserFacingError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { FavoritesStore } from '../ports/favorites-store.js';
import type { ShowcasePoster } from '../ports/showcase-poster.js';
import { checkedHeader } from './decode-guard.js';
import type { JobDeps } from './image-job/deps.js';
import { newJobId } from './job-id.js';
import { MemberRateLimit } from './member-rate-limit.js';
import { checkChannel, postsSpoilers } from './server-settings.js';
import type { SettingsStore } from './settings-store.js';
import type { MemberActions } from './member-actions.js';

/** Favorites live this long after the member's last star. */
const FAVORITES_KEEP_MS = 365 * 86_400_000;
/** How long a showcase post is remembered (a later star of the same result posts nothing). */
const SHOWCASE_KEEP_MS = 365 * 86_400_000;
/** A claim never settled (its process died) lapses after this, so a later star may post the result. */
const CLAIM_TTL_MS = 5 * 60_000;
/** Stars per member per minute. */
const STARS_PER_MINUTE = 10;
/** Removals per member per minute (a Remove button each, counted apart from stars). */
const REMOVALS_PER_MINUTE = 10;

/** Options of {@link Favorites}. */
export interface FavoritesOptions {
  store: FavoritesStore;
  /** Servers' settings (the showcase channel and its rules); without it, no server has a showcase. */
  settings?: Pick<SettingsStore, 'get'> | undefined;
  /** The production's queue, downloads, memory and pixel cap (the showcase's image is fetched as a reference is). */
  produce: JobDeps['produce'];
  clock: Clock;
  logger: Logger;
  /** Counts showcase posts in /usage and tells them to the audit channel. */
  actions?: Pick<MemberActions, 'record'> | undefined;
}

/** One star: who, on which result, and its card. */
export interface StarOrder {
  /** The member who starred, on the server they starred on (null outside servers). */
  owner: HistoryOwner;
  jobId: string;
  prompt: string;
  /** Who the result was made for. */
  authorId: string;
  /** The result was made with `moderation:low`. */
  lowModeration: boolean;
  card: { channelId: string; messageId: string };
  /** The card's image (the showcase posts it). */
  image: AttachmentRef;
  /** The server's preferred language, the showcase post is written in. */
  guildLocale?: string | null | undefined;
}

/** See the module comment. */
export class Favorites {
  readonly #options: FavoritesOptions;
  readonly #rate: MemberRateLimit;
  readonly #removals: MemberRateLimit;
  readonly #log: Logger;

  constructor(options: FavoritesOptions) {
    this.#options = options;
    this.#rate = new MemberRateLimit({ count: STARS_PER_MINUTE, windowMs: 60_000, clock: options.clock, refusal: 'favorite.tooFast' });
    this.#removals = new MemberRateLimit({ count: REMOVALS_PER_MINUTE, windowMs: 60_000, clock: options.clock, refusal: 'favorite.removeTooFast' });
    this.#log = options.logger.child({ module: 'favorites' });
  }

  /**
   * Saves the result to the member's favorites and, where the server has a showcase, posts it there once.
   * @throws UserFacingError favorite.tooFast (the member's rate limit), or the store's unavailability
   */
  async star(order: StarOrder, poster: ShowcasePoster): Promise<StarOutcome> {
    this.#rate.take(order.owner.userId);
    const entry = {
      jobId: order.jobId,
      prompt: favoritePrompt(order.prompt),
      authorId: order.authorId,
      guildId: order.owner.guildId,
      ...order.card,
      starredAt: this.#options.clock.now(),
    };
    const added = await this.#options.store.add(order.owner, entry, FAVORITES_KEEP_MS);
    this.#log.info({ jobId: order.jobId, total: added.total, dropped: added.dropped }, 'result starred');
    const guildId = order.owner.guildId;
    return { added, showcase: guildId === null ? { kind: 'none' } : await this.#showcase(order, guildId, poster) };
  }

  /** The member's favorites on the server they ask from, newest first. */
  list(owner: HistoryOwner) {
    return this.#options.store.entries(owner);
  }

  /** Page `page` of the member's favorites here, counting those starred until `asOf` (now by default). */
  async page(owner: HistoryOwner, page: number, asOf = this.#options.clock.now()): Promise<FavoritesPage> {
    return favoritesPage(await this.#options.store.entries(owner), page, asOf);
  }

  /**
   * Removes result `jobId` from the member's favorites here; a showcase post of it stays.
   * @throws UserFacingError favorite.removeTooFast (the member's rate limit of removals), or the store's unavailability
   */
  async remove(owner: HistoryOwner, jobId: string): Promise<FavoriteRemoved> {
    this.#removals.take(owner.userId);
    const removed = await this.#options.store.remove(owner, jobId, FAVORITES_KEEP_MS);
    this.#log.info({ jobId, removed: removed.removed, total: removed.total }, 'favorite removed');
    return removed;
  }

  /** The showcase's gates, its claim, and the post. */
  async #showcase(order: StarOrder, guildId: string, poster: ShowcasePoster): Promise<ShowcaseOutcome> {
    const settings = (await this.#options.settings?.get(guildId)) ?? DEFAULT_SETTINGS;
    const channelId = settings.showcaseChannelId;
    if (channelId === undefined) return { kind: 'none' };
    const refused = (reason: ShowcaseRefusal): ShowcaseOutcome => ({ kind: 'refused', channelId, reason });
    try {
      checkChannel(settings, channelId, false);
    } catch {
      return refused('channelRules');
    }
    const channel = await poster.channel(guildId, channelId);
    if (!channel) return refused('gone');
    if (order.lowModeration && !channel.nsfw) return refused('ageRestricted');
    if (!channel.botCanPost) return refused('noAccess');
    const holder = newJobId();
    const claim = await this.#options.store.claimShowcase(
      guildId,
      order.jobId,
      { holder, by: order.owner.userId, at: this.#options.clock.now() },
      CLAIM_TTL_MS,
    );
    if (claim === 'taken') return { kind: 'already', channelId };
    let messageId: string | undefined;
    try {
      messageId = await this.#post(order, { guildId, channelId, spoiler: postsSpoilers(settings, channelId) }, poster);
      this.#log.info({ jobId: order.jobId, guildId, channelId, messageId }, 'result posted to the showcase');
      const link = messageLink({ guildId, channelId, messageId });
      await this.#options.actions?.record({
        guildId,
        userId: order.owner.userId,
        action: 'showcase',
        authorId: order.authorId,
        link,
        locale: order.guildLocale,
      });
      return { kind: 'posted', channelId };
    } catch (err) {
      this.#log.warn({ err, jobId: order.jobId, guildId, channelId }, 'showcase post failed');
      return refused(err instanceof ShowcasePostError && err.reason !== 'unavailable' ? err.reason : 'failed');
    } finally {
      await this.#options.store
        .settleShowcase(guildId, order.jobId, holder, messageId, SHOWCASE_KEEP_MS)
        .catch((err: unknown) => this.#log.error({ err, jobId: order.jobId }, 'could not settle the showcase claim; it lapses'));
    }
  }

  /** The card's image fetched again (room first, header checked) and posted, in the member's line. */
  async #post(order: StarOrder, place: { guildId: string; channelId: string; spoiler: boolean }, poster: ShowcasePoster): Promise<string> {
    const { queue, memory: budget, maxAttachmentBytes, maxDecodePixels, download } = this.#options.produce;
    const ticket = queue.submit(order.owner.userId, async (signal) => {
      const ref = order.image;
      const readUpTo = Math.min(ref.size ?? unsizedImageBytes(maxAttachmentBytes, budget.referenceBytes), maxAttachmentBytes, budget.referenceBytes);
      const memory = budget.forJob(0);
      try {
        await memory.takeReferences(readUpTo, signal);
        const bytes = await download(ref, readUpTo, signal);
        if (!(await checkedHeader(bytes, maxDecodePixels, ref.filename))) throw new UserFacingError('input.attachmentInvalid', { param: ref.filename });
        const link = messageLink({ guildId: place.guildId, ...order.card });
        const image = { bytes, filename: ref.filename };
        const post = { ...place, image, prompt: order.prompt, authorId: order.authorId, starredBy: order.owner.userId, link, locale: order.guildLocale };
        return (await poster.post(post)).messageId;
      } finally {
        memory.release();
      }
    });
    if (!ticket.accepted) throw new ShowcasePostError('unavailable');
    return ticket.result;
  }
}
