/**
 * Emoji and stickers made from a result (issue 32): Discord's rules for them, the names members give them, and who may
 * add them. Since 2026-02-23 creating a server's emoji or sticker needs the Create Expressions permission
 * (CREATE_GUILD_EXPRESSIONS, 1 << 43) for bots as for members; Manage Expressions alone no longer does. The bot checks
 * both: the member's (the interaction's `member.permissions`, which Discord cannot check for it, since the bot makes
 * the call) and its own (`app_permissions`), and says which is missing. Pure.
 * @see https://discord.com/developers/docs/change-log#guild-expressions-and-events-permissions-now-available-to-developers
 * @see https://discord.com/developers/docs/resources/emoji#create-guild-emoji
 * @see https://discord.com/developers/docs/resources/sticker#create-guild-sticker
 */
import { z } from 'zod';

/** What a result can become. */
export type ExpressionKind = 'emoji' | 'sticker';

/** Discord's CREATE_GUILD_EXPRESSIONS permission bit. */
export const CREATE_GUILD_EXPRESSIONS = 1n << 43n;

const KIB = 1024;

/** The image each kind takes: a square PNG of `side` pixels, at most `maxBytes`. */
export interface ExpressionSpec {
  side: number;
  maxBytes: number;
}

/**
 * Emoji: at most 256 KiB (Discord shows them at 128×128 at most, and a larger image only costs bytes); stickers: a
 * PNG of 320×320 at most 512 KiB.
 */
export const EXPRESSION_SPECS: Readonly<Record<ExpressionKind, ExpressionSpec>> = {
  emoji: { side: 128, maxBytes: 256 * KIB },
  sticker: { side: 320, maxBytes: 512 * KIB },
};

/** An emoji's name: 2–32 letters, digits or underscores (what Discord's `:name:` syntax reads). */
export const EmojiName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_]{2,32}$/);
/** A sticker's name: 2–30 characters. */
export const StickerName = z.string().trim().min(2).max(30);
/** A sticker's tags: what finds it in the sticker picker (Discord: a related emoji's name), 2–200 characters. */
export const StickerTags = z.string().trim().min(2).max(200);
/** A sticker's description: empty, or 2–100 characters. */
export const StickerDescription = z
  .string()
  .trim()
  .max(100)
  .refine((text) => text.length !== 1);

/** What a member asked to add, once its words are checked. */
export interface ExpressionWords {
  name: string;
  /** Stickers only. */
  tags?: string | undefined;
  /** Stickers only; empty for none. */
  description?: string | undefined;
}

/** Which word of an expression is wrong: each has its own reason for members (`detail.expression.*`). */
export type ExpressionWordProblem = 'emojiName' | 'stickerName' | 'stickerTags' | 'stickerDescription';

/** The member's words for an expression of `kind`, trimmed; or the first that breaks Discord's rules. */
export function checkExpressionWords(
  kind: ExpressionKind,
  words: { name: string; tags?: string | undefined; description?: string | undefined },
): { ok: true; words: ExpressionWords } | { ok: false; problem: ExpressionWordProblem } {
  if (kind === 'emoji') {
    const name = EmojiName.safeParse(words.name);
    return name.success ? { ok: true, words: { name: name.data } } : { ok: false, problem: 'emojiName' };
  }
  const name = StickerName.safeParse(words.name);
  if (!name.success) return { ok: false, problem: 'stickerName' };
  const tags = StickerTags.safeParse(words.tags ?? '');
  if (!tags.success) return { ok: false, problem: 'stickerTags' };
  const description = StickerDescription.safeParse(words.description ?? '');
  if (!description.success) return { ok: false, problem: 'stickerDescription' };
  return { ok: true, words: { name: name.data, tags: tags.data, description: description.data } };
}

/**
 * A name to offer for an expression made from `prompt`: its first words as letters, digits and underscores (accents
 * dropped), within the kind's length; `imagine` when nothing of it is left.
 */
export function suggestedName(prompt: string, kind: ExpressionKind): string {
  const max = kind === 'emoji' ? 32 : 30;
  const words = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  let name = '';
  for (const word of words) {
    const next = name === '' ? word : `${name}_${word}`;
    if (next.length > max) break;
    name = next;
  }
  if (name.length < 2) name = (words[0] ?? '').slice(0, max);
  return name.length >= 2 ? name : 'imagine';
}

/** Where an expression is asked for, as the rule below needs it. */
export interface ExpressionPlace {
  /** The interaction happened in a server (not a direct message). */
  inServer: boolean;
  /** The bot itself is a member of that server (not only its commands installed). */
  botInServer: boolean;
  /** The member has Create Expressions there. */
  memberCanCreate: boolean;
  /** The bot has Create Expressions there. */
  botCanCreate: boolean;
}

/** Why an expression cannot be added here (each a member-facing error, `error.expression.*`). */
export type ExpressionRefusal = 'expression.notInServer' | 'expression.botNotInServer' | 'expression.memberPermission' | 'expression.botPermission';

/** Why an expression cannot be added at `place`, the first reason that applies; undefined when it can. */
export function expressionRefusal(place: ExpressionPlace): ExpressionRefusal | undefined {
  if (!place.inServer) return 'expression.notInServer';
  if (!place.botInServer) return 'expression.botNotInServer';
  if (!place.memberCanCreate) return 'expression.memberPermission';
  if (!place.botCanCreate) return 'expression.botPermission';
  return undefined;
}

/** Why Discord refused to add an expression, as the adapter tells the service. */
export type ExpressionFailure = 'botPermission' | 'slotsFull' | 'invalid' | 'rateLimited' | 'unavailable';

/** Discord refused to add an expression (thrown by the GuildExpressions port). */
export class ExpressionRefusedError extends Error {
  override name = 'ExpressionRefusedError';
  readonly reason: ExpressionFailure;

  constructor(reason: ExpressionFailure, options?: ErrorOptions) {
    super(`Discord refused the expression: ${reason}`, options);
    this.reason = reason;
  }
}
