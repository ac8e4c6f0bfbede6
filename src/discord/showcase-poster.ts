/**
 * The server's showcase channel (issue 32), over the bot's client: what the rules need to know of it (from the
 * client's cache, which holds every channel and role of the bot's servers: whether it is age-restricted, and whether
 * the bot may see it, send messages and attach files there), and the post itself (its card, showcase-card.ts, with the
 * image attached; mentions never ping). Discord's refusals become ShowcasePostError.
 */
import { DiscordAPIError, PermissionFlagsBits, Routes, type Client } from 'discord.js';
import { z } from 'zod';
import { ShowcasePostError } from '../core/favorites.js';
import type { ShowcaseChannel, ShowcasePost, ShowcasePoster } from '../ports/showcase-poster.js';
import { showcaseCard } from './views/showcase-card.js';

/** What the bot needs in the showcase channel. */
const NEEDED = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages, PermissionFlagsBits.AttachFiles];
/** Discord's answers that say the bot may not post there, or the channel is gone. */
const NO_ACCESS = new Set([50001, 50013]);
const GONE = new Set([10003]);

/** See the module comment. */
export class DiscordShowcasePoster implements ShowcasePoster {
  readonly #client: Client;

  constructor(options: { client: Client }) {
    this.#client = options.client;
  }

  channel(guildId: string, channelId: string): Promise<ShowcaseChannel | undefined> {
    const channel = this.#client.guilds.cache.get(guildId)?.channels.cache.get(channelId);
    if (!channel?.isTextBased() || channel.isThread()) return Promise.resolve(undefined);
    const me = this.#client.user;
    const permissions = me ? channel.permissionsFor(me) : null;
    return Promise.resolve({ nsfw: 'nsfw' in channel && channel.nsfw, botCanPost: permissions?.has(NEEDED) ?? false });
  }

  async post(post: ShowcasePost): Promise<{ messageId: string }> {
    const filename = post.image.filename;
    // A spoiler keeps its plain name: the upload says is_spoiler (spoiler-uploads.ts), and the card's gallery blurs it.
    const attachments = [{ id: '0', ...(post.spoiler ? { is_spoiler: true } : {}) }];
    try {
      const answer = await this.#client.rest.post(Routes.channelMessages(post.channelId), {
        body: { ...showcaseCard(post, filename), attachments, allowed_mentions: { parse: [] } },
        files: [{ name: filename, data: post.image.bytes }],
      });
      return { messageId: z.object({ id: z.string() }).parse(answer).id };
    } catch (err) {
      const code = err instanceof DiscordAPIError ? Number(err.code) : undefined;
      if (code !== undefined && NO_ACCESS.has(code)) throw new ShowcasePostError('noAccess', { cause: err });
      if (code !== undefined && GONE.has(code)) throw new ShowcasePostError('gone', { cause: err });
      throw new ShowcasePostError('unavailable', { cause: err });
    }
  }
}
