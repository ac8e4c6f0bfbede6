/**
 * Adds a server's emoji and stickers with the bot's REST client (issue 32): an emoji as JSON with its image as a data
 * URI, a sticker as multipart with `name`, `tags`, `description` and `file` (as discord.js's GuildStickerManager sends
 * them). The member who asked is named in the server's audit log. Discord's refusals become ExpressionRefusedError
 * with the reason the member is told.
 * @see https://discord.com/developers/docs/resources/emoji#create-guild-emoji
 * @see https://discord.com/developers/docs/resources/sticker#create-guild-sticker
 */
import { DiscordAPIError, RateLimitError, Routes, type REST } from 'discord.js';
import { z } from 'zod';
import { ExpressionRefusedError, type ExpressionFailure } from '../core/expressions.js';
import type { AddedExpression, GuildExpressions, NewExpression } from '../ports/guild-expressions.js';

/** What Discord answers: the new emoji's or sticker's id and name (the rest is not needed). */
const Added = z.object({ id: z.string(), name: z.string() });

/** Discord's JSON error codes that say why. */
const FAILURES = new Map<number, ExpressionFailure>([
  [50013, 'botPermission'],
  [50001, 'botPermission'],
  // Maximum number of emojis, of animated emojis, of stickers reached.
  [30008, 'slotsFull'],
  [30018, 'slotsFull'],
  [30039, 'slotsFull'],
  [50035, 'invalid'],
  [50045, 'invalid'],
  [50046, 'invalid'],
  [50138, 'invalid'],
]);

/** The audit log's reason, and the signal that gives up (waiting for a rate limit included). */
interface RequestOptions {
  reason: string;
  signal: AbortSignal | undefined;
}

/** See the module comment. */
export class DiscordGuildExpressions implements GuildExpressions {
  readonly #rest: REST;

  constructor(options: { rest: REST }) {
    this.#rest = options.rest;
  }

  async add(expression: NewExpression, signal?: AbortSignal): Promise<AddedExpression> {
    const options = { reason: `Made from an image by user ${expression.byUserId}`, signal };
    try {
      const answer = expression.kind === 'emoji' ? await this.#emoji(expression, options) : await this.#sticker(expression, options);
      const added = Added.parse(answer);
      return { id: added.id, name: added.name };
    } catch (err) {
      throw refusal(err);
    }
  }

  #emoji(expression: NewExpression, options: RequestOptions): Promise<unknown> {
    const image = `data:image/png;base64,${expression.image.toString('base64')}`;
    return this.#rest.post(Routes.guildEmojis(expression.guildId), { body: { name: expression.name, image }, ...options });
  }

  #sticker(expression: NewExpression, options: RequestOptions): Promise<unknown> {
    return this.#rest.post(Routes.guildStickers(expression.guildId), {
      // The fields go as form fields of their own, not as payload_json (discord.js's GuildStickerManager.create).
      appendToFormData: true,
      body: { name: expression.name, tags: expression.tags ?? '', description: expression.description ?? '' },
      files: [{ key: 'file', name: 'sticker.png', data: expression.image, contentType: 'image/png' }],
      ...options,
    });
  }
}

/** Discord's refusal as the service reads it; anything else (the network, a timeout) is its being unavailable. */
function refusal(err: unknown): ExpressionRefusedError {
  if (err instanceof RateLimitError) return new ExpressionRefusedError('rateLimited', { cause: err });
  if (err instanceof DiscordAPIError) {
    const known = typeof err.code === 'number' ? FAILURES.get(err.code) : undefined;
    if (known) return new ExpressionRefusedError(known, { cause: err });
    if (err.status === 429) return new ExpressionRefusedError('rateLimited', { cause: err });
  }
  return new ExpressionRefusedError('unavailable', { cause: err });
}
