/**
 * The images of a result the bot posted, fetched again for /show. The message is read again (GET
 * /channels/{channel}/messages/{message}) rather than trusting the attachment URLs the history kept: those are signed
 * and expire after about a day, while the message's are fresh, and a result its member deleted stays deleted. Its
 * files (attachments, or a card's gallery and file components) are then downloaded, so the new post carries copies of its own instead of links that break once the
 * original's URLs expire or the original goes. Their bytes are admitted to the memory budget before they are
 * downloaded (each file read no further than Discord declares it, or its share of the room when it declares nothing),
 * and held there until the caller has posted them.
 */
import { DiscordAPIError, Routes, type APIMessage, type REST } from 'discord.js';
import type { Logger } from 'pino';
import type { FetchedImages, PostedImages } from '../ports/posted-images.js';
import { UserFacingError } from '../errors.js';
import { AttachmentDownloadError } from '../core/attachment-download.js';
import { messageFiles } from './message-images.js';

/** Discord's answers that put a message out of reach: unknown channel, unknown message, missing access. */
const OUT_OF_REACH = new Set([10003, 10008, 50001]);

/** Options of {@link DiscordPostedImages}. */
export interface DiscordPostedImagesOptions {
  rest: REST;
  /** Downloads one attachment from Discord's CDN (its host allow-list applied), reading no more than `maxBytes`. */
  download(url: string, maxBytes: number, signal: AbortSignal): Promise<Buffer>;
  /**
   * Room in the memory budget for `bytes`, waited for until `signal` aborts; without it, nothing is admitted. `maxBytes`
   * is the most a message's files may take together.
   */
  memory?: { take(bytes: number, signal: AbortSignal): Promise<() => void>; maxBytes: number } | undefined;
  /** The most one file is read to (ATTACHMENT_MAX_BYTES). */
  maxFileBytes: number;
  /** The longest the room and downloads take together. @default 60000 */
  timeoutMs?: number | undefined;
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

  async fetch(place: { channelId: string; messageId: string }): Promise<FetchedImages | undefined> {
    let message: APIMessage;
    try {
      // discord.js's REST returns the JSON untyped; this route answers with a message.
      message = (await this.#options.rest.get(Routes.channelMessage(place.channelId, place.messageId))) as APIMessage;
    } catch (err) {
      if (err instanceof DiscordAPIError && OUT_OF_REACH.has(Number(err.code))) return undefined;
      throw err;
    }
    // A card's files are in its gallery and file components, not its attachments (discord-api-docs#8277).
    const files = messageFiles(message);
    const caps = this.#caps(files.map((f) => f.size));
    const signal = AbortSignal.timeout(this.#options.timeoutMs ?? 60_000);
    const release = await this.#room(
      caps.reduce((sum, cap) => sum + cap, 0),
      signal,
    );
    try {
      const images = await Promise.all(files.map(async (f, i) => ({ bytes: await this.#options.download(f.url, caps[i] ?? 0, signal), filename: f.filename })));
      return { images, release };
    } catch (err) {
      release();
      if (!(err instanceof AttachmentDownloadError)) throw err;
      this.#log.warn({ err, messageId: place.messageId }, 'could not download the images of a posted result');
      return undefined;
    }
  }

  /** Room for `bytes`, waited for until `signal` ends the wait (then the member is told the bot is too busy). */
  async #room(bytes: number, signal: AbortSignal): Promise<() => void> {
    const memory = this.#options.memory;
    if (!memory) return () => undefined;
    try {
      return await memory.take(bytes, signal);
    } catch (err) {
      if (signal.aborted) throw new UserFacingError('memory.busy', {}, { cause: err });
      throw err;
    }
  }

  /**
   * How far each file is read: its declared size (or, declaring none, the most a file is read to), each cut to an
   * equal share of the room when together they would pass it.
   */
  #caps(sizes: readonly (number | undefined)[]): number[] {
    const { maxFileBytes, memory } = this.#options;
    const caps = sizes.map((size) => Math.min(size ?? maxFileBytes, maxFileBytes));
    const room = memory?.maxBytes;
    if (room === undefined || caps.reduce((sum, cap) => sum + cap, 0) <= room) return caps;
    const share = Math.floor(room / Math.max(1, caps.length));
    return caps.map((cap) => Math.min(cap, share));
  }
}
