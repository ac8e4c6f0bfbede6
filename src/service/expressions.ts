/**
 * Make emoji and Make sticker (issue 32): one image of a result becomes a server's emoji or sticker. Refused before
 * anything is downloaded when it cannot be added here (a direct message, a server with only the commands, the member
 * or the bot without Create Expressions: core/expressions.ts), when the result was made with `moderation:low` (an
 * expression is seen in every channel of the server, age-restricted or not), or when the member is paused by
 * moderation strikes. Then, in the member's line like every other action on a card (the fair queue: their running and
 * queued limits), the image is downloaded again from the card like a reference (host allow-list, declared size, room
 * in the memory budget taken first), its header checked against MAX_DECODE_PIXELS, cropped and fitted
 * (expression-image.ts) and added through the GuildExpressions port, all within a time limit. Nothing is charged: no
 * gateway call is made.
 */
import type { Logger } from 'pino';
import { UserFacingError } from '../errors.js';
import {
  EXPRESSION_SPECS,
  ExpressionRefusedError,
  expressionRefusal,
  type ExpressionKind,
  type ExpressionPlace,
  type ExpressionWords,
} from '../core/expressions.js';
import { unsizedImageBytes } from '../core/image-rules.js';
import { largerThan } from '../core/phrase.js';
import type { AttachmentRef } from '../core/jobs.js';
import type { AddedExpression, GuildExpressions } from '../ports/guild-expressions.js';
import { toUserFacingError } from './error-mapping.js';
import { expressionImage, expressionWorkBytes } from './expression-image.js';
import type { JobDeps } from './image-job/deps.js';
import { queueRefusal } from './image-job/generate.js';
import { takeReferences } from './image-job/references.js';
import type { ModerationGate } from './moderation-gate.js';

/** The longest one expression takes once its turn has come: room, download, crop, encode and Discord's answer. */
const TIME_LIMIT_MS = 90_000;
/** The longest the crop and each encoding may run. */
const DECODE_TIMEOUT_SECONDS = 30;

/** What making an expression takes: the production's queue, downloads, memory and pixel cap, and the moderation gate. */
export type ExpressionDeps = Pick<JobDeps, 'produce'> & { log: Logger; moderation?: Pick<ModerationGate, 'check'> | undefined };

/** One member's ask: what to make, from which image, named how, and where. */
export interface ExpressionOrder {
  kind: ExpressionKind;
  words: ExpressionWords;
  /** The server (null in a direct message). */
  guildId: string | null;
  userId: string;
  place: ExpressionPlace;
  /** The card's image. */
  image: AttachmentRef;
  /** The result was made with `moderation:low`. */
  lowModeration: boolean;
  /** The server's preferred language (its audit line is written in it). */
  guildLocale?: string | null | undefined;
}

/**
 * Adds the expression of `order` through `target`; see the module comment.
 * @throws UserFacingError saying why it was refused or failed
 */
export async function makeExpression(deps: ExpressionDeps, order: ExpressionOrder, target: GuildExpressions): Promise<AddedExpression> {
  const refused = expressionRefusal(order.place);
  if (refused !== undefined || order.guildId === null) throw new UserFacingError(refused ?? 'expression.notInServer');
  if (order.lowModeration) throw new UserFacingError('expression.moderationLow');
  const guildId = order.guildId;
  await deps.moderation?.check({ guildId, userId: order.userId });
  const ticket = deps.produce.queue.submit(order.userId, (signal) => makeNow(deps, { ...order, guildId }, target, signal));
  if (!ticket.accepted) throw queueRefusal(ticket.reason, deps.produce.perMemberQueued);
  try {
    return await ticket.result;
  } catch (err) {
    throw toUserFacingError(err, () => []);
  }
}

/** The expression's turn has come: room, download, fit, add. */
async function makeNow(deps: ExpressionDeps, order: ExpressionOrder & { guildId: string }, target: GuildExpressions, queued: AbortSignal) {
  const { memory: budget, maxAttachmentBytes, maxDecodePixels, download } = deps.produce;
  const spec = EXPRESSION_SPECS[order.kind];
  const signal = AbortSignal.any([queued, AbortSignal.timeout(TIME_LIMIT_MS)]);
  const ref = order.image;
  const readUpTo = ref.size ?? unsizedImageBytes(maxAttachmentBytes, budget.referenceBytes);
  const room = readUpTo + expressionWorkBytes(spec);
  if (readUpTo > maxAttachmentBytes || room > budget.referenceBytes)
    throw new UserFacingError('input.attachmentInvalid', { param: ref.filename, detail: largerThan(Math.min(maxAttachmentBytes, budget.referenceBytes)) });
  const memory = budget.forJob(0);
  try {
    await takeReferences(deps.produce, memory, room, signal);
    const bytes = await download(ref, readUpTo, signal);
    const image = await expressionImage(bytes, spec, { filename: ref.filename, maxPixels: maxDecodePixels, timeoutSeconds: DECODE_TIMEOUT_SECONDS });
    const added = await target.add({ kind: order.kind, guildId: order.guildId, byUserId: order.userId, image, ...order.words }, signal);
    deps.log.info({ kind: order.kind, guildId: order.guildId, expressionId: added.id, bytes: image.length }, 'expression added');
    return added;
  } catch (err) {
    if (err instanceof ExpressionRefusedError) throw refusalOf(err, order.kind);
    throw err;
  } finally {
    memory.release();
  }
}

/** Discord's refusal, as the member reads it. */
function refusalOf(err: ExpressionRefusedError, kind: ExpressionKind): UserFacingError {
  const cause = { cause: err };
  switch (err.reason) {
    case 'botPermission':
      return new UserFacingError('expression.botPermission', {}, cause);
    case 'slotsFull':
      return new UserFacingError(kind === 'emoji' ? 'expression.emojiSlotsFull' : 'expression.stickerSlotsFull', {}, cause);
    case 'invalid':
      return new UserFacingError('expression.discordRefused', {}, cause);
    case 'rateLimited':
    case 'unavailable':
      return new UserFacingError('expression.unavailable', {}, cause);
  }
}
