/**
 * The images of a result the bot posted, fetched again for /show. The message is read again (GET
 * /channels/{channel}/messages/{message}) rather than trusting the attachment URLs the history kept: those are signed
 * and expire after about a day, while the message's are fresh, and a result its member deleted stays deleted. Its
 * files (attachments, or a card's gallery and file components) are then downloaded, so the new post carries copies of its own instead of links that break once the
 * original's URLs expire or the original goes.
 */
import { DiscordAPIError, Routes, type APIMessage, type REST } from 'discord.js';
import type { Logger } from 'pino';
import type { PostedImage, PostedImages } from '../service/member-history.js';
import { AttachmentDownloadError } from '../service/ports.js';
import { messageFiles } from './message-images.js';

/** Discord's answers that put a message out of reach: unknown channel, unknown message, missing access. */
const OUT_OF_REACH = new Set([10003, 10008, 50001]);

/** Options of {@link DiscordPostedImages}. */
export interface DiscordPostedImagesOptions {
  rest: REST;
  /** Downloads one attachment from Discord's CDN (its host allow-list and a size cap applied). */
  download(url: string): Promise<Buffer>;
  logger: Logger;
}

/** See the module comment. */
export class DiscordPostedImages implements PostedImages {
  readonly #options: DiscordPostedImagesOptions;
  readonly #log: Logger;

  constructor(options: DiscordPostedImagesOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'posted-images' });
  }

  async fetch(place: { channelId: string; messageId: string }): Promise<PostedImage[] | undefined> {
    let message: APIMessage;
    try {
      // discord.js's REST returns the JSON untyped; this route answers with a message.
      message = (await this.#options.rest.get(Routes.channelMessage(place.channelId, place.messageId))) as APIMessage;
    } catch (err) {
      if (err instanceof DiscordAPIError && OUT_OF_REACH.has(Number(err.code))) return undefined;
      throw err;
    }
    try {
      // A card's files are in its gallery and file components, not its attachments (discord-api-docs#8277).
      return await Promise.all(messageFiles(message).map(async (f) => ({ bytes: await this.#options.download(f.url), filename: f.filename })));
    } catch (err) {
      if (!(err instanceof AttachmentDownloadError)) throw err;
      this.#log.warn({ err, messageId: place.messageId }, 'could not download the images of a posted result');
      return undefined;
    }
  }
}
